"""paddle.static internals that golden cases cannot show: the fx program, its torch.compile / torch.export
runs, the no-cost switch back to dynamic mode, files, and the hand-off to the Paddle-format loader."""
import json
import os
import sys
import types

import numpy as np
import pytest
import torch

import paddle_on_torch
from paddle_on_torch import _normalize
from paddle_on_torch.static import program as _prog


@pytest.fixture
def static(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    try:
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            yield paddle, main, startup
    finally:
        paddle.disable_static()


def _conv_net(paddle):
    x = paddle.static.data("x", [None, 1, 6, 6], "float32")
    c = paddle.static.nn.conv2d(x, 3, 3, padding=1)
    b = paddle.static.nn.batch_norm(c, act="relu", is_test=True)
    return x, paddle.static.nn.fc(b, 4, activation="softmax")


def test_dynamic_mode_keeps_no_recording_hooks(paddle):
    paddle.enable_static()
    assert all(ns["_impl"] is not ns["_plain"] for ns in _normalize._OP_NAMESPACES)  # the generator's hook
    assert not _normalize.plain_mode()
    paddle.disable_static()
    assert all(ns["_impl"] is ns["_plain"] for ns in _normalize._OP_NAMESPACES) and _normalize.plain_mode()
    assert not any(isinstance(m, _prog._Recorder) for m in torch.overrides._get_current_function_mode_stack())
    y = paddle.to_tensor([1.0, 2.0]) * 2  # plain eager tensors again
    assert type(y._t) is torch.Tensor


def test_program_is_an_fx_graph_with_one_node_per_api_call(static):
    paddle, main, startup = static
    x = paddle.static.data("x", [None, 3], "float32")
    y = paddle.nn.functional.relu(paddle.matmul(x, paddle.ones([3, 2])))
    assert isinstance(main.graph, torch.fx.Graph)
    targets = [n.target.__name__ for n in main.graph.nodes if n.op == "call_function"]
    assert targets == ["ones", "matmul", "relu"]
    assert [n.meta["kind"] for n in main.graph.nodes if n.op == "placeholder"] == ["feed"]
    assert list(y.shape) == [-1, 2] and y.dtype == paddle.float32


@pytest.mark.compile
def test_graph_module_runs_on_torch_compile_and_export(static):
    paddle, main, startup = static
    x, y = _conv_net(paddle)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    xs = np.random.RandomState(0).rand(2, 1, 6, 6).astype("float32")
    want = exe.run(main, feed={"x": xs}, fetch_list=[y])[0]
    gm, names = paddle.static.graph_module(main, [y])
    assert names[0] == "x" and "conv2d_0.w_0" in names
    scope = paddle.static.global_scope()
    with _prog.running():
        args = [torch.as_tensor(xs)] + [scope._get(n).detach() for n in names[1:]]
        np.testing.assert_allclose(gm(*args)[0].numpy(), want, rtol=1e-6)
        np.testing.assert_allclose(torch.compile(gm)(*args)[0].numpy(), want, rtol=1e-5, atol=1e-6)
        ep = torch.export.export(gm, tuple(args))
        np.testing.assert_allclose(ep.module()(*args)[0].detach().numpy(), want, rtol=1e-5, atol=1e-6)
    strategy = paddle.static.BuildStrategy()
    strategy.build_cinn_pass = True
    compiled = paddle.static.CompiledProgram(main, build_strategy=strategy)
    np.testing.assert_allclose(exe.run(compiled, feed={"x": xs}, fetch_list=[y])[0], want, rtol=1e-5, atol=1e-6)


def test_clone_for_test_drops_backward_and_switches_training(static):
    paddle, main, startup = static
    x = paddle.static.data("x", [None, 4], "float32")
    h = paddle.nn.functional.dropout(paddle.static.nn.fc(x, 8), p=0.5)
    loss = paddle.mean(paddle.static.nn.batch_norm(h))
    paddle.optimizer.SGD(0.1).minimize(loss)
    test = main.clone(for_test=True)
    assert any(n.meta.get("optimizer") for n in main.graph.nodes)
    assert not any(n.meta.get("optimizer") or n.meta.get("backward") for n in test.graph.nodes)
    assert all(n.kwargs.get("training") is False for n in test.graph.nodes if "training" in n.kwargs)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    xs = np.ones([3, 4], "float32")
    a, b = (exe.run(test, feed={"x": xs}, fetch_list=[loss])[0] for _ in range(2))
    assert a == b  # no dropout, no statistics update, no parameter update


def test_unused_data_needs_no_feed_and_feed_dtype_is_checked(static):
    paddle, main, startup = static
    x = paddle.static.data("x", [None, 2], "float32")
    paddle.static.data("unused", [None, 2], "float32")
    y = x * 3.0
    exe = paddle.static.Executor(paddle.CPUPlace())
    assert exe.run(main, feed={"x": np.ones([1, 2], "float32")}, fetch_list=[y])[0].tolist() == [[3.0, 3.0]]
    with pytest.raises(ValueError, match="must be 'float32'"):
        exe.run(main, feed={"x": np.ones([1, 2], "float64")}, fetch_list=[y])


def test_dygraph_guard_inside_static_mode(static):
    paddle, main, startup = static
    with paddle.base.dygraph.guard():
        assert paddle.in_dynamic_mode()
        assert paddle.to_tensor([2.0]).numpy().tolist() == [2.0]
    assert not paddle.in_dynamic_mode()


def test_nested_control_flow_captures_outer_values(static):
    paddle, main, startup = static
    x = paddle.static.data("x", [2], "float32")
    w = paddle.full([2], 2.0)

    def body(i, acc):
        step = paddle.static.nn.cond(paddle.sum(acc) > 10.0, lambda: acc * 0.5, lambda: acc * w + x)
        return [i + 1, step]

    i, acc = paddle.static.nn.while_loop(lambda i, acc: i < 4, body, [paddle.full([1], 0, "int64"),
                                                                     paddle.zeros([2])])
    exe = paddle.static.Executor(paddle.CPUPlace())
    got = exe.run(main, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[acc])[0]
    a = np.zeros(2, "float32")
    for _ in range(4):
        a = a * 0.5 if a.sum() > 10 else a * 2 + np.array([1.0, 2.0], "float32")
    np.testing.assert_allclose(got, a)


def test_inference_files_are_json_and_foreign_files_go_to_model_format(static, tmp_path, monkeypatch):
    paddle, main, startup = static
    x = paddle.static.data("x", [None, 3], "float32")
    y = paddle.static.nn.fc(x, 2)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    prefix = str(tmp_path / "m")
    paddle.static.save_inference_model(prefix, [x], [y], exe)
    assert json.load(open(prefix + ".json"))["base_code"]["magic"] == "pir"  # Paddle's own program format

    # a file that is not ours: the Paddle-format loader gets the prefix
    foreign = str(tmp_path / "paddle_model")
    with open(foreign + ".json", "w") as f:
        json.dump({"program": {"regions": []}}, f)
    gm = torch.fx.symbolic_trace(lambda a: a + 1)
    fake = types.ModuleType("paddle_on_torch.static.model_format")
    fake.load = lambda p: types.SimpleNamespace(graph_module=gm, feed_names=["a"], fetch_names=["out"],
                                                seen=p)
    monkeypatch.setitem(sys.modules, "paddle_on_torch.static.model_format", fake)
    monkeypatch.setattr(paddle_on_torch.static, "model_format", fake, raising=False)
    prog, feeds, fetches = paddle.static.load_inference_model(foreign, exe)
    assert feeds == ["a"] and [f.name for f in fetches] == ["out"]
    out = exe.run(prog, feed={"a": np.array([1.0], "float32")}, fetch_list=fetches)[0]
    assert out.tolist() == [2.0]
    with pytest.raises(ValueError):
        paddle.static.load_inference_model(str(tmp_path / "nothing"), exe)


def test_symbolic_sizes_are_recorded_not_baked_in(static):
    paddle, main, startup = static
    x = paddle.static.data("x", [None, 4], "float32")
    y = paddle.reshape(x, [-1, 2, 2])
    z = x.sum(axis=1)
    exe = paddle.static.Executor(paddle.CPUPlace())
    for n in (1, 5, 9):
        a, b = exe.run(main, feed={"x": np.ones([n, 4], "float32")}, fetch_list=[y, z])
        assert a.shape == (n, 2, 2) and b.shape == (n,)


def test_fetch_by_the_name_of_an_op_output(static):
    paddle, main, startup = static
    x = paddle.static.data("x", [None, 3], "float32")
    loss = paddle.mean(x * 2.0)
    assert loss.name.endswith(".tmp_0") and x.name == "x"
    exe = paddle.static.Executor(paddle.CPUPlace())
    out = exe.run(main, feed={"x": np.ones([2, 3], "float32")}, fetch_list=[loss.name, "x"])
    assert float(out[0]) == 2.0 and out[1].shape == (2, 3)


def test_dynamic_dims_stay_dynamic_through_size_checks_and_fused_kernels(static):
    paddle, main, startup = static
    x = paddle.static.data("x", [None, 6], "float32")
    ids = paddle.static.data("ids", [None], "int64")
    h = paddle.nn.functional.one_hot(ids, 6) + x  # one_hot checks sizes: the -1 dim must not become 7
    seq, _ = paddle.nn.LSTM(6, 4)(paddle.reshape(h, [-1, 1, 6]))  # a kernel fakes cannot size symbolically
    assert list(h.shape) == [-1, 6]
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    for n in (2, 9):
        out = exe.run(main, feed={"x": np.ones([n, 6], "float32"), "ids": np.zeros([n], "int64")},
                      fetch_list=[h, seq])
        assert out[0].shape == (n, 6) and out[1].shape == (n, 1, 4)


def test_load_inference_model_runs_a_real_paddle_model(static):
    """A PIR model saved by real Paddle (tests/data/inference_models, read by static.model_format)."""
    paddle, main, startup = static
    d = os.path.join(os.path.dirname(__file__), "data", "inference_models", "lstm", "pir")
    if not os.path.exists(os.path.join(d, "model.json")):
        pytest.skip("no recorded Paddle inference model")
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(d, "model"), exe)
    io = dict(np.load(os.path.join(d, "io.npz")))
    out = exe.run(prog, feed={feeds[0]: io["input0"]}, fetch_list=fetches)
    for i, o in enumerate(out):
        np.testing.assert_allclose(o, io[f"output{i}"], rtol=1e-5, atol=1e-6)


def test_tracing_after_static_mode_keeps_symbolic_shapes(paddle):
    """Once static mode has been on, its Variables keep printing as Values; fake tensors of torch.export (or
    torch.compile) are not Variables: their symbolic dims must not read as -1 (an arange over shape[1] was empty)."""
    import torch

    from paddle_on_torch.interop import from_torch

    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        paddle.static.data("x", [2, 3], "float32")
    paddle.disable_static()

    class Positions(torch.nn.Module):
        def forward(self, ids):
            x = from_torch(ids)
            return (x + paddle.arange(0, x.shape[1], dtype="int64"))._t

    s = torch.export.Dim("s", max=16)
    ep = torch.export.export(Positions(), (torch.zeros(2, 5, dtype=torch.int64),), dynamic_shapes={"ids": {1: s}})
    assert ep.module()(torch.zeros(2, 7, dtype=torch.int64)).tolist() == [list(range(7))] * 2
