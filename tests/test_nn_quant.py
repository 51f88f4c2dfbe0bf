"""paddle.nn.quant functions Paddle's CPU build has no kernel for (weight_only_linear, llm_int8_linear,
weight_dequantize): checked against the plain float computation on the weights weight_quantize packed."""
import numpy as np
import pytest

import paddle


def _data(k=64, n=32, rows=3, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.normal(0, 1, [k, n]).astype("float32")
    x = rng.normal(0, 1, [rows, k]).astype("float32")
    return w, x


def _ref_q(w, bound, group_size=-1, scale_dtype="float16"):
    wf = paddle.to_tensor(w).astype("float16").astype("float32").numpy()
    a = np.abs(wf)
    s = a.max(0) if group_size == -1 else a.reshape(-1, group_size, wf.shape[1]).max(1)
    s = (s / bound).astype(scale_dtype).astype("float32")
    full = s if group_size == -1 else np.repeat(s, group_size, 0)
    q = np.clip(np.sign(wf / full) * np.floor(np.abs(wf / full) + 0.5), -bound, bound)
    return q * full


@pytest.mark.parametrize("arch", [70, 75, 80, 86, 89, 90, 100])
@pytest.mark.parametrize("dtype,bound", [("int8", 127), ("int4", 7)])
@pytest.mark.parametrize("group_size", [-1, 64])
def test_weight_only_linear_undoes_the_layout(arch, dtype, bound, group_size):
    w, x = _data(k=128)
    q, s = paddle.nn.quant.weight_quantize(paddle.to_tensor(w).astype("float16"), algo=f"weight_only_{dtype}",
                                           arch=arch, group_size=group_size)
    b = paddle.to_tensor(np.arange(32, dtype="float32")).astype("float16")
    out = paddle.nn.quant.weight_only_linear(paddle.to_tensor(x).astype("float16"), q, bias=b, weight_scale=s,
                                             weight_dtype=dtype, arch=arch, group_size=group_size)
    assert out.dtype == paddle.float16 and out.shape == [3, 32]
    xf = paddle.to_tensor(x).astype("float16").astype("float32").numpy()
    want = xf @ _ref_q(w, bound, group_size) + np.arange(32)
    np.testing.assert_allclose(out.astype("float32").numpy(), want, rtol=2e-3, atol=2e-2)


def test_weight_only_linear_needs_an_arch_on_cpu():
    w, x = _data()
    q, s = paddle.nn.quant.weight_quantize(paddle.to_tensor(w).astype("float16"), arch=80)
    with pytest.raises(ValueError):
        paddle.nn.quant.weight_only_linear(paddle.to_tensor(x).astype("float16"), q, weight_scale=s)


def test_llm_int8_linear_and_dequantize():
    w, x = _data()
    x[0, 5] = 9.0  # an outlier column goes through the float path
    q, s = paddle.nn.quant.weight_quantize(paddle.to_tensor(w).astype("float16"), algo="llm.int8", arch=80)
    deq = paddle.nn.quant.weight_dequantize(q, s, algo="llm.int8")
    assert deq.shape == [64, 32] and deq.dtype == paddle.float16
    wq = _ref_q(w, 127, scale_dtype="float32")  # llm.int8 keeps float32 scales
    np.testing.assert_allclose(deq.astype("float32").numpy(), wq, rtol=1e-3, atol=1e-3)  # float16 output
    xt = paddle.to_tensor(x).astype("float16")
    out = paddle.nn.quant.llm_int8_linear(xt, q, weight_scale=s, threshold=6.0)
    assert out.dtype == paddle.float16 and out.shape == [3, 32]
    xf = xt.astype("float32").numpy()
    np.testing.assert_allclose(out.astype("float32").numpy(), xf @ wq, rtol=0.05, atol=0.15)


def test_weight_dequantize_weight_only_names_the_gap():
    w, _ = _data()
    q, s = paddle.nn.quant.weight_quantize(paddle.to_tensor(w).astype("float16"), arch=80)
    with pytest.raises(NotImplementedError, match="weight_dequantize"):
        paddle.nn.quant.weight_dequantize(q, s)


def test_weight_quantize_w4a8_names_the_gap():
    """Paddle accepts algo='w4a8' / 'w4afp8' but its CPU kernel returns uninitialised memory: refused here."""
    w, _ = _data()
    for algo in ("w4a8", "w4afp8"):
        with pytest.raises(NotImplementedError, match=f"weight_quantize is not supported .*{algo}"):
            paddle.nn.quant.weight_quantize(paddle.to_tensor(w).astype("float16"), algo=algo, arch=80)


def test_namespace_loads_on_touch():
    assert paddle.nn.quant.weight_quantize is paddle.nn.quant.quantized_linear.weight_quantize
    with pytest.raises(AttributeError):
        paddle.nn.quant.no_such_name


def test_apply_per_channel_scale():
    x = paddle.to_tensor(np.arange(8, dtype="float32").reshape(2, 4)).astype("float16")
    s = paddle.to_tensor([1.0, 0.5, 2.0, -1.0]).astype("float16")
    out = paddle.nn.quant.apply_per_channel_scale(x, s)
    assert out.dtype == paddle.float16
    np.testing.assert_array_equal(out.astype("float32").numpy(), np.arange(8).reshape(2, 4) * [1, 0.5, 2, -1])
