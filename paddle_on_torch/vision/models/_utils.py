"""Helpers shared by the model definitions."""
from collections import OrderedDict

from ... import nn
from ...tensor.manipulation import flatten


def _make_divisible(v, divisor=8, min_value=None):
    """Round a channel count to a multiple of `divisor`, never going down by more than 10%."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def _check_pretrained(arch, pretrained):
    """Paddle downloads ImageNet weights for pretrained=True; offline, that cannot happen here."""
    if pretrained:
        raise RuntimeError(
            f"paddle.vision.models: pretrained weights for '{arch}' cannot be downloaded (paddle_on_torch "
            "works offline and never downloads). Build the model with pretrained=False and load a local "
            "Paddle weight file: model.set_state_dict(paddle.load('/path/to/weights.pdparams')).")


class IntermediateLayerGetter(nn.LayerDict):
    """Run the direct children of `model` in order and return the outputs named in `return_layers`."""

    def __init__(self, model, return_layers):
        if not set(return_layers).issubset([name for name, _ in model.named_children()]):
            raise ValueError("return_layers are not present in model")
        orig_return_layers = return_layers
        return_layers = {str(k): str(v) for k, v in return_layers.items()}
        layers = OrderedDict()
        for name, module in model.named_children():
            layers[name] = module
            if name in return_layers:
                del return_layers[name]
            if not return_layers:
                break
        super().__init__(layers)
        self.return_layers = orig_return_layers

    def forward(self, x):
        out = OrderedDict()
        for name, module in self.items():
            first = module.sublayers()[0] if len(module.sublayers()) > 0 else None
            if x.ndim == 4 and (isinstance(module, nn.Linear) or isinstance(first, nn.Linear)):
                x = flatten(x, 1)
            x = module(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out
