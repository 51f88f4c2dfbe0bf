"""`paddle-on-torch check --package NAME` on a small fake installed package (and `--reference` with a fake
"real Paddle" in a second interpreter): which Paddle names a library references and which resolve here."""
import json
import os
import sys
import textwrap

import pytest

from paddle_on_torch.cli import main
from paddle_on_torch.cli.check import scan

LIB = {
    "fakelib/__init__.py": """
        import paddle
        import paddle.nn.functional as F
        from paddle import tensor
        from paddle.nn import Linear

        paddle.long = "int64"                         # the library defines these itself
        setattr(paddle.Tensor, "my_view", lambda self: self)


        def shape_of(tensor, x):                      # the parameter hides `from paddle import tensor`
            return tensor.get_shape(), F.relu(x), paddle.long


        def build():
            return Linear(2, 3), paddle.to_tensor([1.0]), paddle.Tensor.abs, paddle.not_a_paddle_api
        """,
    "fakelib/data.py": """
        import paddle.static as text
        from paddle import nn


        class Model(nn.Layer):
            def forward(self, x):
                for nn in x:                          # a local `nn` hides the alias in this function
                    nn.whatever()
                return [text for text in x], text.IpuStrategy, paddle_like()


        def paddle_like():
            import paddle
            return paddle.not_a_paddle_api
        """,
    "fakelib_extra/__init__.py": """
        from paddle.nn.functional import relu
        """,
}


@pytest.fixture
def fakelib(tmp_path, monkeypatch):
    root = tmp_path / "site"
    for rel, src in LIB.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(src))
    info = root / "fakedist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakedist\nVersion: 1.0\n")
    (info / "RECORD").write_text("".join(f"{rel},,\n" for rel in LIB) + "fakedist-1.0.dist-info/RECORD,,\n")
    monkeypatch.syspath_prepend(str(root))
    return root


def test_scanner_follows_scopes_and_skips_own_definitions():
    uses, defined = scan(textwrap.dedent(LIB["fakelib/__init__.py"]))
    names = {n for n, _ in uses}
    assert {"paddle.nn.functional", "paddle.tensor", "paddle.nn.Linear", "paddle.nn.functional.relu",
            "paddle.to_tensor", "paddle.Tensor", "paddle.Tensor.abs", "paddle.not_a_paddle_api", "paddle.long"} == names
    assert not any(n.startswith("paddle.tensor.") for n in names)  # tensor.get_shape is the parameter's
    assert sorted(n for n, _ in defined) == ["paddle.Tensor.my_view", "paddle.long"]


def test_package_by_import_name(fakelib, capsys):
    assert main(["check", "--json", "--package", "fakelib"]) == 0
    result = json.loads(capsys.readouterr().out)["fakelib"]
    total = result["total"]
    assert result["package"]["paths"] == [str(fakelib / "fakelib")]
    assert total["files"] == 2
    apis = total["apis"]
    # paddle.long and paddle.Tensor.my_view are the library's own; nn.whatever is a loop variable's
    assert set(apis) == {"paddle.nn.functional", "paddle.tensor", "paddle.nn", "paddle.nn.Linear",
                         "paddle.nn.Layer", "paddle.nn.functional.relu", "paddle.to_tensor", "paddle.Tensor", "paddle.Tensor.abs",
                         "paddle.not_a_paddle_api", "paddle.static", "paddle.static.IpuStrategy"}
    assert result["defined"] == {"paddle.Tensor.my_view": 1, "paddle.long": 1}
    assert apis["paddle.not_a_paddle_api"] == {"supported": False, "known_to_paddle": False, "count": 2, "files": 2,
                                              "detail": "module 'paddle' has no attribute 'not_a_paddle_api'"}
    # paddle.static.IpuStrategy is known and refused with a NotImplementedError naming it: unsupported, saying so
    ipu = apis["paddle.static.IpuStrategy"]
    assert ipu["supported"] is False and ipu["known_to_paddle"] is True
    assert ipu["unsupported"] is True and "unsupported" not in apis["paddle.not_a_paddle_api"]
    assert (total["distinct"], total["supported"], total["unsupported"], total["missing"]) == (12, 10, 1, 1)
    assert total["coverage"] == round(100 * 10 / 12, 1)
    assert total["resolved_coverage"] == round(100 * 11 / 12, 1)


def test_package_by_distribution_name_text_report(fakelib, capsys):
    assert main(["check", "--package", "fakedist", "--fail-under", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("fakedist (3 files): 12 APIs, 10 supported, 1 unsupported (saying so), 1 missing (83.3%; "
                      "91.7% resolve)")
    assert out[1].startswith("  missing    paddle.not_a_paddle_api  (2 uses in 2 files)  [not a Paddle 3.3.1 API]")
    assert out[2].startswith("  unsupported paddle.static.IpuStrategy  (1 use in 1 file): paddle.static.IpuStrategy is not "
                             "supported")
    assert out[3] == "  (2 paddle names the package assigns itself, left out: paddle.Tensor.my_view, paddle.long)"
    assert main(["check", "--package", "fakedist", "--fail-under", "90"]) == 1
    capsys.readouterr()


def test_package_errors(fakelib, capsys):
    assert main(["check", "--package", "no_such_package_here"]) == 3
    assert "no installed package or distribution" in capsys.readouterr().err
    assert main(["check"]) == 2
    assert "give a PATH or --package NAME" in capsys.readouterr().err


def test_reference_interpreter(fakelib, tmp_path, monkeypatch, capsys):
    """--reference resolves each name in another interpreter's real Paddle (here a fake one on PYTHONPATH):
    the coverage is then over the names that Paddle has."""
    ref = tmp_path / "ref" / "paddle"
    (ref / "nn").mkdir(parents=True)
    (ref / "static").mkdir()
    (ref / "__init__.py").write_text("__version__ = '9.9.9'\nfrom . import nn, static\nTensor = type('Tensor', (), "
                                     "{'abs': abs})\ndef to_tensor(x):\n    return x\ntensor = None\n")
    (ref / "nn" / "__init__.py").write_text("class Layer: pass\nclass Linear(Layer): pass\n")
    (ref / "nn" / "functional.py").write_text("def relu(x):\n    return x\n")
    (ref / "static" / "__init__.py").write_text("class IpuStrategy: pass\n")
    monkeypatch.setenv("PYTHONPATH", str(ref.parent))
    assert main(["check", "--json", "--package", "fakelib", "--reference", sys.executable]) == 0
    result = json.loads(capsys.readouterr().out)["fakelib"]
    assert result["reference"] == {"python": sys.executable, "paddle": "9.9.9"}
    total = result["total"]
    assert total["apis"]["paddle.not_a_paddle_api"]["in_reference"] is False
    assert total["apis"]["paddle.static.IpuStrategy"]["in_reference"] is True
    assert (total["in_reference"], total["reference_supported"], total["reference_coverage"]) == (11, 10, 90.9)
    assert (total["reference_unsupported"], total["reference_resolved_coverage"]) == (1, 100.0)
    assert main(["check", "--package", "fakelib", "--reference", sys.executable, "--fail-under", "90"]) == 0
    out = capsys.readouterr().out
    assert "; of the 11 that real Paddle has, 10 supported (90.9%, 100.0% resolve)" in out
    assert "paddle.not_a_paddle_api  (2 uses in 2 files)  [not in the reference Paddle either]" in out
    # an interpreter whose `import paddle` fails is a usage error, with its last line of stderr
    monkeypatch.setenv("PYTHONPATH", os.pathsep)
    assert main(["check", "--package", "fakelib", "--reference", sys.executable]) == 2
    assert "ModuleNotFoundError: No module named 'paddle'" in capsys.readouterr().err


# ===================================================================== Paddle's own libraries (docs/ecosystem.md)

ECOSYSTEM = os.path.join(os.path.dirname(__file__), "data", "ecosystem_names.json")
_RANK = {"missing": 0, "unsupported": 1, "supported": 2}
# libraries under the 99% target, with why (docs/ecosystem.md "Coverage of the Paddle names ..." lists the names)
BELOW_TARGET = {}  # (none now: PaddleFormers reached 99% with flex_checkpoint and program_translator)


def test_every_name_paddles_libraries_reference_still_resolves():
    """The Paddle names PaddleNLP, PaddleFormers, PaddleScience, PaddleOCR, PaddleDetection, PaddleSeg, PaddleClas,
    PaddleSpeech and PaddleX reference (scanned from their sources by tools/record_ecosystem_names.py, with real
    Paddle 3.3.1's answer for each) resolve here at least as they did when recorded: supported stays supported,
    unsupported (a NotImplementedError naming the API) never becomes missing; and each library's share of the
    names real Paddle has that resolve here is at least 99%, or as recorded for the ones listed in BELOW_TARGET."""
    from paddle_on_torch.cli.check import _Resolver

    with open(ECOSYSTEM) as f:
        data = json.load(f)
    assert data["paddle"] == "3.3.1" and len(data["libraries"]) >= 9
    resolver = _Resolver()
    now, worse = {}, []
    for name, was in data["names"].items():
        _, ok, detail, says_so = resolver.classify(name)
        now[name] = "supported" if ok else "unsupported" if says_so else "missing"
        if _RANK[now[name]] < _RANK[was]:
            worse.append(f"{name}: recorded {was}, now {now[name]} ({detail})")
    assert not worse, "\n".join(worse)
    for label, lib in data["libraries"].items():
        in_paddle = [n for n, (_uses, _files, in_reference) in lib["apis"].items() if in_reference]
        resolved = sum(now[n] != "missing" for n in in_paddle)
        recorded = sum(data["names"][n] != "missing" for n in in_paddle)
        assert resolved >= recorded, label
        if label in BELOW_TARGET:
            assert resolved < 0.99 * len(in_paddle), f"{label} reached 99%: take it out of BELOW_TARGET"
        else:
            assert resolved >= 0.99 * len(in_paddle), (label, resolved, len(in_paddle))
