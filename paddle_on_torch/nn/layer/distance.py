"""paddle.nn layers: distance (being filled in)."""

__all__ = []
