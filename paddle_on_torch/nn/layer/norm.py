"""paddle.nn layers: norm (being filled in)."""

__all__ = []
