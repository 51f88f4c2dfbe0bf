"""paddle.save / paddle.load against files written by real Paddle, plus security and atomicity.

tests/data/io/ holds files real Paddle 3.3.1 wrote (tools/record_io_files.py) and expected.json,
what real paddle.load returned for each.  The other direction (files saved here, loaded by real
Paddle) is checked by `tools/record_io_files.py --verify`, which needs Paddle and so is not a test.
"""
import io
import json
import os
import pickle
import stat
import sys

import numpy as np
import pytest

from tests import golden

DATA = os.path.join(os.path.dirname(__file__), "data", "io")
EXPECTED = json.load(open(os.path.join(DATA, "expected.json")))
EXACT = {"rtol": 0, "atol": 0, "random": False}


def _names(obj):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tools.record_io_files import names

    return names(obj)


def _describe(obj):
    return {"value": golden.describe(obj), "names": _names(obj)}


def _read(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return f.read()


# ---------------------------------------------------------------- Paddle's files load bit-exactly


@pytest.mark.parametrize("name,mode", [(n, m) for n in sorted(EXPECTED) for m in EXPECTED[n]])
def test_load_paddle_file(paddle, name, mode):
    kw = {"safetensors": True} if name.endswith(".safetensors") else {}
    if mode != "default":
        kw[mode] = True
    got = _describe(paddle.load(os.path.join(DATA, name), **kw))
    want = EXPECTED[name][mode]
    assert not golden.compare(want["value"], got["value"], EXACT), golden.compare(want["value"], got["value"], EXACT)
    if not name.endswith(".safetensors"):  # Paddle names safetensors tensors eager_tmp_<n>: not part of the file
        assert got["names"] == want["names"]


@pytest.mark.parametrize("name,protocol", [("state_p2.pdparams", 2), ("state_p4.pdparams", 4), ("adam_p4.pdopt", 4),
                                           ("nested_p2.pkl", 2), ("nested_p3.pkl", 3), ("nested_p4.pkl", 4),
                                           ("tensor_p4.pdtensor", 4)])
def test_resave_is_byte_identical(paddle, name, protocol):
    """What we load from Paddle's file and save again is the same bytes Paddle wrote."""
    obj = paddle.load(os.path.join(DATA, name))
    buf = io.BytesIO()
    paddle.save(obj, buf, protocol=protocol)
    assert buf.getvalue() == _read(name)


@pytest.mark.parametrize("name", ["tensor_f32.bin", "tensor_i64.bin", "tensor_bf16.bin"])
def test_binary_format_is_byte_identical(paddle, name, tmp_path):
    t = paddle.load(os.path.join(DATA, name))
    out = tmp_path / name
    paddle.save(t, str(out), use_binary_format=True)
    assert out.read_bytes() == _read(name)


def test_split_file_reassembles(paddle):
    r = paddle.load(os.path.join(DATA, "split_p2.pdparams"))
    assert list(r) == ["small", "emb"]
    np.testing.assert_array_equal(r["emb"].numpy(), np.arange(40, dtype="float32").reshape(10, 4))
    assert r["emb"].name == "embedding_0.w_0"


# ---------------------------------------------------------------- big-array splitting on save


def test_save_splits_big_arrays_under_protocols_2_and_3(paddle, monkeypatch):
    import paddle_on_torch.framework.io as pio

    monkeypatch.setattr(pio, "_MAX_PICKLE_BYTES", 64)  # 16 float32 elements per slice
    w = paddle.arange(40, dtype="float32").reshape([10, 4])
    for protocol in (2, 3):
        buf = io.BytesIO()
        paddle.save({"w": w, "b": paddle.ones([3])}, buf, protocol=protocol)
        raw = pickle.loads(buf.getvalue())  # our own file, plain pickle is fine here
        assert list(raw) == ["b", "StructuredToParameterName@@", "w@@.0", "w@@.1", "w@@.2", "UnpackBigParamInfor@@"]
        assert raw["UnpackBigParamInfor@@"] == {"w": {"OriginShape": (10, 4), "slices": ["w@@.0", "w@@.1", "w@@.2"]}}
        buf.seek(0)
        r = paddle.load(buf)
        assert list(r) == ["b", "w"]
        np.testing.assert_array_equal(r["w"].numpy(), w.numpy())
    buf = io.BytesIO()
    paddle.save({"w": w}, buf, protocol=4)  # protocol 4 frames big objects itself: no splitting
    assert list(pickle.loads(buf.getvalue())) == ["w", "StructuredToParameterName@@"]


# ---------------------------------------------------------------- security: no code runs


class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def _evil_pickles(marker):
    cmd = f"touch {marker}".encode()
    yield "reduce os.system", pickle.dumps(_Evil(marker), protocol=2)
    yield "reduce os.system p4", pickle.dumps({"w": _Evil(marker)}, protocol=4)
    yield "inside a state dict", pickle.dumps({"w": np.ones(2), "StructuredToParameterName@@": {"w": _Evil(marker)}})
    yield "protocol 0 INST", b"(S'" + cmd + b"'\nios\nsystem\n."
    yield "builtins eval", b"cbuiltins\neval\n(V__import__('os').system('" + cmd + b"')\ntR."
    yield "builtins getattr", b"cbuiltins\ngetattr\n(cbuiltins\nobject\nV__subclasses__\ntR."
    yield "subprocess", b"csubprocess\ncall\n((V/bin/sh\nV-c\nV" + cmd + b"\nltR."
    yield "numpy load", b"cnumpy\nload\n(V/etc/passwd\ntR."
    yield "numpy subtype", (b"\x80\x02cnumpy._core.multiarray\n_reconstruct\ncnumpy.core.records\nrecarray\n"
                            b"K\x00\x85c_codecs\nencode\nX\x01\x00\x00\x00bX\x06\x00\x00\x00latin1\x86R\x87R.")
    yield "codecs other encoding", b"\x80\x02c_codecs\nencode\nX\x01\x00\x00\x00xX\x04\x00\x00\x00zlib\x86R."
    yield "copyreg reconstructor", b"ccopyreg\n_reconstructor\n(cos\nsystem\ncbuiltins\nobject\nNtR."
    yield "persistent id", b"\x80\x02X\x01\x00\x00\x00aQ."


@pytest.mark.parametrize("label", [label for label, _ in _evil_pickles("x")])
def test_crafted_pickle_cannot_run_code(paddle, tmp_path, label):
    import paddle_on_torch.framework.io as pio

    marker = tmp_path / "pwned"
    data = dict(_evil_pickles(marker))[label]
    path = tmp_path / "evil.pdparams"
    path.write_bytes(data)
    with pytest.raises(pio.UnsafePickleError) as info:
        paddle.load(str(path))
    assert isinstance(info.value, ValueError) and isinstance(info.value, pickle.UnpicklingError)
    with pytest.raises(pio.UnsafePickleError):
        paddle.load(io.BytesIO(data))
    assert not marker.exists(), "the crafted pickle ran code"


def test_admitted_globals_cover_paddles_files():
    """Every global Paddle's recorded files reference is one the unpickler admits, and nothing more is needed."""
    from paddle_on_torch.framework import safe_pickle

    seen = set()

    class Recording(safe_pickle.Unpickler):
        def find_class(self, module, name):
            seen.add((safe_pickle._OLD_MODULES.get(module, module), name))
            return super().find_class(module, name)

    for name in sorted(os.listdir(DATA)):
        data = _read(name)
        if data.startswith(b"\x80"):  # a pickle
            Recording(io.BytesIO(data), encoding="latin1").load()
    admitted = seen
    assert admitted <= set(safe_pickle.DATA)
    assert ("_codecs", "encode") in admitted and ("builtins", "tuple") in admitted


# ---------------------------------------------------------------- corrupt and missing files


def test_truncated_files_raise_clear_errors(paddle, tmp_path):
    for name in ("state_p2.pdparams", "nested_p4.pkl", "tensor_f32.bin"):
        data = _read(name)
        for n in range(0, len(data), 7):
            path = tmp_path / "cut.pdparams"
            path.write_bytes(data[:n])
            with pytest.raises((ValueError, EOFError)) as info:
                paddle.load(str(path))
            assert "can not parse the file" in str(info.value)


def test_missing_file(paddle, tmp_path):
    with pytest.raises(ValueError, match="to load model not exists"):
        paddle.load(str(tmp_path / "nope.pdparams"))


def test_directory_formats_are_unsupported(paddle, tmp_path):
    with pytest.raises(NotImplementedError, match="paddle.load"):
        paddle.load(str(tmp_path))


# ---------------------------------------------------------------- atomic saves


def test_failed_save_leaves_the_old_file(paddle, tmp_path):
    path = tmp_path / "m.pdparams"
    paddle.save([paddle.to_tensor([1.0, 2.0])], str(path))
    before = path.read_bytes()
    with pytest.raises(ValueError, match="paddle.nn.Layer"):
        # the Layer is reached only after the tensor has been written
        paddle.save([paddle.to_tensor(np.ones(1000)), paddle.nn.Layer()], str(path))
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["m.pdparams"], "a temporary file was left behind"


def test_save_goes_through_a_temporary_file(paddle, tmp_path, monkeypatch):
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (replaced.append((a, b)), real_replace(a, b)))
    path = tmp_path / "m.pdparams"
    paddle.save({"w": paddle.ones([2])}, str(path))
    (src, dst), = replaced
    assert dst == str(path) and os.path.dirname(src) == str(tmp_path) and not os.path.exists(src)


_KILLED_SAVE = """
import sys, time
import paddle
from paddle_on_torch.framework import io as pio

def stall(obj, f, protocol):  # the write has begun: stop here until killed
    f.write(b"partial")
    f.flush()
    print("writing", flush=True)
    time.sleep(120)

pio._save_state_dict = stall
paddle.save({"w": paddle.ones([4])}, sys.argv[1])
"""


def _start_save(path):
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")
    p = subprocess.Popen([sys.executable, "-m", "paddle_on_torch", "-c", _KILLED_SAVE, str(path)],
                         stdout=subprocess.PIPE, env=env, text=True)
    assert p.stdout.readline().strip() == "writing"
    return p


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process liveness")
def test_a_killed_save_leaves_no_temporary_file(paddle, tmp_path):
    """A save killed mid-write keeps the old file; the next save to the path removes its temporary file,
    but not the temporary file of a save still running."""
    import signal

    path = tmp_path / "ck.pdparams"
    paddle.save({"w": paddle.zeros([4])}, str(path))

    def temps():
        return sorted(f for f in os.listdir(tmp_path) if f.endswith(".tmp"))

    killed = _start_save(path)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    assert len(temps()) == 1 and f".{killed.pid}." in temps()[0]
    np.testing.assert_array_equal(paddle.load(str(path))["w"].numpy(), np.zeros(4))  # the old file stands
    running = _start_save(path)  # (the next save: the killed one's file is gone)
    try:
        assert len(temps()) == 1 and f".{running.pid}." in temps()[0]
        paddle.save({"w": paddle.ones([4])}, str(path))
        assert len(temps()) == 1 and f".{running.pid}." in temps()[0]  # a save still running keeps its file
    finally:
        running.kill()
        running.wait()
    paddle.save({"w": paddle.ones([4])}, str(path))
    assert os.listdir(tmp_path) == ["ck.pdparams"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_saved_file_has_ordinary_permissions(paddle, tmp_path):
    path = tmp_path / "m.pdparams"
    paddle.save({"w": paddle.ones([2])}, str(path))
    plain = tmp_path / "plain"
    open(plain, "wb").close()
    assert stat.S_IMODE(path.stat().st_mode) == stat.S_IMODE(plain.stat().st_mode)


# ---------------------------------------------------------------- layers


def test_layer_state_dict_roundtrip(paddle, tmp_path):
    layer = paddle.nn.Linear(3, 2)
    path = str(tmp_path / "linear.pdparams")
    paddle.save(layer.state_dict(), path)
    other = paddle.nn.Linear(3, 2)
    other.set_state_dict(paddle.load(path))
    for (k, a), (_, b) in zip(layer.state_dict().items(), other.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=k)
    loaded = paddle.load(path)
    assert [t.name for t in loaded.values()] == [p.name for p in layer.parameters()]


# ---------------------------------------------------------------- async_save


def test_async_save_snapshots_and_waits(paddle, tmp_path):
    from paddle_on_torch.framework.io import async_save, clear_async_save_task_queue

    w = paddle.to_tensor([1.0, 2.0])
    w.name = "w_0"
    path = str(tmp_path / "a.pdparams")
    async_save({"w": w, "cfg": {"lr": 0.1}}, path)
    w.add_(paddle.to_tensor([10.0, 10.0]))  # after the call: not in the file
    clear_async_save_task_queue()
    r = paddle.load(path)
    np.testing.assert_array_equal(r["w"].numpy(), [1.0, 2.0])
    assert r["w"].name == "w_0" and r["cfg"] == {"lr": 0.1}
    with pytest.raises(TypeError):
        async_save([w], path)
