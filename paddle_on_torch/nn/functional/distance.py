"""paddle.nn.functional: distance (being filled in)."""

__all__ = []
