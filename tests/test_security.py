"""Loading never runs code from a file: a generated corpus of crafted files against every loader.

Every crafted file, if its code ran, would create a marker file of its own.  Each loader gets each
file where it expects its input (the file names and layouts it reads), and must refuse it with a
clear error: an UnpicklingError subclass (paddle_on_torch's UnsafePickleError is also a ValueError,
Paddle's type for a bad file) whose message names what was refused; no marker may appear.
docs/security.md says what each loader admits and why.
"""
import base64
import io
import json
import os
import pickle
import shutil
import struct
import sys
import tarfile
import zipfile
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
import torch

import paddle_on_torch as paddle
from paddle_on_torch.framework.safe_pickle import UnsafePickleError

PROGRAM = "paddle_on_torch.static.program/"


# ===================================================================== a tiny pickle assembler
def _s(text, proto):
    b = text.encode("utf-8")
    if proto == 0:
        return b"V" + text.encode("raw_unicode_escape") + b"\n"
    return b"X" + struct.pack("<I", len(b)) + b


def _g(module, name, proto):
    if proto >= 4:
        return _s(module, proto) + _s(name, proto) + b"\x93"  # STACK_GLOBAL
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"  # GLOBAL


def _call(fn, args, proto):
    return fn + b"(" + b"".join(args) + b"tR"  # MARK args TUPLE REDUCE


def _wrap(body, proto):
    return (bytes([0x80, proto]) if proto >= 2 else b"") + body + b"."


def _list(items):
    return b"(" + b"".join(items) + b"l"


class _Reduce:
    """An object that pickles as `fn(*args)` (the pickle only names fn: nothing runs here)."""

    def __init__(self, fn, *args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


# ===================================================================== the corpus
def corpus(marks):
    """[(label, bytes, words the refusal must name)]: each, if executed, creates marks/<label>."""
    items = []

    def add(label, data, *words):
        items.append((label, data, words))

    def m(label):
        return str(marks / label)

    def sh(label):  # a shell command creating the marker
        return f"touch '{m(label)}'"

    for p in range(6):
        add(f"os.system p{p}", _wrap(_call(_g("os", "system", p), [_s(sh(f'os.system p{p}'), p)], p), p),
            "os", "system")
        add(f"posix.system p{p}",
            _wrap(_call(_g("posix", "system", p), [_s(sh(f'posix.system p{p}'), p)], p), p),
            "posix", "system")
        add(f"subprocess p{p}", _wrap(_call(_g("subprocess", "call", p), [
            _list([_s("sh", p), _s("-c", p), _s(sh(f'subprocess p{p}'), p)])], p), p),
            "subprocess", "call")
        add(f"eval p{p}", _wrap(_call(_g("builtins", "eval", p), [
            _s(f"open({m(f'eval p{p}')!r}, 'w')", p)], p), p), "builtins", "eval")
        add(f"exec p{p}", _wrap(_call(_g("builtins", "exec", p), [
            _s(f"open({m(f'exec p{p}')!r}, 'w')", p)], p), p), "builtins", "exec")
        # dotted names: pickle's own find_class follows them at protocol 4+ (any object at all)
        add(f"dotted numpy.os.system p{p}", _wrap(_call(_g("numpy", "os.system", p), [
            _s(sh(f'dotted numpy.os.system p{p}'), p)], p), p), "numpy", "os.system")
        add(f"dotted torch.os.system p{p}", _wrap(_call(_g("torch", "os.system", p), [
            _s(sh(f'dotted torch.os.system p{p}'), p)], p), p), "torch", "os.system")
        get_eval = _call(_g("operator", "__builtins__.get", p), [_s("eval", p)], p)
        add(f"dotted operator.__builtins__ p{p}", _wrap(_call(get_eval, [
            _s(f"open({m(f'dotted operator.__builtins__ p{p}')!r}, 'w')", p)], p), p), "operator", "__builtins__.get")
        add(f"dotted collections p{p}", _wrap(_call(_g("collections", "OrderedDict.__init__.__globals__", p),
                                                    [], p), p), "collections", "OrderedDict.__init__")
    p = 2
    # getattr chains and other builtins
    add("getattr chain", _wrap(_call(_call(_g("builtins", "getattr", p), [
        _call(_g("builtins", "__import__", p), [_s("os", p)], p), _s("system", p)], p),
        [_s(sh('getattr chain'), p)], p), p), "builtins", "getattr")
    add("__import__", _wrap(_call(_g("builtins", "__import__", p), [_s("os", p)], p), p), "builtins", "__import__")
    add("builtins.open", _wrap(_call(_g("builtins", "open", p), [_s(m("builtins.open"), p), _s("w", p)], p), p),
        "builtins", "open")
    add("builtins.compile", _wrap(_call(_g("builtins", "compile", p), [_s("1", p), _s("x", p), _s("eval", p)], p), p),
        "builtins", "compile")
    add("builtins.setattr", _wrap(_call(_g("builtins", "setattr", p), [_s("a", p), _s("b", p), _s("c", p)], p), p),
        "builtins", "setattr")
    add("builtins.globals", _wrap(_call(_g("builtins", "globals", p), [], p), p), "builtins", "globals")
    add("builtins.type", _wrap(_call(_g("builtins", "type", p), [_s("X", p)], p), p), "builtins", "type")
    add("__builtin__.eval", _wrap(_call(_g("__builtin__", "eval", p), [
        _s(f"open({m('__builtin__.eval')!r}, 'w')", p)], p), p), "builtins", "eval")
    add("object.__subclasses__", _wrap(_call(_g("builtins", "object.__subclasses__", 4), [], 4), 4),
        "builtins", "object.__subclasses__")
    # nested pickles: an unpickler, torch.load, numpy.load(allow_pickle) called from the file
    inner = pickle.dumps(_Reduce(os.system, sh('nested pickle.loads')), protocol=2)
    add("nested pickle.loads", _wrap(_call(_g("pickle", "loads", p), [b"C" + bytes([len(inner)]) + inner
                                                                      if len(inner) < 256 else b""], 3), 3),
        "pickle", "loads")
    add("nested _pickle.loads", _wrap(_call(_g("_pickle", "loads", p), [_s("x", p)], p), p), "_pickle", "loads")
    add("nested marshal", _wrap(_call(_g("marshal", "loads", p), [_s("x", p)], p), p), "marshal", "loads")
    add("nested torch.load", _wrap(_call(_g("torch", "load", p), [_s(m("x.pt"), p)], p), p), "torch", "load")
    npy = marks.parent / "evil.npy"
    np.save(npy, np.array([_Reduce(os.system, sh('numpy.load allow_pickle'))], dtype=object),
            allow_pickle=True)
    add("numpy.load allow_pickle", _wrap(_call(_g("numpy", "load", p), [
        _s(str(npy), p), b"N", b"\x88"], p), p), "numpy", "load")
    add("numpy npyio load", _wrap(_call(_g("numpy.lib._npyio_impl", "load", p), [_s(str(npy), p)], p), p),
        "numpy.lib._npyio_impl", "load")
    # numpy object arrays (their elements could be anything), odd subtypes
    for p in (2, 4, 5):
        add(f"object array p{p}", pickle.dumps(np.array([_Reduce(os.system, sh(f'object array p{p}'))],
                                                        dtype=object), protocol=p), "numpy.dtype", "O8")
    add("benign object array", pickle.dumps(np.array([1, "a"], dtype=object), protocol=2), "dtype", "O")
    add("object field dtype", pickle.dumps(np.zeros(1, dtype=[("a", "O")]), protocol=2), "dtype")
    add("numpy memmap subtype", _wrap(_call(_g("numpy._core.multiarray", "_reconstruct", 2), [
        _g("numpy", "memmap", 2), b"K\x00\x85", _call(_g("_codecs", "encode", 2), [_s("b", 2), _s("latin1", 2)], 2)],
        2), 2), "numpy", "memmap")
    add("numpy recarray subtype", _wrap(_call(_g("numpy.core.multiarray", "_reconstruct", 2), [
        _g("numpy.core.records", "recarray", 2), b"K\x00\x85", _call(_g("_codecs", "encode", 2),
                                                                   [_s("b", 2), _s("latin1", 2)], 2)], 2), 2),
        "numpy.core.records", "recarray")
    add("numpy object scalar", _wrap(_call(_g("numpy._core.multiarray", "scalar", 2), [
        _call(_g("numpy", "dtype", 2), [_s("O8", 2), b"\x89", b"\x88"], 2), b"N"], 2), 2), "dtype", "O8")
    # copyreg, codecs
    add("copyreg reconstructor os", _wrap(_call(_g("copyreg", "_reconstructor", 2), [
        _g("os", "system", 2), _g("builtins", "object", 2), b"N"], 2), 2), "os", "system")
    add("copy_reg subprocess", _wrap(_call(_g("copy_reg", "_reconstructor", 2), [
        _g("subprocess", "Popen", 2), _g("builtins", "object", 2), _s("x", 2)], 2), 2), "subprocess", "Popen")
    add("copyreg __newobj__", _wrap(_call(_g("copyreg", "__newobj__", 2), [_g("builtins", "list", 2)], 2), 2),
        "copyreg", "__newobj__")
    add("copyreg state evil", _wrap(_call(_g("copyreg", "_reconstructor", 2), [
        _g("builtins", "list", 2), _g("builtins", "list", 2),
        _call(_g("os", "system", 2), [_s(sh('copyreg state evil'), 2)], 2)], 2), 2), "os", "system")
    add("codecs zlib", _wrap(_call(_g("_codecs", "encode", 2), [_s("x", 2), _s("zlib", 2)], 2), 2), "encode", "zlib")
    add("codecs decode", _wrap(_call(_g("_codecs", "decode", 2), [_s("x", 2), _s("rot13", 2)], 2), 2),
        "_codecs", "decode")
    # BUILD / __setstate__
    add("BUILD evil state", _wrap(_call(_g("collections", "OrderedDict", 2), [], 2) + b"}" + _s("k", 2) +
                                  _call(_g("os", "system", 2), [_s(sh('BUILD evil state'), 2)], 2) +
                                  b"sb", 2), "os", "system")
    add("BUILD slot __class__", _wrap(_call(_g("collections", "OrderedDict", 2), [], 2) + b"N}" + _s("__class__", 2) +
                                      _g("subprocess", "Popen", 2) + b"s\x86b", 2), "subprocess", "Popen")
    add("BUILD __setstate__ class", _wrap(_g("torch._utils", "_rebuild_tensor", 2) + b")\x81}b", 2),
        "torch._utils", "_rebuild_tensor")
    # INST / OBJ opcodes (protocols 0 and 1)
    add("INST os.system", b"(" + _s(sh('INST os.system'), 0) + b"ios\nsystem\n.", "os", "system")
    add("INST builtins.eval", b"(" + _s(f"open({m('INST builtins.eval')!r}, 'w')", 0) + b"ibuiltins\neval\n.",
        "builtins", "eval")
    add("INST dotted", b"(" + _s(sh('INST dotted'), 0) + b"inumpy\nos.system\n.", "numpy", "os.system")
    add("OBJ subprocess", b"(" + _g("subprocess", "Popen", 1) + _list([_s("sh", 0), _s("-c", 0),
                                                                       _s(sh('OBJ subprocess'), 0)]) + b"o.",
        "subprocess", "Popen")
    # persistent ids, extension codes
    add("PERSID", b"P0\n.", "persistent id")
    add("BINPERSID", _wrap(_s("x", 2) + b"Q", 2), "persistent id")
    items.append(("EXT1", _wrap(b"\x82\x01", 2), None))  # (an unregistered extension code: not readable)
    # inside a state dict (what a loader expects)
    add("state dict value", pickle.dumps({"w": np.ones(2), "b": _Reduce(os.system, sh('state dict value'))},
                                         protocol=2), "posix", "system")
    add("state dict name table", pickle.dumps({"w": np.ones(2), "StructuredToParameterName@@": {
        "w": _Reduce(os.system, sh('state dict name table'))}}, protocol=4), "posix", "system")
    add("tensor tuple", pickle.dumps({"w": ("w", _Reduce(os.system, sh('tensor tuple')))}, protocol=4),
        "posix", "system")
    for p in (0, 1, 3):
        add(f"reduce os.system pickle p{p}", pickle.dumps(_Reduce(os.system, sh(f'reduce os.system pickle p{p}')),
                                                          protocol=p), "posix", "system")
    # program-format wrappers: paddle.load and load_inference_model read these JSON files
    evil = pickle.dumps({"graph": [], "consts": {"a": _Reduce(os.system, sh('program/1'))}})
    add("program/1", json.dumps({"format": PROGRAM + "1", "program": base64.b64encode(evil).decode()}).encode(),
        "program/1")
    for label, target, words in (
            ("program/2 op os", {"op": ["os", "system"]}, ("os", "system")),
            ("program/2 op spawn_main", {"op": ["paddle_on_torch.distributed._spawn_main", "runpy"]},
             ("_spawn_main", "runpy")),
            ("program/2 op not an op", {"op": ["paddle_on_torch.tensor.math", "np"]}, ("tensor.math", "np")),
            ("program/2 torch.load", {"torch": ["torch", "load"]}, ("torch", "load")),
            ("program/2 register_hook", {"torch": ["Tensor", "register_hook"]}, ("Tensor", "register_hook")),
            ("program/2 operator.attrgetter", {"operator": "attrgetter"}, ("operator", "attrgetter")),
            ("program/2 aten from_file", {"aten": "from_file"}, ("aten", "from_file")),
            ("program/2 sympify", {"symexpr": [{"fn": ["sympy.sympify", [{"int": 1}]]}, []]}, ("sympify",)),
            ("program/2 nested graph", {"cond": [{"rows": [["call_function", "f", {"op": ["os", "system"]},
                                                            {"tuple": []}, {"dict": []}, {}]]},
                                                 {"rows": []}, 0]}, ("os", "system"))):
        rows = [["placeholder", "x", "x", {"tuple": []}, {"dict": []}, {"kind": "feed", "pname": "x"}],
                ["call_function", "y", target, {"tuple": [{"node": 0}, sh(label)]}, {"dict": []}, {}],
                ["output", "output", "output", {"tuple": [{"tuple": [{"node": 1}]}]}, {"dict": []}, {}]]
        add(label, json.dumps({"format": PROGRAM + "2", "graph": {"rows": rows}, "consts": {},
                               "feed_names": ["x"]}).encode(), *words)
    add("program/2 bad dtype", json.dumps({"format": PROGRAM + "2", "graph": {"rows": []}, "consts": {
        "c": ["float32; __import__('os')", [1], ""]}}).encode(), "dtype")
    return items


def _torch_zip(blob):
    """A torch.save-style archive whose data.pkl is `blob` (for the loaders that use torch.load)."""
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        z.writestr("archive/data.pkl", blob)
        z.writestr("archive/byteorder", "little")
        z.writestr("archive/version", "3\n")
    return b.getvalue()


# ===================================================================== the loaders
def _valid_program_json():
    rows = [["placeholder", "x", "x", {"tuple": []}, {"dict": []}, {"kind": "feed", "pname": "x"}],
            ["output", "output", "output", {"tuple": [{"tuple": [{"node": 0}]}]}, {"dict": []}, {}]]
    return json.dumps({"format": PROGRAM + "2", "graph": {"rows": rows}, "consts": {}, "feed_names": ["x"]})


def _cli(*argv):
    from paddle_on_torch.cli import main

    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        code = main(list(argv))
    if code == 3:
        raise UnsafePickleError(err.getvalue()) if "refuses" in err.getvalue() else ValueError(err.getvalue())
    raise AssertionError(f"exit code {code}: {err.getvalue()}")


def _paddle_load(d, blob):
    (d / "x.pdparams").write_bytes(blob)
    paddle.load(str(d / "x.pdparams"))


def _paddle_load_buffer(d, blob):
    paddle.load(io.BytesIO(blob))


def _program_state(d, blob):
    (d / "m.pdparams").write_bytes(blob)
    paddle.static.load_program_state(str(d / "m"))


def _program_state_pdopt(d, blob):
    (d / "m.pdparams").write_bytes(pickle.dumps({"w": np.ones(2, "float32")}))
    (d / "m.pdopt").write_bytes(blob)
    paddle.static.load_program_state(str(d / "m"))


def _static_load(d, blob):
    (d / "m.pdparams").write_bytes(blob)
    paddle.static.load(paddle.static.Program(), str(d / "m"))


def _inference_params(d, blob):
    (d / "inf.json").write_text(_valid_program_json())
    (d / "inf.pdiparams").write_bytes(blob)
    paddle.static.load_inference_model(str(d / "inf"), None)


def _inference_program(d, blob):
    (d / "inf.json").write_bytes(blob)
    (d / "inf.pdiparams").write_bytes(pickle.dumps({}))
    paddle.static.load_inference_model(str(d / "inf"), None)


def _model_load(d, blob):
    (d / "ck.pdparams").write_bytes(blob)
    paddle.Model(paddle.nn.Linear(2, 2)).load(str(d / "ck"))


def _model_load_opt(d, blob):
    net = paddle.nn.Linear(2, 2)
    paddle.save(net.state_dict(), str(d / "ck.pdparams"))
    (d / "ck.pdopt").write_bytes(blob)
    model = paddle.Model(net)
    model.prepare(paddle.optimizer.SGD(parameters=net.parameters()))
    model.load(str(d / "ck"))


def _dcp_metadata(d, blob):
    ck = d / "ck"
    ck.mkdir(exist_ok=True)
    (ck / ".metadata").write_bytes(blob)
    paddle.distributed.load_state_dict({"w": paddle.zeros([2])}, str(ck))


def _dcp_value(d, blob):
    from types import SimpleNamespace

    from paddle_on_torch.distributed.checkpoint.api import _planner_class

    item = SimpleNamespace(dest_index=SimpleNamespace(fqn="step"))
    _planner_class()().load_bytes(item, io.BytesIO(_torch_zip(blob)))


def _convert_pdparams(d, blob):
    (d / "in.pdparams").write_bytes(blob)
    _cli("convert", str(d / "in.pdparams"), str(d / "out.safetensors"), "--force")


def _convert_pt(d, blob):
    (d / "in.pt").write_bytes(_torch_zip(blob))
    _cli("convert", str(d / "in.pt"), str(d / "out.safetensors"), "--force")


def _port_weights(d, blob):
    (d / "w.pdparams").write_bytes(blob)
    _cli("port", "secmod:make", "--weights", str(d / "w.pdparams"), "--example-input", "1,2", "--out",
         str(d / "ported"), "--force")


def _cifar(d, blob):
    arc = d / "cifar.tar.gz"
    with tarfile.open(arc, "w:gz") as t:
        info = tarfile.TarInfo("cifar-10-batches-py/data_batch_1")
        info.size = len(blob)
        t.addfile(info, io.BytesIO(blob))
    paddle.vision.datasets.Cifar10(data_file=str(arc), mode="train")


def _jit_with(d, artifact, replace=None, add=None, drop=()):
    """A copy of the jit.save artifact in `d`, its .pt2 archive with entries replaced, added or dropped."""
    src_dir, prefix = artifact
    for f in os.listdir(src_dir):
        if f.startswith(prefix + ".") and not f.endswith(".pt2"):
            shutil.copy(src_dir / f, d / f)
    with zipfile.ZipFile(src_dir / (prefix + ".pt2")) as z, zipfile.ZipFile(d / (prefix + ".pt2"), "w") as out:
        root = z.namelist()[0].split("/")[0] + "/"
        for name in z.namelist():
            rel = name[len(root):]
            if rel in drop:
                continue
            out.writestr(name, (replace or {}).get(rel, z.read(name)))
        for rel, body in (add or {}).items():
            out.writestr(root + rel, body)
    return str(d / prefix)


def _jit_sample_inputs(d, blob, artifact):
    paddle.jit.load(_jit_with(d, artifact, {"data/sample_inputs/model.pt": _torch_zip(blob)}))


def _predictor_sample_inputs(d, blob, artifact):
    config = paddle.inference.Config(_jit_with(d, artifact, {"data/sample_inputs/model.pt": _torch_zip(blob)}))
    paddle.inference.create_predictor(config)


# loader -> (function, what it reads): "pickle" (a pickle), "program" (a program file's JSON), "both"
# (paddle.load: either), "torch" (a torch.save archive read by torch's weights-only loader), "data"
# (Paddle's protobuf / JSON program formats, parsed as data: any crafted file is simply malformed)
def _jit_paddle_model(d, blob):
    (d / "pd.pdmodel").write_bytes(blob)
    (d / "pd.pdiparams").write_bytes(b"")
    paddle.jit.load(str(d / "pd"))


def _jit_json(d, blob):
    (d / "pd.json").write_bytes(blob)
    (d / "pd.pdiparams").write_bytes(b"")
    paddle.jit.load(str(d / "pd"))


LOADERS = {
    "paddle.load": (_paddle_load, "both"),
    "paddle.load(BytesIO)": (_paddle_load_buffer, "both"),
    "static.load_program_state .pdparams": (_program_state, "pickle"),
    "static.load_program_state .pdopt": (_program_state_pdopt, "pickle"),
    "static.load": (_static_load, "pickle"),
    "static.load_inference_model .pdiparams": (_inference_params, "pickle"),
    "static.load_inference_model .json": (_inference_program, "program"),
    "hapi Model.load .pdparams": (_model_load, "both"),
    "hapi Model.load .pdopt": (_model_load_opt, "both"),
    "distributed.load_state_dict .metadata": (_dcp_metadata, "pickle"),
    "distributed.load_state_dict value": (_dcp_value, "torch"),
    "cli convert .pdparams": (_convert_pdparams, "both"),
    "cli convert .pt": (_convert_pt, "torch"),
    "cli port --weights": (_port_weights, "both"),
    "vision.datasets.Cifar10": (_cifar, "pickle"),
    "jit.load sample inputs": (_jit_sample_inputs, "torch"),
    "inference predictor sample inputs": (_predictor_sample_inputs, "torch"),
    "jit.load Paddle .pdmodel": (_jit_paddle_model, "data"),
    "jit.load .json": (_jit_json, "data"),
}


@pytest.fixture(scope="module")
def artifact(tmp_path_factory):
    """One real paddle.jit.save artifact, the base of the crafted .pt2 archives."""
    d = tmp_path_factory.mktemp("jit")
    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.ReLU())
    net.eval()
    paddle.jit.save(net, str(d / "net"), input_spec=[paddle.static.InputSpec([None, 2], "float32")])
    return d, "net"


def _check_refusal(kind, label, words, err):
    """A clear refusal: UnpicklingError / ValueError naming what was refused (where the loader reads that kind
    of file at all; a JSON program where a pickle is expected, and the reverse, is simply not readable)."""
    assert isinstance(err, (pickle.UnpicklingError, ValueError)), repr(err)
    is_program = label.startswith("program")
    if kind == "torch":  # torch's weights-only loader refuses, or fails on what it admitted (a bad codec)
        assert "weights-only loader refused" in str(err) or "can not read" in str(err), str(err)
    elif words is not None and kind != "data" and (kind == "both" or (kind == "program") == is_program):
        msg = str(err)
        assert "refuse" in msg and all(w in msg for w in words), (words, msg)


@pytest.mark.slow  # (7 s: every loader over every crafted file)
def test_crafted_files_run_no_code_in_any_loader(tmp_path, monkeypatch, artifact, capsys):
    marks = tmp_path / "marks"
    marks.mkdir()
    items = corpus(marks)
    assert len(items) >= 60 and len({label for label, _, _ in items}) == len(items)
    (tmp_path / "secmod.py").write_text("import paddle\ndef make():\n    return paddle.nn.Linear(2, 2)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    tried = refused = 0
    work = tmp_path / "work"
    for loader, (fn, kind) in LOADERS.items():
        for label, blob, words in items:
            if work.exists():
                shutil.rmtree(work)
            work.mkdir()
            args = (work, blob, artifact) if fn in (_jit_sample_inputs, _predictor_sample_inputs) else (work, blob)
            tried += 1
            try:
                fn(*args)
            except Exception as e:  # noqa: BLE001 - checked here
                try:
                    _check_refusal(kind, label, words, e)
                except AssertionError as a:
                    raise AssertionError(f"{loader} on '{label}': {a}") from e
            else:
                raise AssertionError(f"{loader} accepted '{label}'")
            refused += 1
            assert not os.listdir(marks), f"{loader} ran code from '{label}': {os.listdir(marks)}"
    sys.modules.pop("secmod", None)
    print(f"\n{len(items)} crafted files x {len(LOADERS)} loaders: {tried} loads, {refused} refused, "
          f"{len(os.listdir(marks))} executions")
    assert refused == tried == len(items) * len(LOADERS)


def test_corpus_is_live(tmp_path):
    """The crafted pickles are real attacks: plain pickle.loads runs them (so the test above means something)."""
    marks = tmp_path / "marks"
    marks.mkdir()
    live = 0
    for label, blob, _ in corpus(marks):
        if label.startswith("program") or not any(k in label for k in ("system", "subprocess", "eval", "exec",
                                                                         "getattr chain", "INST", "OBJ",
                                                                         "state dict", "BUILD evil")):
            continue
        try:
            pickle.loads(blob)
        except Exception:  # noqa: BLE001, S110 - some raise after running (the marker is what counts)
            pass
        live += os.path.exists(marks / label)
    assert live >= 40  # incl. the dotted names at protocols 4 and 5, which plain pickle follows


# ===================================================================== crafted torch.export archives
def _model_json(artifact):
    d, prefix = artifact
    with zipfile.ZipFile(d / (prefix + ".pt2")) as z:
        root = z.namelist()[0].split("/")[0] + "/"
        return json.loads(z.read(root + "models/model.json"))


def _walk(o, fn):
    if isinstance(o, dict):
        fn(o)
        for v in o.values():
            _walk(v, fn)
    elif isinstance(o, list):
        for v in o:
            _walk(v, fn)


def _edited_program(artifact, edit):
    program = _model_json(artifact)
    edit(program)
    return {"models/model.json": json.dumps(program).encode()}


def _first_call(program):
    return program["graph_module"]["graph"]["nodes"][0]


def _set_exprs(program, text):
    _walk(program, lambda o: o.update(expr_str=text) if "expr_str" in o else None)


def _archives(artifact, marks):
    """[(label, replace, add, refused?)]: .pt2 variants whose code would run in torch.export.load or .module()."""
    def touch(label):
        return f"open({str(marks / label)!r}, 'w').close() or 1"

    def evil(label, protocol=2):
        return pickle.dumps(_Reduce(os.system, f"touch '{marks / label}'"), protocol=protocol)

    weights_cfg = {"config": {"w": {"path_name": "weight_0", "is_param": False, "use_pickle": True,
                                    "tensor_meta": None}}}
    consts = lambda name: {"config": {"c": {"path_name": name, "is_param": False, "use_pickle": True,  # noqa: E731
                                            "tensor_meta": None}}}
    return [
        ("pickled weight", {"data/weights/model_weights_config.json": json.dumps(weights_cfg).encode()},
         {"data/weights/weight_0": _torch_zip(evil("pickled weight"))}, "use_pickle"),
        ("opaque constant", {"data/constants/model_constants_config.json": json.dumps(consts("opaque_obj_0")).encode()},
         {"data/constants/opaque_obj_0": evil("opaque constant")}, "use_pickle"),
        ("custom object constant",
         {"data/constants/model_constants_config.json": json.dumps(consts("custom_obj_0")).encode()},
         {"data/constants/custom_obj_0": b"x"}, "use_pickle"),
        ("legacy weights", {}, {"data/weights/model.pt": _torch_zip(evil("legacy weights"))}, "model.pt"),
        ("aotinductor library", {}, {"data/aotinductor/model/model.so": b"\x7fELF"}, "aotinductor"),
        ("extra file", {}, {"extra/evil.py": b"import os"}, "extra/evil.py"),
        ("second model", {}, {"models/other.json": b"{}"}, "models/other.json"),
        ("raw pickle sample inputs", {"data/sample_inputs/model.pt": evil("raw pickle sample inputs")}, {},
         "sample inputs"),
        ("target torch.os.system", _edited_program(
            artifact, lambda p: _first_call(p).update(target="torch.os.system")), {}, "torch.os.system"),
        ("target operator.attrgetter", _edited_program(
            artifact, lambda p: _first_call(p).update(target="_operator.attrgetter")), {}, "_operator.attrgetter"),
        ("target aten.from_file", _edited_program(
            artifact, lambda p: _first_call(p).update(target="torch.ops.aten.from_file.default")), {},
         "aten.from_file"),
        ("size expression", _edited_program(artifact, lambda p: _set_exprs(p, touch("size expression"))), {},
         "open"),
        ("range constraint", _edited_program(
            artifact, lambda p: p.update(range_constraints={touch("range constraint"): {"min_val": 2}})), {},
         "open"),
        # neutralised, not refused: guards code and node metadata are dropped before torch.export.load
        ("guards code", _edited_program(artifact, lambda p: p.update(guards_code=[touch("guards code") + " == 0"])),
         {}, None),
        ("metadata", _edited_program(artifact, lambda p: _first_call(p)["metadata"].update(
            source_fn_stack="f,torch.os.system", torch_fn="f;torch.os.system")), {}, None),
    ]


def test_crafted_export_archives_run_no_code(tmp_path, artifact):
    marks = tmp_path / "marks"
    marks.mkdir()
    tried = 0
    for label, replace, add, refused in _archives(artifact, marks):
        for loader in ("jit.load", "predictor"):
            work = tmp_path / f"{loader}-{label}"
            work.mkdir()
            prefix = _jit_with(work, artifact, replace=replace, add=add)
            tried += 1
            try:
                if loader == "jit.load":
                    layer = paddle.jit.load(prefix)
                    layer(paddle.ones([3, 2]))
                else:
                    predictor = paddle.inference.create_predictor(paddle.inference.Config(prefix))
                    h = predictor.get_input_handle(predictor.get_input_names()[0])
                    h.copy_from_cpu(np.ones([3, 2], "float32"))
                    predictor.run()
            except (pickle.UnpicklingError, ValueError) as e:
                assert refused is not None and "refuse" in str(e) and refused in str(e), (loader, label, str(e))
            else:
                assert refused is None, f"{loader} accepted '{label}'"
            assert not os.listdir(marks), f"{loader} ran code from '{label}'"
    assert tried == 30


def test_torch_export_load_alone_would_run_them(tmp_path, artifact):
    """Why jit.load checks the archive first: torch.export.load (and .module()) run code from these files."""
    marks = tmp_path / "marks"
    marks.mkdir()
    ran = []
    for label, replace, add, _ in _archives(artifact, marks):
        if label not in ("opaque constant", "size expression", "guards code"):
            continue
        work = tmp_path / label
        work.mkdir()
        prefix = _jit_with(work, artifact, replace=replace, add=add)
        try:
            ep = torch.export.load(prefix + ".pt2")
            ep.module()(*ep.example_inputs[0], **ep.example_inputs[1])  # (guards run with the module)
        except Exception:  # noqa: BLE001, S110 - the code runs before anything fails
            pass
        if os.path.exists(marks / label):
            ran.append(label)
    assert ran == ["opaque constant", "size expression", "guards code"]


def test_check_never_executes(tmp_path, capsys):
    """`paddle-on-torch check` scans source text: a script that would run code is only read."""
    from paddle_on_torch.cli import main

    marker = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(f"import os, paddle\nopen({str(marker)!r}, 'w')\npaddle.nn.Linear(2, 2)\n")
    (tmp_path / "setup.py").write_text(f"open({str(marker)!r}, 'w')\nimport paddle\n")
    assert main(["check", str(tmp_path)]) == 0
    assert "evil.py" in capsys.readouterr().out and not marker.exists()
