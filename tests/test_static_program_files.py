"""paddle.save / paddle.load of a static Program (shim side: the file format is ours)."""
import base64
import json
import os
import pickle

import numpy as np
import pytest

import paddle


@pytest.fixture
def static_mode():
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            yield main, startup
    finally:
        paddle.disable_static()


def test_loaded_program_runs_like_the_saved_one(static_mode, tmp_path):
    main, startup = static_mode
    x = paddle.static.data(name="x", shape=[None, 6], dtype="float32")
    lab = paddle.static.data(name="lab", shape=[None], dtype="int64")
    z = paddle.reshape(paddle.static.nn.fc(x, 4), [-1, 2, 2]) * paddle.to_tensor([1.0, 2.0])
    z = paddle.reshape(z, [x.shape[0], 4])
    z = paddle.static.nn.cond(paddle.mean(z) > 0, lambda: z * 2, lambda: z - 1)
    out = paddle.nn.functional.nll_loss(paddle.nn.functional.log_softmax(z), lab)
    name = out.name
    path = str(tmp_path / "main.pdmodel")
    paddle.save(main, path)
    loaded = paddle.load(path)
    assert isinstance(loaded, paddle.static.Program)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = {"x": np.random.RandomState(0).rand(3, 6).astype("float32"), "lab": np.array([0, 1, 3])}
    a = exe.run(main, feed=feed, fetch_list=[name])[0]
    b = exe.run(loaded, feed=feed, fetch_list=[name])[0]
    np.testing.assert_array_equal(a, b)


class _Evil:
    def __reduce__(self):
        return os.system, ("echo owned",)


def test_first_program_format_is_refused(tmp_path):
    """The first format pickled node targets (its unpickler had to admit whole modules): never read."""
    payload = base64.b64encode(pickle.dumps({"graph": [], "consts": {"a": _Evil()}})).decode()
    path = tmp_path / "evil.pdmodel"
    path.write_text(json.dumps({"format": "paddle_on_torch.static.program/1", "program": payload}))
    with pytest.raises(pickle.UnpicklingError, match="program/1"):
        paddle.load(str(path))


def test_program_file_is_data(static_mode, tmp_path):
    """What paddle.save(program) writes is JSON naming its targets (no pickle inside)."""
    main, _ = static_mode
    x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")
    paddle.nn.functional.relu(x + 1).sum()
    path = tmp_path / "p.pdmodel"
    paddle.save(main, str(path))
    d = json.loads(path.read_text())
    assert d["format"] == "paddle_on_torch.static.program/2" and "program" not in d
    targets = [row[2] for row in d["graph"]["rows"] if row[0] == "call_function"]
    assert {"op": ["paddle_on_torch.nn.functional.activation", "relu"]} in targets


def test_program_values_round_trip(static_mode, tmp_path):
    """Slices, dtypes, while loops and constants survive the data-only format."""
    main, startup = static_mode
    x = paddle.static.data(name="x", shape=[None, 4], dtype="float32")
    y = paddle.reshape(x, [-1, 2])[:, 1:2]
    y = paddle.cast(y, "float64") + paddle.to_tensor([0.5], dtype="float64")
    i = paddle.full([1], 0, "int64")
    _, y = paddle.static.nn.while_loop(lambda i, v: i < 3, lambda i, v: [i + 1, v * 2], [i, y])
    name = y.name
    path = str(tmp_path / "p.pdmodel")
    paddle.save(main, path)
    loaded = paddle.load(path)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = {"x": np.arange(12, dtype="float32").reshape(3, 4)}
    a = exe.run(main, feed=feed, fetch_list=[name])[0]
    b = exe.run(loaded, feed=feed, fetch_list=[name])[0]
    assert a.dtype == np.float64 and a.shape == (6, 1)
    np.testing.assert_array_equal(a, b)


def test_size_expressions_round_trip():
    """A size computed from dynamic dims (a _SymExpr node) is stored as a tree of sympy classes, not text."""
    import sympy
    import torch
    from torch.utils._sympy.functions import FloorDiv

    from paddle_on_torch.static import program_file
    from paddle_on_torch.static.program import _SymExpr

    s0 = sympy.Symbol("s0", integer=True, positive=True)
    g = torch.fx.Graph()
    x = g.placeholder("x")
    n = g.call_function(torch.ops.aten.sym_size.int, (x, 0))
    e = g.call_function(_SymExpr(2 * s0 + FloorDiv(sympy.Max(1, s0), 3), [s0]), (n,))
    g.output((e,))
    graph, _, _ = program_file.loads(program_file.dumps(g, {}))
    gm = torch.fx.GraphModule(torch.nn.Module(), graph)
    assert gm(torch.zeros(7, 2)) == (2 * 7 + 7 // 3,)


def test_every_op_module_is_known_to_the_program_format():
    """A program node calling an @op is saved by (module, name); the reader imports only listed modules."""
    import importlib

    from paddle_on_torch import _normalize
    from paddle_on_torch.static import program_file

    for m in ("nn.functional", "vision.ops", "incubate", "incubate.nn", "geometric", "audio", "text", "metric",
              "signal", "special", "fft", "nn.quant", "linalg"):
        importlib.import_module(f"paddle_on_torch.{m}")
    modules = {ns["_impl"].__module__ for ns in _normalize._OP_NAMESPACES
               if "_write_out" in ns and getattr(ns["_impl"], "__module__", "").startswith("paddle_on_torch")}
    modules = {m for m in modules if not m.startswith("paddle_on_torch.kernels")}
    assert modules - program_file._OP_MODULES == set()
