"""paddle.functional: Paddle 3.3's twin of torch.functional, the same functions as elsewhere in paddle
(`split` is paddle.compat.split: torch's signature, a chunk size or a list of sizes)."""
from .compat import split  # noqa: F401
from .tensor.creation import meshgrid  # noqa: F401
from .tensor.einsum import einsum  # noqa: F401
from .tensor.linalg import norm  # noqa: F401
from .tensor.manipulation import atleast_1d, atleast_2d, atleast_3d, unique_consecutive  # noqa: F401
from .tensor.math import broadcast_shapes  # noqa: F401

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "einsum", "norm", "split",
           "unique_consecutive", "meshgrid"]
