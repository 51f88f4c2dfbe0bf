"""Paddle's AMP operator lists (names of Paddle's kernels), per dtype and level.

`white_list()` ops run in the low dtype, `black_list()` ops in float32; every other op follows the
promotion rule in `_state.dest_dtype`.  The names are Paddle's kernel names, matched against the
name `_state.kernel_name` gives each paddle_on_torch API.
"""
WHITE_LIST = {
    "conv2d", "einsum", "matmul", "matmul_v2", "linear_v2", "max_pool2d_with_index", "mul", "fused_gemm_epilogue",
    "fused_rotary_position_embedding", "flash_attn",
}
# ops with a float16 kernel and no bfloat16 one
ONLY_FP16_WHITE_LIST = {
    "fake_quantize_dequantize_abs_max", "fake_quantize_dequantize_moving_average_abs_max", "fused_attention",
    "fused_feedforward",
}
FP16_WHITE_LIST = WHITE_LIST | ONLY_FP16_WHITE_LIST
# numerically dangerous in low precision
FP16_BLACK_LIST = {
    "tan", "acos", "asin", "sinh", "cosh", "atanh", "tanh_shrink", "erfinv", "exp", "expm1", "log", "log10", "log2",
    "reciprocal", "rsqrt", "pow", "square", "reduce_sum", "mean", "reduce_mean", "reduce_prod", "cumprod", "cumsum",
    "dist", "pnorm", "frobenius_norm", "renorm", "group_norm", "layer_norm", "softmax", "softmin", "softplus",
    "log_softmax", "softmax_with_cross_entropy", "sigmoid_cross_entropy_with_logits", "c_softmax_with_cross_entropy",
    "c_softmax_with_multi_label_cross_entropy", "cross_entropy", "cross_entropy2", "nll_loss", "huber_loss",
    "triplet_margin_loss", "log_loss", "hsigmoid_loss", "margin_cross_entropy",
}
# slower in low precision (their gradients)
EXTRA_BLACK_LIST = {
    "linear_interp_v2", "nearest_interp_v2", "bilinear_interp_v2", "bicubic_interp_v2", "trilinear_interp_v2",
    "lookup_table", "lookup_table_v2", "scatter",
}
BF16_WHITE_LIST = WHITE_LIST
BF16_BLACK_LIST = FP16_BLACK_LIST


def white_list():
    """{dtype: {level: set of op names}} of the ops that run in the low dtype."""
    return {
        "float16": {"OD": FP16_WHITE_LIST, "O1": FP16_WHITE_LIST, "O2": FP16_WHITE_LIST},
        "bfloat16": {"OD": BF16_WHITE_LIST, "O1": BF16_WHITE_LIST, "O2": BF16_WHITE_LIST},
    }


def black_list():
    """{dtype: {level: set of op names}} of the ops kept in float32."""
    return {
        "float16": {"OD": set(), "O1": FP16_BLACK_LIST | EXTRA_BLACK_LIST, "O2": EXTRA_BLACK_LIST},
        "bfloat16": {"OD": set(), "O1": BF16_BLACK_LIST | EXTRA_BLACK_LIST, "O2": EXTRA_BLACK_LIST},
    }
