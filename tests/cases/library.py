"""paddle.library (Paddle 3.3's torch.library twin: Python custom operators) with paddle.ops / paddle.classes (its
torch.ops / torch.classes twins).  Registrations are global to the process, so each case names its operators
afresh (the suffix is taken out of what it returns)."""
import itertools
import warnings

from tests.cases import case

_FRESH = itertools.count()


def _name(op):
    return f"potlib{next(_FRESH)}_{id(_FRESH) % 1000}", op


@case
def custom_op_registers_an_operator(paddle):
    """custom_op as a decorator and with the function; the operator called through paddle.ops, directly and as
    .default; CustomOpDef's repr, name and schema."""
    ns, _ = _name("")

    @paddle.library.custom_op(f"{ns}::add_one", mutates_args=())
    def add_one(x):
        return x + 1

    twice = paddle.library.custom_op(f"{ns}::twice", lambda x: x * 2, mutates_args="unknown")
    ops = getattr(paddle.ops, ns)
    return [repr(add_one).replace(ns, "NS"), type(add_one).__name__, add_one._qualname.replace(ns, "NS"),
            add_one._schema, ops.add_one(paddle.to_tensor([1.0, 2.0])), ops.add_one.default(paddle.to_tensor(1.0)),
            repr(twice).replace(ns, "NS"), ops.twice(paddle.to_tensor([3.0])),
            paddle.library.PYTHON_OP_REGISTRY.has_operator(f"{ns}::twice"),
            paddle.library.PYTHON_OP_REGISTRY.has_operator(f"{ns}::nothing")]


@case
def custom_op_registered_twice(paddle):
    ns, _ = _name("")
    paddle.library.custom_op(f"{ns}::dup", lambda x: x, mutates_args=())
    try:
        paddle.library.custom_op(f"{ns}::dup", lambda x: x, mutates_args=())
    except ValueError as e:
        return ["ValueError", str(e).replace(ns, "NS")]


@case
def custom_op_without_namespace(paddle):
    return paddle.library.custom_op("noname", lambda x: x, mutates_args=())


@case
def custom_op_without_mutates_args(paddle):
    return paddle.library.custom_op("potlib::x", lambda x: x)


@case
def unimplemented_torch_features_warn(paddle):
    """device_types / schema / tags and register_fake (both forms, and CustomOpDef's) warn and are kept or
    returned unchanged."""
    ns, _ = _name("")
    f = lambda x: x  # noqa: E731
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = paddle.library.custom_op(f"{ns}::warned", f, mutates_args=(), device_types="cpu",
                                     schema="(Tensor x) -> Tensor", tags=[paddle.library.Tag()])
        same = [paddle.library.register_fake(f"{ns}::warned", f) is f, paddle.library.register_fake("a::b")(f) is f,
                d.register_fake(f) is f]
    return [str(w.message) for w in caught] + [d._schema, len(d._tags)] + same


@case
def registry_lookup_of_a_missing_operator(paddle):
    return paddle.library.PYTHON_OP_REGISTRY.get_operator("potlib::nothing")


@case
def ops_and_classes_modules(paddle):
    return [type(paddle.ops).__name__, paddle.ops.__name__, type(paddle.ops.abc).__name__, paddle.ops.abc.__name__,
            paddle.ops.__file__, paddle.ops.abc.__file__, type(paddle.classes).__name__, paddle.classes.__name__,
            paddle.classes.ns1.__name__, paddle.classes.__file__, paddle.ops.import_module("json").__name__,
            callable(paddle.ops.potns_missing.myop.default)]


@case
def ops_operator_not_registered(paddle):
    return paddle.ops.potns_missing.myop(1)


@case
def ops_operator_attribute(paddle):
    return paddle.ops.potns_missing.myop.foo


@case
def classes_class_not_registered(paddle):
    return paddle.classes.potns.Foo


@case
def ops_load_library_missing_file(paddle):
    return paddle.ops.load_library("/nonexistent/libpot_ops.so")
