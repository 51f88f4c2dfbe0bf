"""The paddle-on-torch CLI: run, check, convert, env (tests/data/cli holds small scripts for check)."""
import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
import torch

from paddle_on_torch.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IO_DATA = os.path.join(ROOT, "tests", "data", "io")
CLI_DATA = os.path.join(ROOT, "tests", "data", "cli")


def cli(*args, cwd=None):
    """The CLI in a subprocess, as a user runs it: (exit code, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "paddle_on_torch.cli", *args], capture_output=True, text=True,
                       cwd=cwd or ROOT, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


# ===================================================================== subprocess runs of each subcommand


@pytest.mark.slow
def test_run_and_env_subprocesses(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import sys, paddle\nx = paddle.to_tensor([1.0, 2.0])\nprint(type(paddle).__name__, "
                      "paddle.__name__, float(x.sum()), sys.argv[1:])\nsys.exit(5)\n")
    rc, out, err = cli("run", "--report", str(script), "--lr", "0.1")
    assert rc == 5, err
    assert "module paddle_on_torch 3.0 ['--lr', '0.1']" in out
    assert "every Paddle API this run used is supported" in err
    rc, out, err = cli("env", "--json")
    assert rc == 0, err
    info = json.loads(out)
    assert info["torch"] == torch.__version__ and info["paddle_api"] == "3.3.1"
    assert {d["paddle"] for d in info["devices"]} >= {"cpu", "gpu", "xpu"}
    assert set(info) >= {"python", "cxx_compiler", "ninja", "triton"}


def test_every_subcommand_has_help(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "{run,check,convert,env,port}" in out
    for sub in ("run", "check", "convert", "env", "port"):
        assert main([sub, "--help"]) == 0
        assert "usage: paddle-on-torch " + sub in capsys.readouterr().out


def test_port_and_usage_errors(capsys):
    assert main(["port", "x.py"]) == 2  # --example-input and --out are required
    assert main([]) == 2
    assert main(["frobnicate"]) == 2
    assert main(["run"]) == 2


# ===================================================================== port

_PORT_RUNNER = r"""
import importlib.util, sys, numpy as np, torch
for name, d in zip(sys.argv[1::2], sys.argv[2::2]):
    spec = importlib.util.spec_from_file_location("m_" + name, d + "/model.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    model = mod.load()
    rec = np.load(d + "/../" + name + ".npz")
    with torch.no_grad():
        out = model(torch.from_numpy(rec["input0"]))
    outs = out if isinstance(out, tuple) else (out,)
    for i, o in enumerate(outs):
        np.testing.assert_allclose(o.numpy(), rec["eval/out%d" % i], rtol=1e-5, atol=1e-5)
assert "paddle_on_torch" not in sys.modules and "paddle" not in sys.modules
print("ok")
"""


@pytest.mark.compile
def test_port_model_zoo_to_standalone_torch(tmp_path, monkeypatch, capsys):
    import shutil

    monkeypatch.chdir(ROOT)
    zoo = os.path.join(ROOT, "tests", "data", "model_zoo")
    args = []
    for name, shape in (("resnet", "4,3,32,32"), ("lstm_tagger", "3x7:int64"), ("mobilenetv3", "3,3,48,48"),
                        ("gpt", "2x10:int64")):
        out = tmp_path / name
        assert main(["port", f"tests.model_zoo.{name}:build", "--weights", os.path.join(zoo, name + ".pdparams"),
                     "--example-input", shape, "--out", str(out)]) == 0, capsys.readouterr().err
        src = (out / "model.py").read_text()
        assert "paddle" not in src.split('"""', 2)[2].split("WEIGHTS")[0]  # imports: torch only
        shutil.copy(os.path.join(zoo, name + ".npz"), tmp_path / (name + ".npz"))
        args += [name, str(out)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-c", _PORT_RUNNER, *args], capture_output=True, text=True, env=env,
                       cwd=str(tmp_path), timeout=120)
    assert p.returncode == 0 and "ok" in p.stdout, p.stderr


@pytest.mark.compile
def test_port_errors_and_check(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    zoo = os.path.join(ROOT, "tests", "data", "model_zoo")
    base = ["port", "tests.model_zoo.lstm_tagger:build", "--out", str(tmp_path / "o")]
    assert main(base + ["--example-input", "3x7:int64", "--weights", str(tmp_path / "nope.pdparams")]) == 3
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.pdparams"
    bad.write_bytes(b"not a pickle")
    assert main(base + ["--example-input", "3x7:int64", "--weights", str(bad)]) == 3
    assert main(base + ["--example-input", "3x?", "--weights", str(bad)]) == 2
    assert main(base + ["--example-input", "3x7:int64", "--weights", str(bad)]) == 3
    assert main(["port", "nocolon", "--example-input", "3", "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o").exists()
    # --check: the Paddle layer vs the written module in a fresh process
    assert main(base + ["--example-input", "3x7:int64", "--weights", os.path.join(zoo, "lstm_tagger.pdparams"),
                        "--check"]) == 0, capsys.readouterr().err
    assert "matches" in capsys.readouterr().out
    assert main(base + ["--example-input", "3x7:int64"]) == 2  # exists without --force
    capsys.readouterr()


@pytest.mark.compile
def test_port_variable_sizes(tmp_path, monkeypatch, capsys):
    """Dims given as a name or -1 stay variable: --check runs the port at the traced and at other sizes."""
    monkeypatch.chdir(ROOT)
    zoo = os.path.join(ROOT, "tests", "data", "model_zoo")
    for name, shape in (("resnet", "batch,3,32,32"), ("gpt", "-1x-1:int64")):
        out = tmp_path / name
        assert main(["port", f"tests.model_zoo.{name}:build", "--weights", os.path.join(zoo, name + ".pdparams"),
                     f"--example-input={shape}", "--out", str(out), "--check"]) == 0, capsys.readouterr().err
        assert "matches" in capsys.readouterr().out
    assert "INPUTS = [[['batch', 3, 32, 32], 'float32']]" in (tmp_path / "resnet" / "model.py").read_text()


# ===================================================================== check


def test_check_resolves_aliases(capsys):
    assert main(["check", "--json", os.path.join(CLI_DATA, "aliases.py")]) == 0
    result = json.loads(capsys.readouterr().out)
    apis = next(iter(result["files"].values()))["apis"]
    assert {"paddle.to_tensor", "paddle.nn.functional.relu", "paddle.nn.Linear", "paddle.nn.Sequential",
            "paddle.nn.ReLU", "paddle.sum", "paddle.Tensor.abs"} <= set(apis)
    assert all(e["supported"] for e in apis.values())
    assert result["total"]["coverage"] == 100.0


def test_check_reports_missing_and_coverage(capsys):
    assert main(["check", "--json", CLI_DATA]) == 0
    result = json.loads(capsys.readouterr().out)
    missing = result["files"][os.path.join(CLI_DATA, "missing.py")]["apis"]
    assert missing["paddle.static.IpuStrategy"] == {
        "count": 1, "lines": [7], "supported": False, "known_to_paddle": True, "unsupported": True,
        "detail": "paddle.static.IpuStrategy is not supported by paddle_on_torch yet"}
    assert missing["paddle.set_device"]["supported"] is True
    assert missing["paddle.not_a_paddle_api"]["known_to_paddle"] is False
    assert not missing["paddle.not_a_paddle_api"]["supported"]
    total = result["total"]
    assert total["files"] == 2 and 0 < total["coverage"] < 100
    assert main(["check", "--fail-under", "99", CLI_DATA]) == 1
    out = capsys.readouterr().out
    assert "unsupported paddle.static.IpuStrategy  (1 use, line 7)" in out
    assert out.rstrip().splitlines()[-1].startswith("total:")


def test_check_unparsable_and_absent_files(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("import paddle\ndef f(:\n")
    good = tmp_path / "good.py"
    good.write_text("from paddle import nn as N\nN.Conv2D\n")
    assert main(["check", str(tmp_path)]) == 3
    captured = capsys.readouterr()
    assert "bad.py: could not be scanned: SyntaxError" in captured.err
    assert "good.py: 2 APIs, 2 supported" in captured.out  # paddle.nn, paddle.nn.Conv2D
    assert main(["check", str(tmp_path / "nope.py")]) == 3


# ===================================================================== convert


def _tensors(path):
    from paddle_on_torch.cli.convert import read

    return read(path)


def _bits(t):
    return t.contiguous().reshape(-1).view(torch.uint8) if t.numel() else t


@pytest.mark.parametrize("name", ["state_p4.pdparams", "state_p2.pdparams", "split_p2.pdparams", "adam_p4.pdopt"])
def test_convert_round_trips_real_paddle_files_bit_exact(tmp_path, name, capsys):
    src = os.path.join(IO_DATA, name)
    mid, back = tmp_path / (name + ".safetensors"), tmp_path / ("back_" + name)
    assert main(["convert", src, str(mid), "--verify"]) == 0
    assert main(["convert", str(mid), str(back), "--verify"]) == 0
    a, b = _tensors(src), _tensors(str(back))
    assert a[1] == b[1] and a[2] == b[2]  # parameter names, non-tensor entries
    assert list(a[0]) == list(b[0]) and a[3] == b[3]  # the keys in their order (safetensors sorts them)
    assert list(_tensors(str(mid))[0]) == list(a[0])
    for k in a[0]:
        assert a[0][k].dtype == b[0][k].dtype and a[0][k].shape == b[0][k].shape
        assert torch.equal(_bits(a[0][k]), _bits(b[0][k])), k
    # and the result is a file real Paddle's paddle.load reads: same layout as what paddle.save writes
    import paddle_on_torch as paddle

    got = paddle.load(str(back))
    assert list(got) == list(paddle.load(src))


def test_convert_pdparams_to_torch_with_model(tmp_path, capsys):
    import paddle_on_torch as paddle

    (tmp_path / "netdef.py").write_text(
        "import paddle\n"
        "class Net(paddle.nn.Layer):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = paddle.nn.Linear(3, 2)\n"
        "        self.bn = paddle.nn.BatchNorm1D(2)\n"
        "        self.emb = paddle.nn.Embedding(5, 3)\n"
        "    def forward(self, x):\n"
        "        return self.bn(self.fc(x))\n"
        "def build():\n"
        "    return Net()\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import netdef

        net = netdef.build()  # (conftest keeps the import hook installed for the whole session)
        paddle.save(net.state_dict(), str(tmp_path / "net.pdparams"))
        assert main(["convert", str(tmp_path / "net.pdparams"), str(tmp_path / "net.pt"), "--to", "torch",
                     "--model", "netdef:build", "--verify"]) == 0
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("netdef", None)
    sd = torch.load(tmp_path / "net.pt", weights_only=True)
    tnet = torch.nn.Sequential()
    tnet.fc, tnet.bn, tnet.emb = torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2), torch.nn.Embedding(5, 3)
    missing, unexpected = tnet.load_state_dict(sd, strict=False)
    assert not missing and not unexpected  # (torch fills in BatchNorm's num_batches_tracked)
    x = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")
    net.eval()
    tnet.eval()
    want = net(paddle.to_tensor(x)).numpy()
    np.testing.assert_allclose(tnet.bn(tnet.fc(torch.from_numpy(x))).detach().numpy(), want, rtol=1e-6, atol=1e-6)
    assert torch.equal(tnet.emb.weight, torch.from_numpy(net.emb.weight.numpy()))  # not transposed
    # and back: torch -> Paddle layout with the same model
    capsys.readouterr()
    sys.path.insert(0, str(tmp_path))
    try:
        assert main(["convert", str(tmp_path / "net.pt"), str(tmp_path / "again.pdparams"), "--to", "paddle",
                     "--model", "netdef:build", "--verify"]) == 0
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("netdef", None)
    again = paddle.load(str(tmp_path / "again.pdparams"))
    assert set(again) == set(net.state_dict())
    for k, v in net.state_dict().items():
        np.testing.assert_array_equal(again[k].numpy(), v.numpy())


def test_convert_with_rule_file(tmp_path, capsys):
    src = tmp_path / "w.safetensors"
    from safetensors.torch import save_file

    save_file({"proj.w": torch.arange(6.0).reshape(2, 3), "proj.b": torch.ones(3)}, str(src))
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"transpose": [r".*\.w"], "rename": [[r"\.w$", ".weight"], [r"\.b$", ".bias"]]}))
    assert main(["convert", str(src), str(tmp_path / "w.pt"), "--to", "torch", "--rules", str(rules)]) == 0
    sd = torch.load(tmp_path / "w.pt", weights_only=True)
    assert torch.equal(sd["proj.weight"], torch.arange(6.0).reshape(2, 3).t())
    assert set(sd) == {"proj.weight", "proj.bias"}


class _Boom:
    def __reduce__(self):
        return (os.system, ("touch PWNED",))


@pytest.mark.parametrize("ext", [".pdparams", ".pt"])
def test_convert_refuses_malicious_pickles_without_running_them(tmp_path, ext, capsys):
    src = tmp_path / ("evil" + ext)
    if ext == ".pt":
        torch.save({"w": torch.ones(2), "x": _Boom()}, src)
    else:
        src.write_bytes(pickle.dumps({"w": np.ones(2, "float32"), "x": _Boom()}, protocol=4))
    out = tmp_path / "out.safetensors"
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["convert", str(src), str(out)]) == 3
    finally:
        os.chdir(old)
    assert "cannot read" in capsys.readouterr().err
    assert not (tmp_path / "PWNED").exists()
    assert sorted(os.listdir(tmp_path)) == [src.name]  # no output, no temporary file


@pytest.mark.parametrize("data", [b"", b"\x80\x04garbage", b"\x10\x00\x00\x00\x00\x00\x00\x00{not json"])
def test_convert_refuses_corrupt_files(tmp_path, data, capsys):
    for ext in (".pdparams", ".safetensors", ".pt"):
        src = tmp_path / ("bad" + ext)
        src.write_bytes(data)
        out = tmp_path / ("out" + (".pt" if ext != ".pt" else ".safetensors"))
        assert main(["convert", str(src), str(out)]) == 3
        assert not out.exists()
        src.unlink()
    assert os.listdir(tmp_path) == []


def test_convert_usage_errors(tmp_path, capsys):
    src = os.path.join(IO_DATA, "state_p4.pdparams")
    assert main(["convert", src, str(tmp_path / "x.onnx")]) == 2
    assert main(["convert", str(tmp_path / "none.pdparams"), str(tmp_path / "x.pt")]) == 3
    (tmp_path / "exists.pt").write_bytes(b"keep")
    assert main(["convert", src, str(tmp_path / "exists.pt")]) == 2
    assert (tmp_path / "exists.pt").read_bytes() == b"keep"
    assert main(["convert", src, str(tmp_path / "y.pt"), "--model", "m:f"]) == 2

