"""paddle.nn layers: rnn (being filled in)."""

__all__ = []
