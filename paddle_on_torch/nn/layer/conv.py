"""paddle.nn layers: conv (being filled in)."""

__all__ = []
