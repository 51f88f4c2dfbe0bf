"""paddle.nn.parameter (Paddle 3.3's twin of torch.nn.parameter): Parameter is the eager parameter class."""
from .layer.layers import EagerParamBase  # noqa: F401

Parameter = EagerParamBase
