"""paddle.nn.functional: pooling (being filled in)."""

__all__ = []
