"""paddle.nn.functional: vision (being filled in)."""

__all__ = []
