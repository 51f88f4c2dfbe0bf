"""paddle.nn layers: container (being filled in)."""

__all__ = []
