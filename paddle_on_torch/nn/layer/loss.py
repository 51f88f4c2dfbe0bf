"""paddle.nn layers: loss (being filled in)."""

__all__ = []
