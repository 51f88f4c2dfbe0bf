"""MetaParallelBase: a Layer that wraps the user's model for one parallel mode."""
from ....nn.layer.layers import Layer

__all__ = ["MetaParallelBase"]


class MetaParallelBase(Layer):
    def __init__(self, layers, hcg, strategy):
        super().__init__(layers.full_name() + "_meta_parallel_base")
        self._layers = layers
        self._hcg = hcg
        self._strategy = strategy
        self._prepare_for_model()

    def _prepare_for_model(self):
        pass

    def _pre_forward(self, *inputs, **kwargs):
        return inputs, kwargs

    def forward(self, *inputs, **kwargs):
        inputs, kwargs = self._pre_forward(*inputs, **kwargs)
        return self._layers(*inputs, **kwargs)

    def state_dict(self, *args, **kwargs):
        return self._layers.state_dict(*args, **kwargs)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict
