"""static.model_format.optimize: BatchNorm / per-channel bias and scale folded into the convolutions of an
inference program (folded equals unfolded to 1e-5, and still matches real Paddle's recorded predictor
output), the cases where folding must not happen, and compile_inference's freezing."""
import os

import numpy as np
import pytest
import torch
import torch.fx as fx

from paddle_on_torch.static import model_format
from paddle_on_torch.static.model_format import ops
from paddle_on_torch.static.model_format.optimize import compile_inference, fold_conv_affine

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "inference_models")


def _io(name):
    io = np.load(os.path.join(DATA, name, "pir", "io.npz"))
    n_in = sum(1 for k in io.files if k.startswith("input") and k[5:].isdigit())
    n_out = sum(1 for k in io.files if k.startswith("output") and k[6:].isdigit())
    return [torch.from_numpy(io[f"input{i}"]) for i in range(n_in)], [io[f"output{i}"] for i in range(n_out)]


@pytest.mark.parametrize("name,expect", [
    ("resnet", {"batch_norm": 12}), ("mobilenetv3", {"batch_norm": 19, "add": 8}),
    ("vgg", {"add": 5, "batch_norm": 5}), ("unet", {"batch_norm": 10, "add": 2}),
    ("densenet", {"batch_norm": 10}), ("layout", {"add": 5, "batch_norm": 1}), ("vit", {"add": 1}),
    ("bert", {})])
def test_folded_equals_unfolded_and_paddle(name, expect):
    m = model_format.load(os.path.join(DATA, name, "pir", "model"))
    before = {k: v.clone() for k, v in m.graph_module.named_buffers()}
    n_nodes = len(m.graph_module.graph.nodes)
    folded, counts = fold_conv_affine(m.graph_module)
    assert counts == expect
    inputs, refs = _io(name)
    with torch.no_grad():
        want, got = m.graph_module(*inputs), folded(*inputs)
    for g, w, r in zip(got, want, refs):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(g.numpy(), r, rtol=1e-5, atol=1e-5)
    # the loaded module (whose buffers paddle.jit.load trains) is untouched
    assert len(m.graph_module.graph.nodes) == n_nodes
    for k, v in m.graph_module.named_buffers():
        assert torch.equal(v, before[k])
    if counts:
        n_bn = sum(1 for n in folded.graph.nodes if n.target is ops._rt_batch_norm)
        assert n_bn == sum(1 for n in m.graph_module.graph.nodes if n.target is ops._rt_batch_norm) - \
            counts.get("batch_norm", 0)
        # the dropped statistics and biases are no longer buffers (they would become compiled inputs)
        used = {n.target for n in folded.graph.nodes if n.op == "get_attr"}
        assert {k for k, _ in folded.named_buffers(recurse=False)} <= used


def _graph(build, **bufs):
    """A GraphModule over one input `x` built by build(graph, x, attrs)."""
    root = torch.nn.Module()
    for k, v in bufs.items():
        root.register_buffer(k, v)
    g = fx.Graph()
    x = g.placeholder("x")
    attrs = {k: g.get_attr(k) for k in bufs}
    g.output(build(g, x, attrs))
    return fx.GraphModule(root, g)


def _conv(g, x, w, bias=None, channels_last=False):
    return g.call_function(ops._rt_conv, (x, w, bias, [1, 1], [1, 1], [1, 1], 1, "EXPLICIT", channels_last, 2))


def _bn(g, y, a, channels_last=False, attrs=None):
    n = g.call_function(ops._rt_batch_norm, (y, a["mean"], a["var"], a["scale"], a["shift"], 1e-5, channels_last))
    n.meta["paddle_attrs"] = attrs or {"is_test": True, "use_global_stats": True}
    return n


def _bufs(c_out=6, c_in=3, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return dict(w=torch.randn(c_out, c_in, 3, 3, generator=gen), mean=torch.randn(c_out, generator=gen),
                var=torch.rand(c_out, generator=gen) + 0.5, scale=torch.randn(c_out, generator=gen),
                shift=torch.randn(c_out, generator=gen), cb=torch.randn(c_out, generator=gen))


def _check(gm, x, expect):
    folded, counts = fold_conv_affine(gm)
    assert counts == expect
    with torch.no_grad():
        for a, b in zip(folded(x), gm(x)):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-5)
    return folded


def test_conv_bias_bn_relu_chain():
    """conv -> add(bias reshaped [1, C, 1, 1]) -> batch_norm -> relu: the add and the BN fold, relu stays."""
    def build(g, x, a):
        y = _conv(g, x, a["w"])
        y = g.call_function(torch.add, (y, g.call_method("reshape", (a["cb"], [1, -1, 1, 1]))))
        return (g.call_function(torch.relu, (_bn(g, y, a),)),)
    folded = _check(_graph(build, **_bufs()), torch.randn(2, 3, 8, 8), {"add": 1, "batch_norm": 1})
    assert [n.target for n in folded.graph.nodes if n.op == "call_function"] == [ops._rt_conv, torch.relu]


def test_multiply_subtract_and_channels_last():
    def build(g, x, a):
        y = _conv(g, x, a["w"], a["cb"])
        y = g.call_function(torch.mul, (g.call_method("reshape", (a["scale"], [-1, 1, 1])), y))
        y = g.call_function(torch.sub, (g.call_method("reshape", (a["shift"], [1, -1, 1, 1])), y))
        return (g.call_function(torch.sub, (y, a["one"])),)  # a 0-d constant broadcasts per channel too
    bufs = dict(_bufs(), one=torch.tensor(1.5))
    _check(_graph(build, **bufs), torch.randn(2, 3, 8, 8), {"multiply": 1, "subtract": 2})

    def build_nhwc(g, x, a):  # NHWC: channels last on both the conv and the BN
        return (_bn(g, _conv(g, x, a["w"], channels_last=True), a, channels_last=True),)
    _check(_graph(build_nhwc, **_bufs()), torch.randn(2, 8, 8, 3), {"batch_norm": 1})


def test_not_folded_when_conv_output_has_other_consumers():
    def build(g, x, a):
        y = _conv(g, x, a["w"])
        return (_bn(g, y, a), y)  # the conv's own output is fetched as well
    _check(_graph(build, **_bufs()), torch.randn(2, 3, 8, 8), {})

    def build_add(g, x, a):
        y = _conv(g, x, a["w"])
        return (g.call_function(torch.add, (y, g.call_method("reshape", (a["cb"], [1, -1, 1, 1])))),
                g.call_function(torch.relu, (y,)))
    _check(_graph(build_add, **_bufs()), torch.randn(2, 3, 8, 8), {})


def test_not_folded_training_bn_or_non_constant():
    def build_train(g, x, a):  # a batch_norm saved in training mode (is_test false, no global stats)
        return (_bn(g, _conv(g, x, a["w"]), a, attrs={"is_test": False, "use_global_stats": False}),)
    _check(_graph(build_train, **_bufs()), torch.randn(2, 3, 8, 8), {})

    def build_rt(g, x, a):  # the added value depends on the input; the weight is computed from the input
        y = _conv(g, x, a["w"])
        s = g.call_function(torch.mean, (x,))
        w2 = g.call_function(torch.mul, (a["w"], s))
        return (g.call_function(torch.add, (y, s)), _bn(g, _conv(g, x, w2), a))
    _check(_graph(build_rt, **_bufs()), torch.randn(2, 3, 8, 8), {})

    def build_spatial(g, x, a):  # not per channel: a [1, C, H, W] constant; a wider (float64) constant
        y = _conv(g, x, a["w"])
        z = _conv(g, x, a["w"])
        return (g.call_function(torch.add, (y, a["full"])), g.call_function(torch.add, (z, a["wide"])))
    bufs = dict(_bufs(), full=torch.randn(1, 6, 8, 8), wide=torch.randn(1, 6, 1, 1, dtype=torch.float64))
    _check(_graph(build_spatial, **bufs), torch.randn(2, 3, 8, 8), {})


def test_training_bn_in_a_real_program_is_kept():
    m = model_format.load(os.path.join(DATA, "resnet", "pir", "model"))
    bns = [n for n in m.graph_module.graph.nodes if n.target is ops._rt_batch_norm]
    assert all(n.meta["paddle_attrs"]["is_test"] is True for n in bns)  # what jit.save writes
    bns[0].meta["paddle_attrs"] = dict(bns[0].meta["paddle_attrs"], is_test=False, use_global_stats=False)
    assert fold_conv_affine(m.graph_module)[1] == {"batch_norm": len(bns) - 1}


@pytest.mark.compile
def test_compile_inference_freezes():
    """compile_inference turns freezing on while dynamo traces: inductor then pre-packs the conv weights
    (oneDNN) and fuses the relu into them; the result equals the eager graph."""
    from torch._dynamo.utils import counters
    import torch._inductor.config as inductor_config

    def build(g, x, a):
        return (g.call_function(torch.relu, (_bn(g, _conv(g, x, a["w"]), a),)),)
    gm, _ = fold_conv_affine(_graph(build, **_bufs()))
    x = torch.randn(2, 3, 8, 8)
    counters.clear()
    torch._dynamo.reset()
    with inductor_config.patch(force_disable_caches=True):
        fn = compile_inference(gm, dynamic=False)
        out = fn(x)
    assert counters["inductor"]["mkldnn_unary_fusion_matcher_count"] >= 1
    assert not inductor_config.freezing  # only on while compiling
    assert list(fn.choice.values()) == ["channels_last"]  # batch 2
    with inductor_config.patch(force_disable_caches=True):
        torch.testing.assert_close(fn(x[:1])[0], gm(x[:1])[0], rtol=1e-5, atol=1e-5)
    assert list(fn.choice.values()) == ["channels_last", "nchw"]  # batch 1 compiles NCHW
    with pytest.raises(ValueError):
        compile_inference(gm, layout="nhwc")
    torch.testing.assert_close(out[0], gm(x)[0], rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(fn(x)[0], gm(x)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.compile
def test_predictor_folds_and_compiles_convnet(paddle):
    """A predictor runs the folded program; with switch_ir_optim(True) compiled with freezing, for the
    recorded batch and, recompiled with a dynamic batch, for another one."""
    from paddle import inference

    d = os.path.join(DATA, "mobilenetv3", "pir")
    inputs, refs = _io("mobilenetv3")
    m = model_format.load(os.path.join(d, "model"))
    other = torch.randn(3, *inputs[0].shape[1:])
    with torch.no_grad():
        want_other = m.graph_module(other)[0].numpy()
    for ir_optim in (False, True):
        config = inference.Config(os.path.join(d, "model.json"), os.path.join(d, "model.pdiparams"))
        config.switch_ir_optim(ir_optim)
        predictor = inference.create_predictor(config)
        assert not any(n.target is ops._rt_batch_norm for n in predictor._graph.graph.nodes)
        out = predictor.run([paddle.to_tensor(inputs[0].numpy())])
        np.testing.assert_allclose(out[0].numpy(), refs[0], rtol=1e-5, atol=1e-5)
        out = predictor.run([paddle.to_tensor(other.numpy())])
        np.testing.assert_allclose(out[0].numpy(), want_other, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape,w_shape,strides,paddings,algo,groups,channels_last", [
    ((2, 6, 5, 5), (4, 6, 1, 1), [1, 1], [0, 0], "EXPLICIT", 1, False),  # -> linear over the channels
    ((2, 6, 1, 1), (4, 6, 1, 1), [1, 1], [0, 0, 0, 0], "EXPLICIT", 1, False),  # squeeze-excite on a pooled map
    ((2, 5, 5, 6), (4, 6, 1, 1), [1, 1], [0, 0], "SAME", 1, True),  # NHWC, SAME pads nothing
    ((2, 6, 5, 5), (4, 6, 1, 1), [2, 2], [0, 0], "EXPLICIT", 1, False),  # stride 2: every other pixel
    ((2, 5, 6, 6), (4, 6, 1, 1), [2, 1], [0, 0], "SAME", 1, True),
    ((2, 6, 5, 5), (4, 6, 1, 1), [1, 1], [1, 1], "EXPLICIT", 1, False),  # padded: stays a convolution
    ((2, 6, 5, 5), (6, 3, 1, 1), [1, 1], [0, 0], "EXPLICIT", 2, False),  # grouped: stays a convolution
    ((2, 6, 5, 5), (4, 6, 3, 3), [1, 1], [1, 1], "EXPLICIT", 1, False),
])
def test_conv_1x1_as_linear_equals_conv(shape, w_shape, strides, paddings, algo, groups, channels_last):
    """compile_inference runs unpadded 1x1 convolutions as linears: same values as the convolution."""
    from paddle_on_torch.static.model_format.optimize import _rt_conv_1x1_as_linear

    gen = torch.Generator().manual_seed(0)
    x, w, b = torch.randn(*shape, generator=gen), torch.randn(*w_shape, generator=gen), torch.randn(w_shape[0])
    args = (x, w, b, strides, paddings, [1, 1], groups, algo, channels_last, 2)
    want = ops._rt_conv(*args)
    got = _rt_conv_1x1_as_linear(*args)
    assert got.shape == want.shape
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
