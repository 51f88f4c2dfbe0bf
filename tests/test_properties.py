"""Property tests: random shapes and dtypes for the elementwise, reduction and manipulation families.

The golden cases pin Paddle's behaviour on chosen inputs; these check that the same rules hold
across shapes and dtypes.  The reference is numpy, whose broadcasting, reduction shapes and
values Paddle follows, plus Paddle's own dtype rules (recorded in the golden cases): same-dtype
arithmetic keeps the dtype, true division of integers gives float32, sums of integers give int64.
"""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

DTYPES = ["float32", "float64", "int32", "int64"]
# the `paddle` fixture only resets print options and the default dtype, which these tests never change
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def arrays(dtype, shape):
    if dtype.startswith("float"):
        elements = st.floats(-100, 100, width=32)
    else:
        elements = st.integers(-100, 100)
    return hnp.arrays(dtype, shape, elements=elements)


@st.composite
def broadcastable_pair(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=1, max_dims=4, max_side=5))
    a, b = (draw(arrays(dtype, s)) for s in shapes.input_shapes)
    return a, b


@st.composite
def array_and_axes(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, max_side=5))
    a = draw(arrays(dtype, shape))
    axes = draw(st.lists(st.integers(-a.ndim, a.ndim - 1), unique_by=lambda i: i % a.ndim, max_size=a.ndim))
    return a, axes


def check(t, ref, dtype=None):
    assert list(t.shape) == list(np.shape(ref))
    assert str(t.dtype) == f"paddle.{dtype or np.asarray(ref).dtype}"
    np.testing.assert_allclose(t.numpy(), ref, rtol=2e-6, atol=1e-5)


@SETTINGS
@given(broadcastable_pair(), st.sampled_from(["add", "subtract", "multiply", "maximum", "minimum"]))
def test_elementwise_binary_broadcasts_like_numpy(paddle, pair, name):
    a, b = pair
    ref = getattr(np, name)(a, b)
    check(getattr(paddle, name)(paddle.to_tensor(a), paddle.to_tensor(b)), ref)


@SETTINGS
@given(broadcastable_pair())
def test_true_division_of_integers_is_float32(paddle, pair):
    a, b = pair
    b = np.where(b == 0, 1, b).astype(b.dtype)
    out = paddle.to_tensor(a) / paddle.to_tensor(b)
    dtype = a.dtype.name if a.dtype.kind == "f" else "float32"
    check(out, (a / b).astype(dtype), dtype)


@SETTINGS
@given(array_and_axes(), st.booleans())
def test_sum_over_axes(paddle, arr_axes, keepdim):
    a, axes = arr_axes
    axis = tuple(axes) if axes else None
    ref = np.sum(a, axis=axis, keepdims=keepdim)
    dtype = "int64" if a.dtype.kind == "i" else a.dtype.name
    check(paddle.sum(paddle.to_tensor(a), axis=list(axes) if axes else None, keepdim=keepdim),
          ref.astype(dtype), dtype)


@SETTINGS
@given(array_and_axes(), st.booleans())
def test_max_over_axes(paddle, arr_axes, keepdim):
    a, axes = arr_axes
    axis = tuple(axes) if axes else None
    check(paddle.max(paddle.to_tensor(a), axis=list(axes) if axes else None, keepdim=keepdim),
          np.max(a, axis=axis, keepdims=keepdim))


@SETTINGS
@given(hnp.array_shapes(min_dims=1, max_dims=4, max_side=5), st.data())
def test_transpose_reshape_round_trip(paddle, shape, data):
    a = np.arange(int(np.prod(shape)), dtype="int64").reshape(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    x = paddle.to_tensor(a)
    check(paddle.transpose(x, perm), np.transpose(a, perm))
    check(x.reshape([-1]), a.reshape(-1))
    check(paddle.flatten(x), a.reshape(-1))


@SETTINGS
@given(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4), st.integers(1, 3), st.data())
def test_concat_split_inverse(paddle, shape, n, data):
    axis = data.draw(st.integers(0, len(shape) - 1))
    parts = [np.full(shape, i, dtype="float32") for i in range(n)]
    joined = paddle.concat([paddle.to_tensor(p) for p in parts], axis=axis)
    check(joined, np.concatenate(parts, axis=axis))
    back = paddle.split(joined, n, axis=axis)
    assert len(back) == n
    for b, p in zip(back, parts):
        check(b, p)


@SETTINGS
@given(hnp.array_shapes(min_dims=0, max_dims=4, max_side=3))
def test_squeeze_unsqueeze(paddle, shape):
    a = np.zeros(shape, dtype="float32")
    x = paddle.to_tensor(a)
    check(paddle.squeeze(x), np.squeeze(a))
    check(paddle.unsqueeze(x, 0), a[None])


OPERATORS = [("__add__", "add"), ("__sub__", "subtract"), ("__mul__", "multiply"), ("__truediv__", "divide"),
             ("__eq__", "equal"), ("__ne__", "not_equal"), ("__lt__", "less_than"), ("__le__", "less_equal"),
             ("__gt__", "greater_than"), ("__ge__", "greater_equal")]


@st.composite
def operand_pair(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3))
    dtypes = draw(st.tuples(st.sampled_from(DTYPES + ["bool"]), st.sampled_from(DTYPES + ["bool"])))
    out = []
    for dt, shape in zip(dtypes, shapes.input_shapes):
        out.append(draw(hnp.arrays(dt, shape, elements=st.booleans() if dt == "bool" else
                                   st.integers(1, 9) if dt.startswith("int") else st.floats(-9, 9, width=32))))
    return out


def _outcome(fn):
    try:
        r = fn()
        return (str(r.dtype), list(r.shape), repr(r.numpy().tolist()))  # repr: nan == nan
    except Exception as e:  # noqa: BLE001 - the error type is part of the outcome
        return type(e).__name__


@SETTINGS
@given(operand_pair(), st.sampled_from(OPERATORS), st.booleans())
def test_operators_equal_their_functions(paddle, pair, names, scalar_rhs):
    """The operators take a shorter path than the functions (no keywords); results must not differ."""
    dunder, function = names
    a, b = pair
    x = paddle.to_tensor(a)
    y = b.flat[0].item() if scalar_rhs and b.size else paddle.to_tensor(b)
    assert _outcome(lambda: getattr(x, dunder)(y)) == _outcome(lambda: getattr(paddle, function)(x, y))
