"""paddle.nn.functional: norm (being filled in)."""

__all__ = []
