"""paddle.autograd.backward_mode: where Paddle defines `backward`."""
from .backward import backward

__all__ = ["backward"]
