"""Statistics: mean, var, std, median, nanmedian, quantile, nanquantile, numel (paddle.tensor.stat)."""
from tests.cases import case


def _m(paddle):
    return paddle.to_tensor([[1.0, 2.0, 3.0, 10.0], [4.0, 5.0, 6.0, -1.0], [0.5, 0.25, 8.0, 2.0]])


@case
def mean_axes(paddle):
    x = _m(paddle)
    return [paddle.mean(x), paddle.mean(x, axis=0), paddle.mean(x, axis=[0, 1]), paddle.mean(x, axis=-1, keepdim=True),
            x.mean(1), paddle.mean(x, axis=(0,), keepdim=True)]


@case
def mean_float64_and_float16(paddle):
    x = paddle.to_tensor([1.0, 2.0, 4.0], dtype="float64")
    return [paddle.mean(x), paddle.mean(x, axis=0, keepdim=True)]


@case
def mean_int_and_bool_keep_dtype(paddle):
    return [paddle.mean(paddle.to_tensor([1, 2, 3])), paddle.mean(paddle.to_tensor([-1, -2, -2], dtype="int32")),
            paddle.mean(paddle.to_tensor([True, False, False])), paddle.mean(paddle.to_tensor([[1, 2], [4, 4]]), axis=1),
            paddle.mean(paddle.to_tensor([1, 2]), dtype="float32")]


@case
def mean_complex(paddle):
    return paddle.mean(paddle.to_tensor([1 + 1j, 2 + 0j]))


@case
def mean_duplicate_axis(paddle):
    return paddle.mean(_m(paddle), axis=[0, 0])


@case
def mean_empty_axis_list(paddle):
    return paddle.mean(_m(paddle), axis=[])


@case
def mean_axis_out_of_range(paddle):
    return paddle.mean(_m(paddle), axis=3)


@case
def var_std_cases(paddle):
    x = _m(paddle)
    return [paddle.var(x), paddle.var(x, axis=1), paddle.var(x, axis=0, unbiased=False), paddle.std(x),
            paddle.std(x, axis=[0, 1], keepdim=True), x.std(1, unbiased=False), x.var(axis=-1, keepdim=True)]


@case
def var_single_element(paddle):
    x = paddle.to_tensor([3.0])
    return [paddle.var(x), paddle.std(x), paddle.var(x, unbiased=False)]


@case
def var_std_int(paddle):
    x = paddle.to_tensor([1, 2, 4], dtype="int32")
    return [paddle.var(x), paddle.std(x), paddle.var(paddle.to_tensor([1, 2, 3]), unbiased=False),
            paddle.std(paddle.to_tensor([[1, 5], [2, 2]]), axis=0)]


@case
def var_correction(paddle):
    x = _m(paddle)
    return [paddle.var(x, correction=0), paddle.var(x, axis=1, correction=2), paddle.var(paddle.to_tensor(2.0)),
            paddle.var(paddle.to_tensor(2.0), unbiased=False), paddle.var(paddle.to_tensor([]))]


@case
def var_unbiased_and_correction(paddle):
    return paddle.var(_m(paddle), unbiased=True, correction=0)


@case
def var_bool_rejected(paddle):
    return paddle.var(paddle.to_tensor([True, False]))


@case
def std_float64(paddle):
    return paddle.std(paddle.to_tensor([[1.0, 2.0], [3.0, 5.0]], dtype="float64"), axis=0)


@case
def median_avg(paddle):
    x = _m(paddle)
    return [paddle.median(x), paddle.median(x, axis=0), paddle.median(x, axis=1, keepdim=True), x.median(-1)]


@case
def median_min(paddle):
    x = _m(paddle)
    return [paddle.median(x, mode="min"), paddle.median(x, axis=1, mode="min"),
            paddle.median(x, axis=0, keepdim=True, mode="min")]


@case
def median_int(paddle):
    x = paddle.to_tensor([[1, 4, 2, 8], [3, 3, 1, 0]])
    return [paddle.median(x), paddle.median(x, axis=1), paddle.median(x, axis=1, mode="min")]


@case
def median_nan(paddle):
    x = paddle.to_tensor([[1.0, float("nan"), 3.0], [1.0, 2.0, 3.0]])
    return [paddle.median(x, axis=1), paddle.median(x)]


@case
def median_min_nan_and_0d(paddle):
    x = paddle.to_tensor([[1.0, float("nan"), 3.0], [1.0, 2.0, 3.0]])
    return [paddle.median(x, axis=1, mode="min"), paddle.median(paddle.to_tensor(2.0)),
            paddle.median(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), keepdim=True, mode="min")]


@case
def median_list_axis_rejected(paddle):
    return paddle.median(_m(paddle), axis=[0, 1])


@case
def nanmedian_int_and_all_nan_min(paddle):
    x = paddle.to_tensor([[1.0, float("nan"), 3.0, 2.0], [float("nan")] * 4])
    return [paddle.nanmedian(paddle.to_tensor([1, 2, 3, 4])), paddle.nanmedian(x, axis=1, mode="min"),
            paddle.nanmedian(x, mode="min")]


@case
def quantile_nearest_half(paddle):
    x = paddle.to_tensor([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    return [paddle.quantile(x, [0.1, 0.3, 0.5, 0.7, 0.9], interpolation="nearest"),
            paddle.quantile(x, 0.5, interpolation="midpoint")]


@case
def quantile_list_axis_and_tensor_q(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    return [paddle.quantile(x, [0.25, 0.5], axis=[0, 2]), paddle.quantile(x, paddle.to_tensor([0.2, 0.8]), axis=-1),
            paddle.quantile(x, [0.5], axis=1), paddle.quantile(x, 0.5, axis=[2, 0], keepdim=True)]


@case
def quantile_bad_axis_and_interp(paddle):
    return paddle.quantile(_m(paddle), 0.5, axis=2)


@case
def quantile_empty_q(paddle):
    return paddle.quantile(_m(paddle), [])


@case
def nanquantile_all_nan_row(paddle):
    x = paddle.to_tensor([[float("nan"), float("nan")], [1.0, 2.0]])
    return paddle.nanquantile(x, [0.5, 1.0], axis=1)


@case
def median_bad_mode(paddle):
    return paddle.median(_m(paddle), mode="max")


@case
def nanmedian_cases(paddle):
    x = paddle.to_tensor([[1.0, float("nan"), 3.0, 2.0], [float("nan")] * 4])
    return [paddle.nanmedian(x), paddle.nanmedian(x, axis=1), paddle.nanmedian(x, axis=1, mode="min"),
            paddle.nanmedian(x, axis=[0, 1], keepdim=True), x.nanmedian(axis=0)]


@case
def quantile_cases(paddle):
    x = _m(paddle)
    return [paddle.quantile(x, 0.5), paddle.quantile(x, q=0.3, axis=1), paddle.quantile(x, [0.25, 0.75], axis=0),
            paddle.quantile(x, 0.5, axis=[0, 1]), paddle.quantile(x, 0.4, axis=1, keepdim=True),
            paddle.quantile(x, [0.1, 0.9], axis=1, keepdim=True)]


@case
def quantile_interpolation(paddle):
    x = paddle.to_tensor([0.0, 1.0, 2.0, 3.0, 10.0])
    return [paddle.quantile(x, 0.3, interpolation=m) for m in ("linear", "lower", "higher", "nearest", "midpoint")]


@case
def quantile_float64_and_int(paddle):
    return paddle.quantile(paddle.to_tensor([1.0, 2.0, 5.0], dtype="float64"), [0.5, 0.1])


@case
def quantile_bad_q(paddle):
    return paddle.quantile(_m(paddle), 1.5)


@case
def quantile_tensor_q(paddle):
    return paddle.quantile(_m(paddle), paddle.to_tensor(0.5), axis=0)


@case
def nanquantile_cases(paddle):
    x = paddle.to_tensor([[1.0, float("nan"), 3.0, 2.0], [4.0, 5.0, 6.0, 7.0]])
    return [paddle.nanquantile(x, 0.5), paddle.nanquantile(x, 0.5, axis=1), paddle.quantile(x, 0.5, axis=1),
            paddle.nanquantile(x, [0.2, 0.8], axis=1, keepdim=True)]


@case
def numel_cases(paddle):
    return [paddle.numel(_m(paddle)), paddle.numel(paddle.to_tensor(1.0)), paddle.zeros([0, 3]).numel()]
