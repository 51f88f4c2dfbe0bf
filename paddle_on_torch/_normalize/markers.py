"""The annotations an @op implementation's parameters carry: each names the converter the generated
wrapper calls for that argument (converters.py maps them)."""


class TensorLike:
    """A paddle Tensor (or something to_tensor accepts) -> torch.Tensor."""


class OptionalTensor:
    """None or a TensorLike."""


class TensorSequence:
    """A list/tuple of Tensors -> list of torch.Tensor."""


class AxisLike:
    """None, an int, a list/tuple of ints or a Tensor -> None, int or tuple of ints."""


class DTypeLike:
    """Any dtype spelling -> torch.dtype (None stays None)."""


class ShapeLike:
    """A list/tuple of ints or 1-element Tensors, or a 1-D Tensor -> list of ints."""


class ShapeArgs:
    """A ShapeLike that may also come as separate ints (`paddle.ones(2, 3)`: every positional argument is a size
    when the first is an int) or as `size=`: Paddle's size_args_decorator, for the first parameter of a factory."""


class ScalarOrTensor:
    """A Python number stays a number; a Tensor becomes a torch.Tensor."""


class ValuesLike:
    """An attribute Paddle also takes as a Tensor (a pad list, an output size): a Tensor -> its Python value
    (`tolist()`), a list / tuple holding Tensors -> the same with each one's number; anything else unchanged."""


class ScalarLike:
    """A Python number, a numpy scalar or a 1-element Tensor -> a Python number (None stays None)."""


class IntLike:
    """An int or a 1-element Tensor -> int (None stays None where None is the default); a float, a string or
    None otherwise is Paddle's TypeError."""


class RequiresGrad:
    """A factory's `requires_grad=` (a bool): the wrapper makes the result require grad, so the implementation
    gets it only when its code reads it."""


class PlaceLike:
    """A Place, a device string ('cpu', 'gpu:0'), a torch.device, or None (the current device) -> torch.device."""


class OptionalPlace:
    """None stays None (the op picks, say an input's device); anything else as PlaceLike."""


