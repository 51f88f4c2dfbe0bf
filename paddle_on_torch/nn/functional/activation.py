"""paddle.nn.functional: activation (being filled in)."""

__all__ = []
