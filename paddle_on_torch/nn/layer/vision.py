"""paddle.nn layers: vision (being filled in)."""

__all__ = []
