"""paddle.nn.Layer contract, Parameter, ParamAttr, unique_name and the containers."""
import collections
import copy
import pickle

import numpy as np

from tests.cases import case, data, fill_parameters


def _classes(paddle):
    """Small layers built only on Layer.create_parameter, so the cases need no library layer."""

    class Affine(paddle.nn.Layer):
        def __init__(self, n_in, n_out, weight_attr=None, bias_attr=None):
            super().__init__()
            self.weight = self.create_parameter([n_in, n_out], attr=weight_attr)
            self.bias = self.create_parameter([n_out], attr=bias_attr, is_bias=True)

        def forward(self, x):
            y = paddle.matmul(x, self.weight)
            return y if self.bias is None else y + self.bias

        def extra_repr(self):
            return f"in={self.weight.shape[0]}, out={self.weight.shape[1]}"

    class Scale(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.register_buffer("factor", paddle.to_tensor([2.0]))
            self.register_buffer("count", paddle.to_tensor([0], dtype="int64"), persistable=False)

        def forward(self, x):
            return x * self.factor

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = Affine(3, 4)
            self.act = Scale()
            self.fc2 = Affine(4, 2)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))

    class TwoLine(paddle.nn.Layer):
        def extra_repr(self):
            return "a=1\nb=2"

    return Affine, Scale, Net, TwoLine


# ---------------------------------------------------------------- names and parameters


@case
def names_from_generator(paddle):
    Affine, _, Net, _ = _classes(paddle)
    with paddle.utils.unique_name.guard():
        a, b, n = Affine(2, 3), Affine(2, 3), Net()
        return [a.full_name(), b.full_name(), a.weight.name, a.bias.name, b.weight.name, n.full_name(),
                n.fc1.weight.name, n.fc2.bias.name]


@case
def name_scope_and_snake_case(paddle):
    class MyHTTPLayer(paddle.nn.Layer):
        pass

    class RMSNorm2D(paddle.nn.Layer):
        pass

    with paddle.utils.unique_name.guard():
        return [MyHTTPLayer().full_name(), RMSNorm2D().full_name(), paddle.nn.Layer("scope").full_name(),
                paddle.nn.Layer().full_name(), paddle.nn.Layer(name_scope="scope").full_name()]


@case
def unique_name_generate_and_prefix_guard(paddle):
    un = paddle.utils.unique_name
    with un.guard():
        a = [un.generate("fc"), un.generate("fc"), un.generate("conv")]
        with un.guard("pre_"):
            b = [un.generate("fc"), paddle.nn.Layer().full_name()]
        c = un.generate("fc")
    return a, b, c


@case
def parameter_attributes(paddle):
    Affine, *_ = _classes(paddle)
    with paddle.utils.unique_name.guard():
        layer = Affine(2, 3)
        w = layer.weight
        return [type(w).__name__, w.stop_gradient, w.trainable, w.persistable, w.optimize_attr, w.regularizer,
                w.need_clip, w.do_model_average, w.is_distributed, w.is_leaf, w.grad is None, list(w.shape),
                str(w.dtype)]


@case
def parameter_default_values(paddle):
    Affine, *_ = _classes(paddle)
    layer = Affine(3, 5)
    w, b = layer.weight.numpy(), layer.bias
    limit = np.sqrt(6.0 / 8)
    return bool(np.all(np.abs(w) <= limit)), bool(w.std() > 0), b


@case
def parameter_repr(paddle):
    Affine, *_ = _classes(paddle)
    layer = Affine(2, 2, weight_attr=paddle.nn.initializer.Constant(0.5))
    return repr(layer.weight), str(layer.bias)


@case
def parameter_trainable_setter(paddle):
    Affine, *_ = _classes(paddle)
    w = Affine(2, 2).weight
    w.trainable = False
    a = (w.stop_gradient, w.trainable)
    w.stop_gradient = False
    return a, w.trainable


@case
def parameter_trainable_not_bool(paddle):
    Affine, *_ = _classes(paddle)
    Affine(2, 2).weight.trainable = 1


@case
def param_attr_fields(paddle):
    Affine, *_ = _classes(paddle)
    with paddle.utils.unique_name.guard():
        attr = paddle.ParamAttr(name="my_w", initializer=paddle.nn.initializer.Constant(0.25), learning_rate=0.5,
                                trainable=False, need_clip=False, do_model_average=False)
        layer = Affine(2, 2, weight_attr=attr, bias_attr=False)
        w = layer.weight
        return [w.name, w.trainable, w.stop_gradient, w.optimize_attr, w.need_clip, w.do_model_average, w,
                layer.bias, attr.name, list(layer.state_dict().keys())]


@case
def param_attr_defaults_and_empty_name(paddle):
    a = paddle.ParamAttr()
    out = [a.name, a.initializer, a.learning_rate, a.regularizer, a.trainable, a.do_model_average, a.need_clip]
    try:
        paddle.ParamAttr(name="")
    except ValueError:
        out.append("ValueError")
    return out


@case
def attr_as_string_and_initializer(paddle):
    Affine, *_ = _classes(paddle)
    with paddle.utils.unique_name.guard():
        layer = Affine(2, 2, weight_attr="w_named", bias_attr=paddle.nn.initializer.Constant(3.0))
        return layer.weight.name, layer.bias.name, layer.bias


@case
def duplicate_parameter_name(paddle):
    Affine, *_ = _classes(paddle)
    with paddle.utils.unique_name.guard():
        Affine(2, 2, weight_attr="same")
        Affine(2, 2, weight_attr="same")


@case
def attr_bad_type(paddle):
    Affine, *_ = _classes(paddle)
    Affine(2, 2, weight_attr=3)


@case
def create_parameter_dtype_default(paddle):
    class L(paddle.nn.Layer):
        def __init__(self):
            super().__init__(dtype="float64")
            self.w = self.create_parameter([2])
            self.v = self.create_parameter([2], dtype="float64")
            self.i = self.create_parameter([2], dtype="int32",
                                           default_initializer=paddle.nn.initializer.Constant(7))
    layer = L()
    return str(layer.w.dtype), str(layer.v.dtype), layer.i, layer._dtype


@case
def create_parameter_int_needs_initializer(paddle):
    layer = paddle.nn.Layer()
    return layer.create_parameter([2], dtype="int64")


@case
def create_parameter_default_dtype_follows_global(paddle):
    paddle.set_default_dtype("float64")
    try:
        p = paddle.nn.Layer().create_parameter([2, 2])
    finally:
        paddle.set_default_dtype("float32")
    return str(p.dtype)


@case
def create_parameter_attr_false_and_empty_string(paddle):
    with paddle.utils.unique_name.guard():
        layer = paddle.nn.Layer()
        none = layer.create_parameter([2], attr=False)
        p = layer.create_parameter([2], attr="", is_bias=True)
        return none, p.name, p


@case
def paddle_create_parameter_names(paddle):
    with paddle.utils.unique_name.guard():
        a = paddle.create_parameter([2, 2], "float32")
        b = paddle.create_parameter([3], "float32", is_bias=True)
        c = paddle.create_parameter([1], "float32", name="given")
        return a.name, b.name, c.name, b, a.stop_gradient, a.persistable


@case
def nn_parameter_constructor(paddle):
    p = paddle.nn.Parameter(paddle.to_tensor([1.0, 2.0]))
    q = paddle.nn.Parameter(paddle.to_tensor([3.0]), requires_grad=False)
    return type(p).__name__, p.stop_gradient, p.trainable, p.persistable, p, q.stop_gradient, q.trainable


# ---------------------------------------------------------------- traversal


@case
def named_parameters_order_and_prefix(paddle):
    *_, Net, _ = _classes(paddle)
    n = Net()
    return ([k for k, _ in n.named_parameters()], [k for k, _ in n.named_parameters(prefix="m")],
            [k for k, _ in n.named_parameters(include_sublayers=False)], len(n.parameters()),
            len(n.parameters(include_sublayers=False)))


@case
def sublayers_and_children(paddle):
    *_, Net, _ = _classes(paddle)
    n = Net()
    return ([k for k, _ in n.named_sublayers()], [k for k, _ in n.named_sublayers(prefix="p", include_self=True)],
            [type(x).__name__ for x in n.sublayers()], [type(x).__name__ for x in n.sublayers(include_self=True)],
            [k for k, _ in n.named_children()], [type(x).__name__ for x in n.children()])


@case
def buffers_and_named_buffers(paddle):
    *_, Net, _ = _classes(paddle)
    n = Net()
    return [k for k, _ in n.named_buffers()], n.buffers(), [k for k, _ in n.named_buffers(include_sublayers=False)]


@case
def shared_parameter_deduplicated(paddle):
    Affine, *_ = _classes(paddle)

    class Tied(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = Affine(2, 2)
            self.b = Affine(2, 2)
            self.b.weight = self.a.weight
            self.c = self.a

    t = Tied()
    return ([k for k, _ in t.named_parameters()], list(t.state_dict().keys()), [k for k, _ in t.named_sublayers()],
            [k for k, _ in t.named_children()], len(t.sublayers()))


@case
def apply_visits_children_first(paddle):
    *_, Net, _ = _classes(paddle)
    seen = []
    Net().apply(lambda layer: seen.append(type(layer).__name__))
    return seen


# ---------------------------------------------------------------- state dict


@case
def state_dict_keys_and_values(paddle):
    *_, Net, _ = _classes(paddle)
    n = fill_parameters(Net())
    sd = n.state_dict()
    return list(sd.keys()), sd["fc1.weight"], sd["act.factor"], type(sd).__name__


@case
def state_dict_options(paddle):
    *_, Net, _ = _classes(paddle)
    n = Net()
    return (list(n.state_dict(include_sublayers=False).keys()),
            list(n.state_dict(structured_name_prefix="net.").keys()),
            list(n.to_static_state_dict().keys()),
            list(n.state_dict(prefix="t.").keys()),
            n.state_dict(keep_vars=False)["fc1.bias"].stop_gradient,
            n.state_dict()["fc1.bias"].stop_gradient)


@case
def set_state_dict_round_trip(paddle):
    *_, Net, _ = _classes(paddle)
    src, dst = fill_parameters(Net(), seed=1), Net()
    missing, unexpected = dst.set_state_dict(src.state_dict())
    x = paddle.to_tensor(data([2, 3]))
    return missing, unexpected, dst(x), src(x)


@case
def set_state_dict_numpy_and_missing(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    r = a.set_state_dict({"weight": np.ones([2, 2], "float32"), "extra": np.zeros([1], "float32")})
    return r, a.weight, type(r).__name__


@case
def set_state_dict_shape_mismatch(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    before = a.weight.numpy().copy()
    r = a.set_state_dict({"weight": np.ones([3, 2], "float32"), "bias": np.ones([2], "float32")})
    return r, bool((a.weight.numpy() == before).all()), a.bias


@case
def set_state_dict_by_parameter_name(paddle):
    Affine, *_ = _classes(paddle)
    with paddle.utils.unique_name.guard():
        a = Affine(2, 2)
        r = a.set_state_dict({"affine_0.w_0": np.full([2, 2], 3.0, "float32"), "weight": np.zeros([2, 2])},
                             use_structured_name=False)
        return r, a.weight


@case
def set_dict_and_load_dict_aliases(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    a.set_dict({"weight": np.ones([2, 2], "float32")})
    b = a.weight.numpy().sum()
    a.load_dict({"weight": np.zeros([2, 2], "float32")})
    return float(b), a.weight


@case
def load_state_dict_strict(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    ok = a.load_state_dict({"weight": np.ones([2, 2], "float32"), "bias": np.ones([2], "float32")})
    out = [repr(ok), list(ok)]
    try:
        a.load_state_dict({"weight": np.ones([2, 2], "float32"), "zzz": np.ones([1], "float32")})
    except RuntimeError as e:
        out.append(str(e))
    r = a.load_state_dict({"weight": np.ones([2, 2], "float32")}, strict=False)
    return out + [r.missing_keys, r.unexpected_keys]


@case
def state_dict_hook(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)

    def hook(sd):
        sd["extra"] = paddle.to_tensor([1.0])

    h = a.register_state_dict_hook(hook)
    k1 = list(a.state_dict().keys())
    k2 = list(a.state_dict(use_hook=False).keys())
    h.remove()
    return k1, k2, list(a.state_dict().keys())


# ---------------------------------------------------------------- attributes


@case
def setattr_tensor_becomes_buffer(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    a.t = paddle.to_tensor([1.0, 2.0])
    return (list(a._buffers.keys()), sorted(a._non_persistable_buffer_names_set), list(a.state_dict().keys()),
            list(a.to_static_state_dict().keys()), a.t)


@case
def setattr_none_and_type_errors(paddle):
    _, Scale, Net, _ = _classes(paddle)
    n = Net()
    out = []
    n.fc1.weight = None
    out.append(list(n.fc1._parameters.items())[0][1])
    out.append([k for k, _ in n.named_parameters()])
    try:
        n.fc2.weight = paddle.ones([4, 2])
    except TypeError as e:
        out.append(str(e))
    try:
        n.fc2 = 3
    except TypeError as e:
        out.append(str(e))
    n.fc2 = None
    out.append(list(n.state_dict().keys()))
    s = Scale()
    try:
        s.factor = 3
    except TypeError as e:
        out.append(str(e))
    s.factor = None
    out.append(list(s.state_dict().keys()))
    s.factor = paddle.to_tensor([5.0])
    out.append((list(s.state_dict().keys()), s(paddle.to_tensor([1.0]))))
    return out


@case
def setattr_moves_between_tables(paddle):
    Affine, Scale, *_ = _classes(paddle)
    a = Affine(2, 2)
    try:
        a.bias = Scale()
    except TypeError as e:
        r1 = str(e)
    a.plain = 5
    a.plain = a.weight
    r2 = (list(a._parameters), "plain" in a.__dict__)
    a.buf = paddle.ones([1])
    a.buf = a.create_parameter([1])
    r3 = (list(a._parameters), list(a._buffers))
    a.sub = Scale()
    a.sub = a.create_parameter([1])
    return r1, r2, r3, list(a._parameters), list(a._sub_layers)


@case
def getattr_missing(paddle):
    Affine, *_ = _classes(paddle)
    return Affine(2, 2).nothing


@case
def delattr_tables(paddle):
    Affine, Scale, *_ = _classes(paddle)
    a, s = Affine(2, 2), Scale()
    del a.bias
    del s.count
    return list(a._parameters), list(s._buffers), sorted(s._non_persistable_buffer_names_set), hasattr(a, "bias")


@case
def dir_lists_members(paddle):
    *_, Net, _ = _classes(paddle)
    d = dir(Net())
    return [k in d for k in ("fc1", "act", "forward", "state_dict", "training", "_full_name")]


@case
def add_parameter_and_errors(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    p = a.create_parameter([1])
    out = [a.add_parameter("extra", p) is p, list(a._parameters)]
    for name, value in (("x.y", p), ("", p), ("weight2", paddle.ones([1])), (3, p), ("forward", p)):
        try:
            a.add_parameter(name, value)
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    a.add_parameter("empty", None)
    out.append([k for k, _ in a.named_parameters()])
    return out


@case
def register_buffer_errors(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    out = []
    for name, value in (("a.b", paddle.ones([1])), ("", paddle.ones([1])), ("weight", paddle.ones([1])),
                        (1, paddle.ones([1])), ("arr", np.ones([1])), ("p", a.weight)):
        try:
            a.register_buffer(name, value)
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    a.register_buffer("none_buf", None)
    out.append((list(a._buffers), list(a.state_dict().keys())))
    return out


@case
def add_sublayer_and_get_set(paddle):
    Affine, Scale, Net, _ = _classes(paddle)
    n = Net()
    s = Scale()
    out = [n.add_sublayer("extra", s) is s, [k for k, _ in n.named_children()]]
    out.append(type(n.get_sublayer("fc1")).__name__)
    out.append(n.get_parameter("fc1.weight").shape)
    out.append(n.get_buffer("act.factor"))
    n.set_sublayer("fc2", Affine(4, 3))
    out.append(n(paddle.ones([1, 3])).shape)
    for fn in (lambda: n.get_sublayer("nope"), lambda: n.get_buffer("fc1.weight"),
               lambda: n.set_sublayer("", s), lambda: n.add_sublayer("bad", 3)):
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


# ---------------------------------------------------------------- repr


@case
def layer_repr_nested(paddle):
    *_, Net, TwoLine = _classes(paddle)
    n = Net()
    n.two = TwoLine()
    return repr(n), repr(TwoLine()), repr(paddle.nn.Layer()), str(n.fc1)


@case
def layer_repr_containers(paddle):
    Affine, Scale, _, TwoLine = _classes(paddle)
    seq = paddle.nn.Sequential(Affine(2, 3), paddle.nn.LayerList([Scale(), TwoLine()]),
                               paddle.nn.LayerDict({"x": Scale()}))
    return repr(seq)


# ---------------------------------------------------------------- calling and hooks


@case
def forward_output(paddle):
    *_, Net, _ = _classes(paddle)
    n = fill_parameters(Net())
    return n(paddle.to_tensor(data([2, 3])))


@case
def forward_not_implemented(paddle):
    return paddle.nn.Layer()(paddle.ones([1]))


@case
def forward_hooks(paddle):
    Affine, *_ = _classes(paddle)
    a = fill_parameters(Affine(2, 2))
    calls = []

    def pre(layer, inputs):
        calls.append(("pre", len(inputs)))
        return inputs[0] * 2

    def post(layer, inputs, output):
        calls.append(("post", type(layer).__name__))
        return output + 1

    h1 = a.register_forward_pre_hook(pre)
    h2 = a.register_forward_post_hook(post)
    x = paddle.ones([1, 2])
    y1 = a(x)
    h1.remove()
    y2 = a(x)
    h2.remove()
    y3 = a(x)
    return y1, y2, y3, calls


@case
def forward_hooks_order_and_kwargs(paddle):
    Affine, *_ = _classes(paddle)
    a = fill_parameters(Affine(2, 2))
    order = []
    a.register_forward_post_hook(lambda l, i, o: order.append("first"))
    a.register_forward_post_hook(lambda l, i, o: order.append("prepended"), prepend=True)

    def pre_kw(layer, args, kwargs):
        order.append(("pre_kw", sorted(kwargs)))
        return args, kwargs

    a.register_forward_pre_hook(pre_kw, with_kwargs=True)
    a(paddle.ones([1, 2]))
    return order


@case
def train_eval_modes(paddle):
    *_, Net, _ = _classes(paddle)
    n = Net()
    a = [n.training, n.fc1.training]
    n.eval()
    b = [n.training, n.fc1.training, n.act.training]
    r = n.train()
    c = [n.training, n.fc1.training, r is n]
    n.train(False)
    d = [n.training, n.fc2.training]
    try:
        n.train(1)
    except ValueError:
        d.append("ValueError")
    return a, b, c, d


@case
def clear_gradients_and_zero_grad(paddle):
    Affine, *_ = _classes(paddle)
    a = fill_parameters(Affine(2, 2))
    a(paddle.ones([1, 2])).sum().backward()
    g = a.weight.grad.numpy().copy()
    a.clear_gradients()
    g0 = a.weight.grad.numpy().copy()
    a(paddle.ones([1, 2])).sum().backward()
    g1 = a.bias.grad.numpy().copy()
    a.zero_grad()
    return g, g0, g1, a.weight.grad, a.bias.grad


@case
def requires_grad_toggle(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    a.requires_grad_(False)
    r = [a.weight.stop_gradient, a.bias.trainable]
    a.requires_grad_()
    return r + [a.weight.stop_gradient]


# ---------------------------------------------------------------- dtype and device


@case
def to_dtype_casts_everything(paddle):
    _, Scale, Net, _ = _classes(paddle)
    with paddle.utils.unique_name.guard():
        n = Net()
    r = n.to(dtype="float64")
    return (r is n, str(n.fc1.weight.dtype), str(n.act.factor.dtype), str(n.act.count.dtype), n._dtype,
            type(n.fc1.weight).__name__, n.fc1.weight.stop_gradient, n.fc1.weight.name)


@case
def to_device_cpu(paddle):
    *_, Net, _ = _classes(paddle)
    n = Net()
    r = n.to("cpu")
    out = [r is n, str(n.fc1.weight.place), n._dtype]
    try:
        n.to(device=3)
    except ValueError:
        out.append("ValueError")
    return out


@case
def float_double_half(paddle):
    *_, Net, _ = _classes(paddle)
    n = Net()
    n.double()
    a = [str(n.fc1.weight.dtype), str(n.act.count.dtype)]
    n.float()
    b = [str(n.fc1.weight.dtype), str(n.act.count.dtype), str(n.act.factor.dtype)]
    n.half()
    c = [str(n.fc1.weight.dtype), str(n.act.count.dtype)]
    return a, b, c


@case
def float_excluded_layers(paddle):
    Affine, Scale, Net, _ = _classes(paddle)
    n = Net()
    n.to(dtype="float64")
    n.float(excluded_layers=[Scale])
    out = [str(n.fc1.weight.dtype), str(n.act.factor.dtype)]
    try:
        n.float(excluded_layers=n.fc1)
    except TypeError as e:
        out.append(str(e))
    return out


@case
def astype_records_dtype(paddle):
    *_, Net, _ = _classes(paddle)
    n = Net()
    r = n.astype("float64")
    out = [r is n, str(n._dtype), str(n.fc1._dtype), str(n.fc1.weight.dtype)]
    try:
        n.astype("float")
    except ValueError as e:
        out.append(type(e).__name__)
    return out


@case
def to_dtype_keeps_gradient_flow(paddle):
    Affine, *_ = _classes(paddle)
    a = fill_parameters(Affine(2, 2))
    a.to(dtype="float64")
    y = a(paddle.ones([1, 2], dtype="float64")).sum()
    y.backward()
    return a.weight.grad, y


# ---------------------------------------------------------------- copy and pickle


@case
def deepcopy_layer(paddle):
    *_, Net, _ = _classes(paddle)
    with paddle.utils.unique_name.guard():
        n = fill_parameters(Net())
        m = copy.deepcopy(n)
        x = paddle.to_tensor(data([1, 3]))
        same = m.fc1.weight is n.fc1.weight
        m.fc1.weight.set_value(np.zeros([3, 4], "float32"))
        return (m.fc1.weight.name, n.fc1.weight.name, m.full_name(), type(m.fc1.weight).__name__,
                m.fc1.weight.stop_gradient, same, list(m.state_dict().keys()), n(x), m(x))


@case
def deepcopy_parameter_keeps_attributes(paddle):
    with paddle.utils.unique_name.guard():
        attr = paddle.ParamAttr(learning_rate=0.1, need_clip=False)
        p = paddle.nn.Layer().create_parameter([2], attr=attr, is_bias=True)
        q = copy.deepcopy(p)
        return q.name, q.optimize_attr, q.need_clip, q.persistable, q.stop_gradient, q


@case
def pickle_parameter(paddle):
    with paddle.utils.unique_name.guard():
        p = paddle.nn.Layer().create_parameter([2], default_initializer=paddle.nn.initializer.Constant(1.5))
        q = pickle.loads(pickle.dumps(p))
        return type(q).__name__, q, q.name == p.name


# ---------------------------------------------------------------- containers


@case
def sequential_forms(paddle):
    Affine, Scale, *_ = _classes(paddle)
    s1 = paddle.nn.Sequential(Affine(2, 3), Scale())
    s2 = paddle.nn.Sequential(("lin", Affine(2, 3)), ("sc", Scale()))
    s3 = paddle.nn.Sequential(collections.OrderedDict([("a", Affine(2, 3)), ("b", Scale())]))
    return ([k for k, _ in s1.named_children()], [k for k, _ in s2.named_children()],
            list(s3.state_dict().keys()), len(s1), len(paddle.nn.Sequential()))


@case
def sequential_forward_and_indexing(paddle):
    Affine, Scale, *_ = _classes(paddle)
    s = fill_parameters(paddle.nn.Sequential(Affine(2, 3), Scale(), Affine(3, 1)))
    x = paddle.to_tensor(data([2, 2]))
    sl = s[1:]
    return (s(x), type(s[0]).__name__, type(s[-1]).__name__, type(sl).__name__, len(sl),
            [k for k, _ in sl.named_children()], [type(m).__name__ for m in s])


@case
def sequential_index_errors(paddle):
    Affine, *_ = _classes(paddle)
    s = paddle.nn.Sequential(Affine(2, 2))
    out = []
    for i in (1, -2):
        try:
            s[i]
        except IndexError:
            out.append("IndexError")
    try:
        s["nope"]
    except KeyError:
        out.append("KeyError")
    return out


@case
def sequential_mutation(paddle):
    Affine, Scale, *_ = _classes(paddle)
    s = paddle.nn.Sequential(Affine(2, 2))
    s.append(Scale())
    s.insert(0, Scale())
    s.extend([Affine(2, 2)])
    s[1] = Scale()
    names = [type(m).__name__ for m in s]
    del s[0]
    return names, [k for k, _ in s.named_children()], len(s)


@case
def layer_list_ops(paddle):
    Affine, Scale, *_ = _classes(paddle)
    ll = paddle.nn.LayerList([Affine(2, 2), Scale()])
    ll.append(Affine(2, 3))
    ll.insert(1, Scale())
    ll.extend([Scale(), Affine(1, 1)])
    out = [len(ll), [type(m).__name__ for m in ll], type(ll[-1]).__name__, [k for k, _ in ll.named_children()],
           list(ll.state_dict().keys())]
    sub = ll[1:3]
    out.append((type(sub).__name__, len(sub)))
    del ll[0]
    out.append([k for k, _ in ll.named_children()])
    popped = ll.pop(0)
    out.append((type(popped).__name__, len(ll)))
    ll[0] = Scale()
    out.append(type(ll[0]).__name__)
    out.append(len(ll + paddle.nn.LayerList([Scale()])))
    try:
        ll[10]
    except IndexError as e:
        out.append(str(e))
    return out


@case
def layer_dict_ops(paddle):
    Affine, Scale, *_ = _classes(paddle)
    d = paddle.nn.LayerDict({"a": Affine(2, 2), "s": Scale()})
    d["b"] = Affine(2, 3)
    d.update([("c", Scale())])
    out = [len(d), list(d.keys()), "a" in d, "zz" in d, [type(v).__name__ for v in d.values()],
           [k for k, _ in d.items()], list(d), list(d.state_dict().keys())]
    out.append(type(d.pop("a")).__name__)
    del d["b"]
    out.append(list(d.keys()))
    d.clear()
    out.append(len(d))
    try:
        d.update([("x", Scale(), 1)])
    except ValueError as e:
        out.append(str(e))
    return out


@case
def parameter_list_ops(paddle):
    with paddle.utils.unique_name.guard():
        layer = paddle.nn.Layer()
        ps = [layer.create_parameter([2], default_initializer=paddle.nn.initializer.Constant(float(i)))
              for i in range(3)]
        pl = paddle.nn.ParameterList(ps[:2])
        pl.append(ps[2])
        out = [len(pl), [p.name for p in pl], list(pl.state_dict().keys()), pl[1]]
        pl[0] = paddle.to_tensor([9.0, 9.0])
        out.append(pl[0])
        out.append(pl[0] is ps[0])
        return out


@case
def parameter_dict_ops(paddle):
    with paddle.utils.unique_name.guard():
        layer = paddle.nn.Layer()
        a, b = layer.create_parameter([2]), layer.create_parameter([3])
        pd = paddle.nn.ParameterDict({"a": a})
        pd["b"] = b
        pd.update([("c", layer.create_parameter([1], is_bias=True))])
        return len(pd), list(pd), list(pd.state_dict().keys()), pd["c"], pd["a"] is a


@case
def layer_list_in_layer_parameters(paddle):
    Affine, *_ = _classes(paddle)

    class Stack(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.blocks = paddle.nn.LayerList([Affine(2, 2) for _ in range(3)])

        def forward(self, x):
            for b in self.blocks:
                x = b(x)
            return x

    s = fill_parameters(Stack())
    return [k for k, _ in s.named_parameters()], s(paddle.to_tensor(data([1, 2])))


# ---------------------------------------------------------------- paddle.nn.utils


@case
def weight_norm_structure(paddle):
    with paddle.utils.unique_name.guard():
        lin = paddle.nn.utils.weight_norm(fill_parameters(paddle.nn.Linear(3, 4)))
        return (list(lin.state_dict().keys()), [(k, p.name, p.shape) for k, p in lin.named_parameters()],
                lin.weight_g, lin.weight, sorted(lin._non_persistable_buffer_names_set))


@case
def weight_norm_forward_and_grad(paddle):
    lin = fill_parameters(paddle.nn.Linear(3, 4))
    paddle.nn.utils.weight_norm(lin, dim=1)
    x = paddle.to_tensor(data([2, 3]))
    y = lin(x)
    y.sum().backward()
    return y, lin.weight_g, lin.weight_v.grad, lin.weight_g.grad


@case
def weight_norm_dims(paddle):
    out = []
    for dim in (None, 0, 1, 2, -1, -2):
        with paddle.utils.unique_name.guard():
            conv = fill_parameters(paddle.nn.Conv1D(2, 3, 2))
            paddle.nn.utils.weight_norm(conv, dim=dim)
            out.append((conv.weight_g, conv.weight))
    return out


@case
def weight_norm_remove_restores(paddle):
    lin = fill_parameters(paddle.nn.Linear(3, 2))
    x = paddle.to_tensor(data([2, 3]))
    y0 = lin(x)
    paddle.nn.utils.weight_norm(lin)
    y1 = lin(x)
    paddle.nn.utils.remove_weight_norm(lin)
    return y0, y1, lin(x), list(lin.state_dict().keys()), type(lin.weight).__name__, list(lin._buffers)


@case
def weight_norm_errors(paddle):
    lin = paddle.nn.Linear(3, 2)
    out = []
    for fn in (lambda: paddle.nn.utils.remove_weight_norm(lin), lambda: paddle.nn.utils.weight_norm(lin, dim=2)):
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    paddle.nn.utils.weight_norm(lin)
    try:
        paddle.nn.utils.weight_norm(lin)
    except Exception as e:  # noqa: BLE001
        out.append(type(e).__name__)
    return out


@case
def spectral_norm_structure(paddle):
    with paddle.utils.unique_name.guard():
        lin = fill_parameters(paddle.nn.Linear(3, 4))
        paddle.nn.utils.spectral_norm(lin)
        return (list(lin.state_dict().keys()), [k for k, _ in lin.named_parameters()], lin.weight_u.shape,
                lin.weight_v.shape, lin.weight_u.stop_gradient, sorted(lin._non_persistable_buffer_names_set),
                lin.weight, paddle.utils.unique_name.generate("linear_0.w"))


@case
def spectral_norm_forward_fixed_vectors(paddle):
    conv = fill_parameters(paddle.nn.Conv2D(2, 3, 2))
    paddle.nn.utils.spectral_norm(conv, n_power_iterations=2)
    conv.weight_u.set_value(np.array([0.6, 0.0, 0.8], "float32"))
    conv.weight_v.set_value(np.full([8], 8 ** -0.5, "float32"))
    x = paddle.to_tensor(data([1, 2, 3, 3]))
    y = conv(x)
    u_after = conv.weight_u.numpy().copy()
    conv.eval()
    y_eval = conv(x)
    return y, u_after, y_eval, conv.weight_v


@case
def spectral_norm_bad_iterations(paddle):
    return paddle.nn.utils.spectral_norm(paddle.nn.Linear(2, 2), n_power_iterations=0)


@case
def clip_grad_norm_cases(paddle):
    out = []
    for norm_type in (2.0, 1, float("inf"), 0):
        lin = fill_parameters(paddle.nn.Linear(3, 2))
        (lin(paddle.to_tensor(data([4, 3]))) ** 2).sum().backward()
        total = paddle.nn.utils.clip_grad_norm_(lin.parameters(), max_norm=0.5, norm_type=norm_type)
        out.append((total, lin.weight.grad, lin.bias.grad))
    return out


@case
def clip_grad_norm_small_and_empty(paddle):
    lin = fill_parameters(paddle.nn.Linear(2, 2))
    lin(paddle.ones([1, 2])).sum().backward()
    total = paddle.nn.utils.clip_grad_norm_(lin.weight, max_norm=100.0)
    empty = paddle.nn.utils.clip_grad_norm_(paddle.nn.Linear(2, 2).parameters(), 1.0)
    return total, lin.weight.grad, empty


@case
def clip_grad_norm_bad_type(paddle):
    return paddle.nn.utils.clip_grad_norm_(paddle.nn.Linear(2, 2).parameters(), 1.0, norm_type=3)


@case
def clip_grad_norm_nonfinite(paddle):
    lin = fill_parameters(paddle.nn.Linear(2, 2))
    (lin(paddle.to_tensor([[float("inf"), 1.0]]))).sum().backward()
    return paddle.nn.utils.clip_grad_norm_(lin.parameters(), 1.0, error_if_nonfinite=True)


@case
def clip_grad_value_cases(paddle):
    lin = fill_parameters(paddle.nn.Linear(3, 2))
    (lin(paddle.to_tensor(data([4, 3]))) ** 2).sum().backward()
    r = paddle.nn.utils.clip_grad_value_(lin.parameters(), 0.3)
    return r, lin.weight.grad, lin.bias.grad


@case
def parameters_vector_round_trip(paddle):
    lin = fill_parameters(paddle.nn.Linear(3, 2))
    vec = paddle.nn.utils.parameters_to_vector(lin.parameters())
    new = paddle.arange(9, dtype="float32")
    paddle.nn.utils.vector_to_parameters(new, lin.parameters())
    longer = paddle.arange(20, dtype="float32")
    paddle.nn.utils.vector_to_parameters(longer * 2, lin.parameters())
    return vec, lin.weight, lin.bias, lin.weight.stop_gradient, type(lin.weight).__name__


@case
def vector_to_parameters_too_short(paddle):
    lin = paddle.nn.Linear(3, 2)
    paddle.nn.utils.vector_to_parameters(paddle.ones([4]), lin.parameters())


@case
def parameter_list_setitem_other_shape(paddle):
    with paddle.utils.unique_name.guard():
        layer = paddle.nn.Layer()
        pl = paddle.nn.ParameterList([layer.create_parameter([2, 2]) for _ in range(2)])
        old = pl[1]
        pl[1] = paddle.to_tensor([[1.0, 2.0, 3.0]], dtype="float64")
        return pl[1], pl[1] is old, pl[1].name, type(pl[1]).__name__


@case
def to_int_dtype_and_back(paddle):
    Affine, *_ = _classes(paddle)
    a = fill_parameters(Affine(2, 2))
    a.to(dtype="int32")
    r = [a.weight, a.weight.stop_gradient, a.weight.trainable]
    a.to(dtype="float32")
    y = a(paddle.ones([1, 2])).sum()
    y.backward()
    return r + [a.weight.stop_gradient, a.weight.grad, y]


@case
def deepcopy_keeps_frozen_parameters(paddle):
    Affine, *_ = _classes(paddle)
    a = Affine(2, 2)
    a.weight.trainable = False
    b = copy.deepcopy(a)
    return b.weight.stop_gradient, b.weight.trainable, b.bias.stop_gradient, b.weight is a.weight


# ---------------------------------------------------------------- weight_norm in static mode and its values
def _static_weight_norm(paddle, make, dim):
    """weight_norm applied in static mode, its g and v fetched after the startup program ran (as the suite does)."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            layer = make()
            paddle.nn.utils.weight_norm(layer, dim=dim)
            exe = paddle.static.Executor()
            exe.run(startup)
            return exe.run(main, fetch_list=[layer.weight_g, layer.weight_v])
    finally:
        paddle.disable_static()


@case
def weight_norm_static_matches_dynamic(paddle):
    const = paddle.nn.initializer.Constant(4.0)
    out = []
    for make, dims in [(lambda: paddle.nn.Conv2D(3, 5, 3, weight_attr=const), (0, 1, 2, 3)),
                       (lambda: paddle.nn.Conv1D(4, 5, 2, weight_attr=const), (0, 2)),
                       (lambda: paddle.nn.Linear(4, 7, weight_attr=const), (0, 1))]:
        for dim in dims:
            layer = make()
            paddle.nn.utils.weight_norm(layer, dim=dim)
            g, v = _static_weight_norm(paddle, make, dim)
            out.append([layer.weight_g, g, float(np.abs(v - 4.0).max())])
    return out


@case
def weight_norm_values(paddle):
    out = []
    for dim in (0, 1, -1, None, 2):
        conv = paddle.nn.Conv2D(2, 3, 2)
        conv.weight.set_value((np.arange(24).reshape(3, 2, 2, 2) / 7 - 1.5).astype("float32"))
        paddle.nn.utils.weight_norm(conv, dim=dim)
        y = conv(paddle.to_tensor(np.ones([1, 2, 3, 3], "float32")))
        out.append([conv.weight_g, conv.weight, y])
        paddle.nn.utils.remove_weight_norm(conv)
        out.append(conv.weight)
    return out
