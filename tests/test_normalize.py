"""The code generator of paddle_on_torch/_normalize.py: its hooks (static mode's implementation hook), the
wrapper-only `name=` / `out=`, and the scalar / int / place markers.  Paddle's answers for the APIs built on
them are the golden cases (tests/cases); these check the machinery those cases cannot see."""
import inspect

import pytest
import torch

import paddle_on_torch as paddle
from paddle_on_torch import _normalize
from paddle_on_torch._normalize import (IntLike, OptionalPlace, PlaceLike, RequiresGrad, ScalarLike, TensorLike,
                                       ValuesLike)


def test_impl_hook_reaches_every_wrapper_and_later_ones():
    seen = []

    def make(impl):
        def hooked(*args, **kwargs):
            seen.append(getattr(impl, "__name__", "?"))
            return impl(*args, **kwargs)
        return hooked

    x = paddle.to_tensor([1.0, 4.0])
    _normalize.set_impl_hook(make)
    try:
        @_normalize.op
        def _later(x: TensorLike, name=None):
            return x + 1

        paddle.sqrt(x)
        r = _later(x)
        assert x.sqrt().tolist() == [1.0, 2.0]
        assert not _normalize.plain_mode()
    finally:
        _normalize.set_impl_hook(None)
    assert seen[:2] == ["sqrt", "_later"] and r.tolist() == [2.0, 5.0]
    n = len(seen)
    paddle.sqrt(x)
    _later(x)
    assert len(seen) == n and _normalize.plain_mode()


def test_name_and_out_stay_in_the_wrapper():
    _normalize.generate_all()
    src = inspect.getsource(paddle.tensor.math.add)
    call = next(line for line in src.splitlines() if "_impl(" in line)
    assert "name" not in call and "out" not in call, call
    out = paddle.zeros([2])
    r = paddle.add(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0]), name="n", out=out)
    assert out.tolist() == r.tolist() == [4.0, 6.0]


def test_an_implementation_that_reads_name_gets_it():
    @_normalize.op
    def _named(x: TensorLike, name=None, *, out=None):
        return x * 0 + len(name or "")

    assert _named(paddle.to_tensor([1.0]), "abc").tolist() == [3.0]
    assert _named(paddle.to_tensor([1.0]), name="ab").tolist() == [2.0]


def test_scalar_int_and_place_markers():
    @_normalize.op
    def _conv(x: TensorLike, s: ScalarLike, k: IntLike, p: PlaceLike = None, q: OptionalPlace = None,
              kk: IntLike = None):
        return x, s, k, p, q, kk

    t = paddle.to_tensor([2])
    _, s, k, p, q, kk = _conv(paddle.to_tensor([1.0]), paddle.to_tensor([1.5]), t)
    assert (s, k, kk, q) == (1.5, 2, None, None) and type(s) is float and type(k) is int
    assert p == torch.device("cpu")
    _, s, k, p, q, kk = _conv(paddle.to_tensor([1.0]), 2, 3, "cpu", paddle.CPUPlace(), t)
    assert (s, k, p, q, kk) == (2, 3, torch.device("cpu"), torch.device("cpu"), 2)
    with pytest.raises(TypeError):
        _conv(paddle.to_tensor([1.0]), 1.0, 2.5)  # an int argument given a float: Paddle's TypeError


def test_shape_args_marker_keeps_the_signature():
    # Paddle's size_args_decorator, folded into @op: the header's `*_sizes` / `size=` do not show
    assert str(inspect.signature(paddle.zeros)) == ("(shape, dtype=None, name=None, *, out=None, device=None, "
                                                    "requires_grad=False, pin_memory=False)")
    assert paddle.zeros(2, 3).shape == [2, 3] and paddle.rand(4, dtype="float64").dtype == paddle.float64
    with pytest.raises(TypeError):
        paddle.zeros([2], "float32", dtype="int32")  # dtype given twice


def test_requires_grad_and_values_markers():
    @_normalize.op
    def _made(n, *, requires_grad: RequiresGrad = False):
        return torch.arange(n)  # (never reads requires_grad: the wrapper applies it, also to an integer result)

    assert _made(3).stop_gradient and not _made(3, requires_grad=True).stop_gradient
    assert "requires_grad" not in next(line for line in inspect.getsource(_made).splitlines() if "_impl(" in line)

    @_normalize.op
    def _vals(v: ValuesLike = None):
        return v

    t = paddle.to_tensor
    assert _vals(t([1, 2])) == [1, 2] and _vals((t(3), 4)) == (3, 4) and _vals(5) == 5 and _vals() is None
