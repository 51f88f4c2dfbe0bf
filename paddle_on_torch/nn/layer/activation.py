"""paddle.nn layers: activation (being filled in)."""

__all__ = []
