"""PaddleNLP's `fused_ln` custom-op package on the shim (see the package docstring): fused_rms_norm and fused_ln,
with the op library's argument lists and outputs."""
import paddle_on_torch as paddle


def fused_rms_norm(x, scale, epsilon):
    """RMSNorm over the last axis: returns (y, invvar), invvar = 1 / sqrt(mean(x**2) + epsilon) per row, float32."""
    y, invvar = paddle.nn.functional.rms_norm(x, x.shape[-1:], scale, epsilon)
    return y, invvar


def fused_ln(x, scale, bias, epsilon):
    """LayerNorm over the last axis: returns (y, mean, invvar), the statistics per row in float32."""
    y, _, mean, invvar = paddle.incubate.nn.functional.fused_layer_norm(x, scale, bias, epsilon,
                                                                        begin_norm_axis=x.ndim - 1)
    return y, mean, invvar
