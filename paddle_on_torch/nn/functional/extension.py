"""paddle.nn.functional: extension (being filled in)."""

__all__ = []
