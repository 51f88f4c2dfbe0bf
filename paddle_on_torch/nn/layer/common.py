"""paddle.nn layers: common (being filled in)."""

__all__ = []
