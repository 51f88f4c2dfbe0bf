"""paddle.nn.modules (Paddle 3.3's twin of torch.nn.modules): Module is Layer."""
from . import container, module  # noqa: F401
from .module import Module  # noqa: F401
