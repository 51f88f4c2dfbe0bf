"""paddle.nn layers: pooling (being filled in)."""

__all__ = []
