"""paddle.nn layers: transformer (being filled in)."""

__all__ = []
