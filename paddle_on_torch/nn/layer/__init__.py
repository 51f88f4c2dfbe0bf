from .layers import Layer, Parameter  # noqa: F401
