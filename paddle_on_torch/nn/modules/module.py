"""paddle.nn.modules.module: Layer under its torch name."""
from ..layer.layers import Layer  # noqa: F401

Module = Layer
