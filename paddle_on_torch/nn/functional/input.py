"""paddle.nn.functional: input (being filled in)."""

__all__ = []
