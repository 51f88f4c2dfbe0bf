"""paddle.nn.quant: weight_quantize bytes and scales (Paddle's CPU kernel), stubs, errors."""
import numpy as np

from tests.cases import case


def _w(paddle, m=64, n=32, dtype="float16", seed=0):
    w = np.random.default_rng(seed).normal(0, 1, [m, n]).astype("float32")
    return paddle.to_tensor(w).astype(dtype)


def _wq(paddle, algo, arch, group_size=-1, m=64, n=32, dtype="float16"):
    q, s = paddle.nn.quant.weight_quantize(_w(paddle, m, n, dtype), algo=algo, arch=arch, group_size=group_size)
    return [q, s.astype("float32")]


@case
def weight_quantize_int8_sm70_sm80(paddle):
    return _wq(paddle, "weight_only_int8", 70) + _wq(paddle, "weight_only_int8", 80, m=128, n=48)


@case
def weight_quantize_int8_other_archs(paddle):
    return _wq(paddle, "weight_only_int8", 75) + _wq(paddle, "weight_only_int8", 86) + \
        _wq(paddle, "weight_only_int8", 90, m=128, n=64)


@case
def weight_quantize_int4(paddle):
    return _wq(paddle, "weight_only_int4", 70) + _wq(paddle, "weight_only_int4", 80, m=128, n=64) + \
        _wq(paddle, "weight_only_int4", 89)


@case
def weight_quantize_llm_int8(paddle):
    return _wq(paddle, "llm.int8", 80) + _wq(paddle, "llm.int8", 75, m=128, n=48)


@case
def weight_quantize_group_wise(paddle):
    return _wq(paddle, "weight_only_int8", 80, 64, m=128) + _wq(paddle, "weight_only_int4", 70, 128, m=256) + \
        _wq(paddle, "llm.int8", 86, 64)


@case
def weight_quantize_bfloat16(paddle):
    return _wq(paddle, "weight_only_int8", 80, dtype="bfloat16") + _wq(paddle, "weight_only_int4", 75, dtype="bfloat16")


@case
def weight_quantize_scale_dtype(paddle):
    q, s = paddle.nn.quant.weight_quantize(_w(paddle), algo="weight_only_int8", arch=80)
    q2, s2 = paddle.nn.quant.weight_quantize(_w(paddle), algo="llm.int8", arch=80)
    return [str(q.dtype), str(s.dtype), str(q2.dtype), str(s2.dtype), q.stop_gradient, s.shape, q2.shape]


@case
def weight_quantize_no_arch_on_cpu(paddle):
    return paddle.nn.quant.weight_quantize(_w(paddle))


@case
def weight_quantize_bad_arch(paddle):
    return paddle.nn.quant.weight_quantize(_w(paddle), arch=60)


@case
def weight_quantize_float32(paddle):
    return paddle.nn.quant.weight_quantize(_w(paddle, dtype="float32"), arch=80)


@case
def weight_quantize_cols_not_16(paddle):
    return paddle.nn.quant.weight_quantize(_w(paddle, n=24), arch=80)


@case
def weight_quantize_unknown_algo(paddle):
    return paddle.nn.quant.weight_quantize(_w(paddle), algo="int3", arch=80)


@case
def weight_quantize_3d(paddle):
    return paddle.nn.quant.weight_quantize(paddle.ones([2, 16, 16], "float16"), arch=80)


@case
def weight_quantize_group_32(paddle):
    return paddle.nn.quant.weight_quantize(_w(paddle), arch=80, group_size=32)


@case
def stub_identity(paddle):
    s = paddle.nn.quant.Stub()
    x = paddle.to_tensor([[1.0, -2.0], [3.0, 0.5]])
    return [s(x), len(s.parameters()), type(s).__name__]


@case
def quant_stub_tracks_scale(paddle):
    q = paddle.nn.quant.QuantStub()
    outs = []
    for k in range(3):
        x = paddle.to_tensor(np.random.default_rng(k).normal(0, 1 + k, [4, 5]).astype("float32"))
        outs.append(q(x))
    q.eval()
    outs.append(q(paddle.to_tensor([[100.0]])))
    outs += [q._scale, q._state, q._accum, len(q.parameters()), q._scale.stop_gradient]
    return outs


@case
def float_functional_layers(paddle):
    Q = paddle.nn.quant
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    b = paddle.to_tensor([[0.5, -1.0], [2.0, 0.25]])
    return [Q.add()(a, b), Q.subtract()(a, b), Q.multiply()(a, b), Q.divide()(a, b), Q.reshape()(a, [4]),
            Q.transpose()(a, [1, 0]), Q.concat()([a, b], axis=1), Q.flatten()(a), Q.matmul()(a, b, transpose_y=True),
            isinstance(Q.add(), Q.FloatFunctionalLayer), isinstance(Q.add(), paddle.nn.Layer)]
