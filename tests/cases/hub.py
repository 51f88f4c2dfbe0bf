"""paddle.hub (paddle.hapi.hub): a repository's hubconf.py entry points (local directories, and a GitHub
repository already in the hub cache) and state dicts by URL from the checkpoint directory.  No case uses the
network: Paddle would download what is not in place, paddle_on_torch says where to put it."""
import os
import shutil
import tempfile
import zipfile

from tests.cases import case

_HUBCONF = '''"""A tiny hub repository."""
dependencies = DEPS


def tiny(scale=1, bias=0):
    """tiny: a dict of its arguments."""
    return {"scale": scale, "bias": bias}


def _private():
    return 1


class Maker:
    """a callable class"""

    def __init__(self, n=2):
        self.n = n


VALUE = 3
'''


def _repo(deps=("os", "json"), where=None):
    d = where or tempfile.mkdtemp()
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "hubconf.py"), "w") as f:
        f.write(_HUBCONF.replace("DEPS", repr(list(deps))))
    return d


@case
def local_repository(paddle):
    d = _repo()
    return [sorted(paddle.hub.list(d, source="local")), paddle.hub.help(d, "tiny", source="local"),
            paddle.hub.load(d, "tiny", source="local", scale=3), paddle.hub.load(d, "Maker", source="local", n=5).n,
            paddle.hapi.hub.load is paddle.hub.load, paddle.hub.__all__]


@case
def cached_github_repository(paddle):
    """A GitHub repository already unpacked in the hub cache (~/.cache/paddle/hub/<owner>_<name>_<branch>) is used
    as it is; the branch after ':' names the directory."""
    hub_dir = os.path.expanduser(os.path.join("~", ".cache", "paddle", "hub"))
    dirs = [os.path.join(hub_dir, "pot-golden_tinyhub_main"), os.path.join(hub_dir, "pot-golden_tinyhub_dev_x")]
    try:
        for d in dirs:
            _repo(where=d)
        return [sorted(paddle.hub.list("pot-golden/tinyhub")),
                paddle.hub.load("pot-golden/tinyhub:dev/x", "tiny", source="github", bias=2)]
    finally:
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)


@case
def unknown_source(paddle):
    return paddle.hub.list(_repo(), source="svn")


@case
def model_name_not_a_string(paddle):
    return paddle.hub.load(_repo(), 3, source="local")


@case
def entry_point_missing(paddle):
    return paddle.hub.load(_repo(), "nope", source="local")


@case
def entry_point_not_callable(paddle):
    return paddle.hub.help(_repo(), "VALUE", source="local")


@case
def dependencies_missing(paddle):
    return paddle.hub.load(_repo(["os", "no_such_module_pot", "also_missing_pot"]), "tiny", source="local")


@case
def no_hubconf(paddle):
    return paddle.hub.list(tempfile.mkdtemp(), source="local")


def _saved(paddle, d, name, value):
    paddle.save({"w": paddle.to_tensor(value)}, os.path.join(d, name))


@case
def state_dict_from_url(paddle):
    """The file the URL names (or file_name) in model_dir, loaded with paddle.load; map_location 'cpu' / 'numpy';
    a zip holding one file is unpacked beside it and that file loaded."""
    d = tempfile.mkdtemp()
    _saved(paddle, d, "m.pdparams", [1.0, 2.0])
    _saved(paddle, d, "other.pdparams", [3.0])
    url = "https://example.com/x/m.pdparams"
    as_numpy = paddle.hub.load_state_dict_from_url(url, model_dir=d, map_location="numpy")
    z = tempfile.mkdtemp()
    _saved(paddle, z, "inner.pdparams", [4.0, 5.0])
    with zipfile.ZipFile(os.path.join(d, "m.zip"), "w") as f:
        f.write(os.path.join(z, "inner.pdparams"), "inner.pdparams")
    return [paddle.hub.load_state_dict_from_url(url, model_dir=d),
            paddle.hub.load_state_dict_from_url(url, model_dir=d, file_name="other.pdparams", map_location="cpu"),
            type(as_numpy["w"]).__name__, as_numpy["w"],
            paddle.hub.load_state_dict_from_url("https://example.com/m.zip", model_dir=d), sorted(os.listdir(d))]


@case
def state_dict_unknown_map_location(paddle):
    d = tempfile.mkdtemp()
    _saved(paddle, d, "m.pdparams", [1.0])
    return paddle.hub.load_state_dict_from_url("https://example.com/m.pdparams", model_dir=d, map_location="tpu")
