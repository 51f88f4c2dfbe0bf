"""paddle.tensor: the Tensor class and the function families Paddle groups under it.

`paddle.tensor` is also Paddle 3.3's torch-style constructor, `paddle.tensor(data, dtype=...)`:
the package module is callable.
"""
import sys
import types

from .tensor import Size, Tensor, TensorSize  # noqa: F401  (first: every @op needs the class)
from . import (attribute, creation, einsum, indexing, linalg, logic, manipulation, math, random,  # noqa: F401,E402
               search, stat)
from .attribute import *  # noqa: F401,F403,E402  (paddle.tensor.X is paddle.X, as in Paddle)
from .creation import *  # noqa: F401,F403,E402
from .einsum import *  # noqa: F401,F403,E402
from .linalg import *  # noqa: F401,F403,E402
from .logic import *  # noqa: F401,F403,E402
from .manipulation import *  # noqa: F401,F403,E402
from .math import *  # noqa: F401,F403,E402
from .random import *  # noqa: F401,F403,E402
from .search import *  # noqa: F401,F403,E402
from .search import top_p_sampling  # noqa: F401,E402  (paddle.tensor only, as in Paddle)
from .stat import *  # noqa: F401,F403,E402
from .to_string import set_printoptions  # noqa: F401,E402


class _CallableModule(types.ModuleType):
    def __call__(self, data, dtype=None, device=None, requires_grad=False, pin_memory=False):
        return creation.tensor(data, dtype, device, requires_grad, pin_memory)


sys.modules[__name__].__class__ = _CallableModule
