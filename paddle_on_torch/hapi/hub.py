"""paddle.hapi.hub (paddle.hub): models published by a repository's hubconf.py, and state dicts by URL.

A repository is a local directory (source='local') or a GitHub / Gitee repository (`owner/name[:branch]`), kept
unpacked under ~/.cache/paddle/hub/<owner>_<name>_<branch>.  paddle_on_torch never uses the network (as for
datasets and weights, paddle.utils.download): a repository is taken from that cache, or from its archive
(`<branch>.zip`, as GitHub / Gitee serve it) placed in ~/.cache/paddle/hub; a state dict from its file in the
checkpoint directory.  Otherwise the RuntimeError says which file to put where.
"""
import contextlib
import errno
import os
import shutil
import sys
import warnings
import zipfile
from urllib.parse import urlparse

__all__ = []

_SOURCES = ("github", "gitee", "local")
MODULE_HUBCONF = "hubconf.py"
VAR_DEPENDENCY = "dependencies"
HUB_DIR = os.path.expanduser(os.path.join("~", ".cache", "paddle", "hub"))


def _check_source(source):
    if source not in _SOURCES:
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "gitee" | "local".')


def _remove(path):
    if os.path.isfile(path):
        os.remove(path)
    elif os.path.exists(path):
        shutil.rmtree(path)


def _repo_parts(repo, source):
    """(owner, name, branch) of 'owner/name[:branch]'; the branch defaults to main (GitHub) or master (Gitee)."""
    branch = "main" if source == "github" else "master"
    if ":" in repo:
        repo, branch = repo.split(":")
    owner, name = repo.split("/")
    return owner, name, branch


def _archive_url(owner, name, branch, source):
    if source == "github":
        return f"https://github.com/{owner}/{name}/archive/{branch}.zip"
    return f"https://gitee.com/{owner}/{name}/repository/archive/{branch}.zip"


def _repo_dir(repo, force_reload, source):
    """The unpacked repository: from the cache, else unpacked from its archive in HUB_DIR (as Paddle lays it out)."""
    from ..utils.download import get_path_from_url

    os.makedirs(HUB_DIR, exist_ok=True)
    owner, name, branch = _repo_parts(repo, source)
    branch_name = branch.replace("/", "_")
    repo_dir = os.path.join(HUB_DIR, "_".join([owner, name, branch_name]))
    if not force_reload and os.path.exists(repo_dir):
        sys.stderr.write(f"Using cache found in {repo_dir}\n")
        return repo_dir
    archive = get_path_from_url(_archive_url(owner, name, branch, source), HUB_DIR, check_exist=not force_reload,
                                decompress=False)
    with zipfile.ZipFile(archive) as z:
        top = z.infolist()[0].filename  # the archive's one top directory
        _remove(os.path.join(HUB_DIR, top))
        z.extractall(HUB_DIR)
    _remove(repo_dir)
    shutil.move(os.path.join(HUB_DIR, top), repo_dir)
    return repo_dir


def _hubconf(repo_dir, source, force_reload):
    """The repository's hubconf module, imported afresh from its directory."""
    _check_source(source)
    if source != "local":
        repo_dir = _repo_dir(repo_dir, force_reload, source)
    name = MODULE_HUBCONF[:-3]
    sys.path.insert(0, repo_dir)
    try:
        module = __import__(name)
        sys.modules.pop(name)
    except ImportError:
        raise RuntimeError("Please make sure config exists or repo error messages above fixed when importing")
    finally:
        sys.path.remove(repo_dir)
    return module


def _entry(module, model):
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a str of function name")
    fn = getattr(module, model, None)
    if fn is None or not callable(fn):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return fn


def _importable(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def list(repo_dir, source="github", force_reload=False):
    """The names of the callables a repository's hubconf.py publishes (those not starting with _)."""
    module = _hubconf(repo_dir, source, force_reload)
    return [n for n in dir(module) if callable(getattr(module, n)) and not n.startswith("_")]


def help(repo_dir, model, source="github", force_reload=False):
    """The docstring of one of a repository's entry points."""
    return _entry(_hubconf(repo_dir, source, force_reload), model).__doc__


def load(repo_dir, model, source="github", force_reload=False, **kwargs):
    """What a repository's entry point `model` returns for **kwargs, once its `dependencies` are importable."""
    module = _hubconf(repo_dir, source, force_reload)
    missing = [d for d in getattr(module, VAR_DEPENDENCY, None) or [] if not _importable(d)]
    if missing:
        raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    return _entry(module, model)(**kwargs)


def get_dir():
    """Where hub files are kept: $PADDLE_HOME/hub (PADDLE_HOME defaulting to $XDG_CACHE_HOME/paddle)."""
    if os.getenv("PADDLE_HUB"):
        warnings.warn("PADDLE_HUB is deprecated, please use env PADDLE_HOME instead")
    home = os.getenv("PADDLE_HOME", os.path.join(os.getenv("XDG_CACHE_HOME", "~/.cache"), "paddle"))
    return os.path.join(os.path.expanduser(home), "hub")


@contextlib.contextmanager
def device_guard(device="cpu", dev_id=0):
    """paddle.set_device(device) for the block (cpu, or gpu / xpu / npu with dev_id), restored after."""
    import paddle_on_torch as paddle

    before = paddle.device.get_device()
    if device == "cpu":
        paddle.set_device(device)
    elif device in ("gpu", "xpu", "npu"):
        paddle.set_device(f"{device}:{dev_id}")
    try:
        yield
    finally:
        paddle.set_device(before)


def _single_file_zip(path):
    """Paddle's legacy checkpoint archive: a zip holding one file."""
    if not zipfile.is_zipfile(path):
        return False
    members = zipfile.ZipFile(path).infolist()
    return len(members) == 1 and not members[0].is_dir()


def _load(path, map_location):
    import paddle_on_torch as paddle

    if not map_location:
        return paddle.load(path)
    if map_location in ("numpy", "np"):
        return paddle.load(path, return_numpy=True)
    with device_guard(map_location):
        return paddle.load(path)


def load_state_dict_from_url(url, model_dir=None, check_hash=False, file_name=None, map_location=None):
    """paddle.load of the file `url` names (or `file_name`) in `model_dir` (default get_dir()/checkpoints); a
    zip holding one file is unpacked there first.  The file must be in place (no download here)."""
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    try:
        os.makedirs(model_dir)
    except OSError as e:
        if e.errno != errno.EEXIST:
            raise
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached = os.path.join(model_dir, filename)
    if not os.path.exists(cached):
        raise RuntimeError(f"Cannot download {url}: paddle_on_torch does not download files. Fetch it yourself and "
                           f"put it at {cached}.")
    if map_location:
        assert map_location in ["cpu", "gpu", "xpu", "npu", "numpy", "np"]
    if _single_file_zip(cached):
        with zipfile.ZipFile(cached) as z:
            member = z.infolist()
            if len(member) != 1:
                raise RuntimeError("Only one file(not dir) is allowed in the zipfile")
            z.extractall(model_dir)
            cached = os.path.join(model_dir, member[0].filename)
    return _load(cached, map_location)

