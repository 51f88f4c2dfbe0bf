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


@case
def pdist_norms(paddle):
    a = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 7.0]])
    return [paddle.pdist(a), paddle.pdist(a, p=1.0), paddle.pdist(a, p=0.0), paddle.pdist(paddle.ones([1, 3]))]


@case
def pdist_needs_2d(paddle):
    paddle.pdist(paddle.ones([3]))


@case
def new_factories_take_size_varargs(paddle):
    x = paddle.zeros([2, 2], dtype="int32")
    return [x.new_ones(3, 2), x.new_zeros([1, 2]), x.new_empty(2).shape, x.new_ones((2,), dtype="float64")]


@case
def create_tensor_is_empty(paddle):
    t = paddle.tensor.create_tensor(dtype="float32")
    return [t.shape, str(t.dtype)]


@case
def set_views_another_storage(paddle):
    src = paddle.to_tensor([[11.0, 22.0, 33.0]])
    src2 = paddle.to_tensor([11.0, 22.0, 33.0, 44.0, 55.0, 66.0])
    out = []
    for kwargs in ({}, {"shape": [2, 1]}):
        x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])
        out.append(x.set_(src, **kwargs))
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    x.set_(src2, shape=[3], stride=[2])
    out.append(x)
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    x.set_(src2, shape=[2], offset=8)
    out.append(x)
    y = paddle.to_tensor([1.0, 2.0])
    y.set_()
    out.append(y)
    return out


@case
def get_tensor_prints_dense_tensor(paddle):
    x = paddle.to_tensor([1.0, 2.5], stop_gradient=False)  # kept alive: Paddle's view dangles otherwise
    return str(x.get_tensor())


@case
def dlpack_round_trip_shares_memory(paddle):
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = paddle.from_dlpack(paddle.to_dlpack(x))
    y[0] = 10.0
    z = paddle.utils.dlpack.from_dlpack(paddle.utils.dlpack.to_dlpack(paddle.to_tensor([1, 2], dtype="int32")))
    return [x, y, z]


@case
def from_dlpack_rejects_lists(paddle):
    paddle.from_dlpack([1, 2])


@case
def lazy_guard_defers_parameter_memory(paddle):
    with paddle.LazyGuard():
        net = paddle.nn.Linear(3, 2, bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(0.5)),
                               weight_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(2.0)))
    for p in net.parameters():
        p.initialize()
    return [net.weight, net.bias, net(paddle.ones([1, 3]))]


@case
def dygraph_guard_is_a_context(paddle):
    import paddle.base as base

    with base.dygraph.guard():
        return paddle.to_tensor([1.0]) * 2


@case
def torch_style_nn_names(paddle):
    nn = paddle.nn
    return [nn.Module is nn.Layer, nn.ModuleList is nn.LayerList, nn.ModuleDict is nn.LayerDict]


@case
def input_spec(paddle):
    from paddle.static import InputSpec

    s = InputSpec([None, 784], "float32", "x")
    t = InputSpec.from_tensor(paddle.ones([2, 3]), name="t")
    b = InputSpec([3], "int64").batch(16)
    return [repr(s), s.shape, str(s.dtype), repr(t), repr(b), repr(InputSpec([4, 5]).unbatch()),
            InputSpec([3]) == InputSpec([3])]


@case
def input_spec_bad_shape(paddle):
    from paddle.static import InputSpec

    InputSpec(4)


@case
def lazy_guard_then_set_state_dict(paddle):
    with paddle.LazyGuard():
        net = paddle.nn.Linear(2, 2)
    net.set_state_dict({"weight": paddle.ones([2, 2]), "bias": paddle.zeros([2])})
    return net(paddle.ones([1, 2]))


@case
def require_version_ranges(paddle):
    r = paddle.utils.require_version
    results = []
    for args in (("0.1.0",), ("3.3",), ("3.3.1", "3.3.1"), ("2.0", "10.0.0"), ("3.4",), ("1.0", "3.3.0"),
                 ("3.x",), (3,), ("1.0", 4)):
        try:
            r(*args)
            results.append("ok")
        except Exception as e:
            results.append(type(e).__name__)
    return results
