"""QuanterStub: what QAT / PTQ put in place of a paddle.nn.quant.Stub (Paddle defines it in nn/quant/stub.py;
it lives here, and that module re-exports it)."""
from ...layer.layers import Layer


class QuanterStub(Layer):
    """Identity with an observer on its input: the stub's own observer factory, else the config's activation."""

    def __init__(self, layer, q_config):
        super().__init__()
        self._observer = None
        if layer._observer is not None:
            self._observer = layer._observer._instance(layer)
        elif q_config.activation is not None:
            self._observer = q_config.activation._instance(layer)

    def forward(self, input):
        return self._observer(input) if self._observer is not None else input
