"""paddle.nn.decode: the Decoder interface, BeamSearchDecoder and dynamic_decode.

Paddle keeps them in this module and re-exports them from paddle.nn; the implementations live with the RNN
layers (nn/layer/rnn.py), so `paddle.nn.decode.BeamSearchDecoder is paddle.nn.BeamSearchDecoder`.
"""
from .layer.rnn import BeamSearchDecoder, Decoder, dynamic_decode  # noqa: F401

__all__ = []
