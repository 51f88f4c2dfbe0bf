"""paddle.incubate.nn.functional fused ops where Paddle 3.3.1's CPU build has kernels (forward only:
fused_rms_norm, fused_layer_norm) and swiglu.  fused_rotary_position_embedding has no CPU kernel in
Paddle; tests/test_kernels.py checks it against a NumPy transcription of Paddle's CUDA kernel."""
from tests.cases import case, data


def _t(paddle, shape, seed, scale=1.0):
    return paddle.to_tensor(data(shape, seed=seed, scale=scale))


@case(rtol=1e-5, atol=1e-5)
def rms_norm_plain(paddle):
    F = paddle.incubate.nn.functional
    x, w = _t(paddle, [3, 5, 16], 0), _t(paddle, [16], 1)
    return F.fused_rms_norm(x, w, None, 1e-6, 2)[0]  # residual_out is an unfilled tensor in Paddle


@case(rtol=1e-5, atol=1e-5)
def rms_norm_residual_bias_normbias(paddle):
    F = paddle.incubate.nn.functional
    x, w, nb = _t(paddle, [4, 37], 0), _t(paddle, [37], 1), _t(paddle, [37], 2)
    b, r = _t(paddle, [37], 3), _t(paddle, [4, 37], 4)
    return list(F.fused_rms_norm(x, w, nb, 1e-5, 1, bias=b, residual=r))


@case(rtol=1e-5, atol=1e-5)
def rms_norm_begin_axis_flattens(paddle):
    F = paddle.incubate.nn.functional
    x, w = _t(paddle, [2, 3, 4, 5], 0), _t(paddle, [20], 1)
    return F.fused_rms_norm(x, w, None, 1e-6, -2)[0]


@case
def rms_norm_weight_size_mismatch(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_rms_norm(_t(paddle, [3, 4, 8], 0), _t(paddle, [8], 1), None, 1e-6, 1)


@case
def rms_norm_bad_axis(paddle):
    F = paddle.incubate.nn.functional
    return F.fused_rms_norm(_t(paddle, [3, 8], 0), _t(paddle, [8], 1), None, 1e-6, 2)


@case(rtol=1e-5, atol=1e-5)
def rms_norm_bias_without_residual_is_ignored(paddle):
    F = paddle.incubate.nn.functional
    x, w, b = _t(paddle, [3, 8], 0), _t(paddle, [8], 1), _t(paddle, [8], 2)
    return F.fused_rms_norm(x, w, None, 1e-6, 1, bias=b)[0]


@case(rtol=1e-5, atol=1e-5)
def layer_norm_plain(paddle):
    F = paddle.incubate.nn.functional
    x, w, nb = _t(paddle, [6, 33], 0), _t(paddle, [33], 1), _t(paddle, [33], 2)
    out, _, mean, var = F.fused_layer_norm(x, w, nb, 1e-5, begin_norm_axis=1)
    return [out, mean, var]


@case(rtol=1e-5, atol=1e-5)
def layer_norm_residual_alpha_bias(paddle):
    F = paddle.incubate.nn.functional
    x, w, nb = _t(paddle, [2, 3, 24], 0), _t(paddle, [24], 1), _t(paddle, [24], 2)
    b, r = _t(paddle, [24], 3), _t(paddle, [2, 3, 24], 4)
    return list(F.fused_layer_norm(x, w, nb, 1e-5, residual_alpha=0.5, begin_norm_axis=2, bias=b, residual=r))


@case(rtol=1e-5, atol=1e-5)
def layer_norm_weight_only(paddle):
    F = paddle.incubate.nn.functional
    x, w = _t(paddle, [5, 12], 0, scale=3.0), _t(paddle, [12], 1)
    out, _, mean, var = F.fused_layer_norm(x, w, None, 1e-5, begin_norm_axis=1)
    return [out, mean, var]


@case
def layer_norm_output_count_and_dtypes(paddle):
    F = paddle.incubate.nn.functional
    outs = F.fused_layer_norm(_t(paddle, [4, 8], 0), _t(paddle, [8], 1), _t(paddle, [8], 2), 1e-5,
                              begin_norm_axis=1, residual=_t(paddle, [4, 8], 3))
    return [len(outs)] + [str(o.dtype) for o in outs] + [list(o.shape) for o in outs]


@case(rtol=1e-5, atol=1e-6)
def swiglu_one_and_two_inputs(paddle):
    x, y = _t(paddle, [3, 10], 0), _t(paddle, [3, 10], 1)
    return [paddle.incubate.nn.functional.swiglu(x), paddle.incubate.nn.functional.swiglu(x, y)]


@case(rtol=1e-5, atol=1e-6)
def swiglu_grad(paddle):
    x = _t(paddle, [4, 6], 0)
    x.stop_gradient = False
    y = paddle.incubate.nn.functional.swiglu(x)
    (y * y).sum().backward()
    return [y, x.grad]
