"""Top-level odds and ends of the paddle namespace: flags, constants, dtype spellings, torch-style aliases."""
from tests.cases import case


@case
def flags_get_and_set(paddle):
    before = paddle.get_flags(["FLAGS_check_nan_inf", "FLAGS_use_stride_kernel"])
    paddle.set_flags({"FLAGS_check_nan_inf": True})
    after = paddle.get_flags("FLAGS_check_nan_inf")
    paddle.set_flags({"FLAGS_check_nan_inf": False})
    return [before, after]


@case
def flags_unknown_name_fails(paddle):
    paddle.set_flags({"FLAGS_not_a_flag": 1})


@case
def flags_must_be_a_dict(paddle):
    paddle.set_flags("FLAGS_check_nan_inf")


@case
def constants_and_dtype_spellings(paddle):
    return [paddle.e, paddle.pi, paddle.inf, paddle.newaxis, str(paddle.float), str(paddle.double),
            str(paddle.half), str(paddle.cfloat), str(paddle.cdouble), str(paddle.pstring), repr(paddle.raw)]


@case
def dtype_tensor_factories(paddle):
    return [paddle.FloatTensor([1, 2]), paddle.LongTensor([3]), paddle.BoolTensor([1, 0]),
            paddle.DoubleTensor([0.5]), paddle.IntTensor([7])]


@case
def asarray_and_aliases(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [paddle.asarray([1, 2.5]), paddle.asarray(x) is x, paddle.reverse(x, 0), paddle.reverse(x, [0, 1]),
            paddle.ger(x[0], x[1]), paddle.take_along_dim(x, paddle.to_tensor([[1], [0]]), 1),
            paddle.concat([x, x], 1)]


@case
def tensor_torch_style_methods(paddle):
    x = paddle.to_tensor([[1.5, 2.0], [3.0, 4.0]])
    parts = x.split_with_sizes([1, 1])
    return [parts, x.float16(), x.int32(), x.float64(), x.type_as(paddle.to_tensor([1])),
            x.is_same_shape(paddle.zeros([2, 2])), x.is_same_shape(paddle.zeros([2]))]


@case
def requires_grad_toggles_stop_gradient(paddle):
    x = paddle.to_tensor([1.0])
    y = x.requires_grad_()
    a = x.stop_gradient
    x.requires_grad_(False)
    return [a, x.stop_gradient, y is x]


@case
def batch_reader(paddle):
    def reader():
        yield from range(5)

    return [list(paddle.batch(reader, 2)()), list(paddle.batch(reader, 2, drop_last=True)())]


@case
def batch_size_must_be_positive(paddle):
    paddle.batch(lambda: iter([]), 0)


@case(random=True)
def generator_object(paddle):
    g = paddle.Generator()
    g.manual_seed(7)
    return [g.initial_seed(), g.random()]


@case
def finfo_iinfo(paddle):
    f, i = paddle.finfo(paddle.float32), paddle.iinfo(paddle.int32)
    return [f.eps, f.max, f.min, f.bits, f.tiny, i.min, i.max, i.bits, str(f.dtype), str(i.dtype)]


@case
def is_compiled_flags(paddle):
    return [paddle.is_compiled_with_cuda(), paddle.is_compiled_with_xpu(), paddle.is_compiled_with_rocm(),
            paddle.get_device(), paddle.in_dynamic_mode()]


@case
def set_device_bad_name_fails(paddle):
    paddle.set_device("tpu:0")
