"""paddle.tensor: the Tensor class and the function families Paddle groups under it."""
from .tensor import Size, Tensor, TensorSize  # noqa: F401  (first: every @op needs the class)
from . import creation, logic, manipulation, math, random, search, stat  # noqa: F401,E402
from . import indexing  # noqa: F401,E402
from .to_string import set_printoptions  # noqa: F401
