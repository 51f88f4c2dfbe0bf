"""paddle.nn.functional: common (being filled in)."""

__all__ = []
