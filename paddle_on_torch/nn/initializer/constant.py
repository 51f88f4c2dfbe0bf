"""paddle.nn.initializer.constant: the module Paddle defines Constant in (libraries name it by its module path)."""
from . import Constant  # noqa: F401

ConstantInitializer = Constant
