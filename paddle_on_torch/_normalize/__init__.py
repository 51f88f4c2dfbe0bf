"""The one place where Paddle arguments become torch arguments.

API functions are written as thin implementations over torch tensors and
annotate each parameter with what it means to Paddle (the idea comes from
torch._numpy's normalizers):

    @op
    def sum(x: TensorLike, axis: AxisLike = None, dtype: DTypeLike = None,
            keepdim=False, name=None, *, out=None):
        return torch.sum(x, dim=axis, keepdim=keepdim, dtype=dtype)

`op` makes, at import, a wrapper with the same signature; its first call
generates the wrapper's code, which converts each annotated argument (a paddle Tensor to its torch tensor, an
axis list to a tuple, 'float32' to torch.float32, ...), calls the
implementation and wraps torch tensors in the result back into paddle
Tensors.  The wrapper is straight-line code with no loops over parameters,
so the per-op cost stays near a plain Python call.  It also gives every op
Paddle 3.3's torch-style keyword aliases (`input=`, `dim=`, `other=`,
`keepdims=`) and the `out=` keyword where the signature has one.
"""
from . import codegen, converters, promotion, wrapping
from .codegen import (_PENDING, binary_operator, generate_all, op,  # noqa: F401
                      public_name)
from .converters import (ALIASES, _axis, _shape, _tensor_arg, int_arg)  # noqa: F401
from .markers import (AxisLike, DTypeLike, IntLike, OptionalPlace, OptionalTensor, PlaceLike,  # noqa: F401
                      RequiresGrad, ScalarLike, ScalarOrTensor, ShapeArgs, ShapeLike, TensorLike, TensorSequence,
                      ValuesLike)
from .promotion import binary_operands  # noqa: F401
from .wrapping import (MUTATIONS, _OP_NAMESPACES, _new, is_tensor, plain_mode, rebind,  # noqa: F401
                       register_data_converter, set_impl_hook, to_torch, unwrap, wrap, wrap_result)

__all__ = ["op", "TensorLike", "OptionalTensor", "TensorSequence", "AxisLike", "DTypeLike",
           "ShapeLike", "ShapeArgs", "ScalarOrTensor", "ScalarLike", "IntLike", "PlaceLike", "OptionalPlace",
           "ValuesLike", "RequiresGrad", "wrap", "unwrap", "is_tensor", "to_torch", "wrap_result"]

Tensor = None  # the paddle Tensor class (`_normalize.Tensor`), set by register_tensor


def register_tensor(cls, set_static_view):
    """The paddle Tensor class, registered once by tensor/tensor.py at import; every module of this layer
    holds it as a global, so the wrappers and converters test `isinstance(x, Tensor)` without a lookup."""
    global Tensor
    Tensor = cls
    wrapping.register_tensor(cls, set_static_view)
    for module in (converters, codegen, promotion):
        module.Tensor = cls
