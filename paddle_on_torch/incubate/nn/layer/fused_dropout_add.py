"""paddle.incubate.nn.FusedDropoutAdd: dropout(x) + y."""
from ....nn import Layer
from .. import functional as F

__all__ = ["FusedDropoutAdd"]


class FusedDropoutAdd(Layer):
    def __init__(self, p=0.5, mode="upscale_in_train", name=None):
        super().__init__()
        self.p, self.mode, self.name = p, mode, name

    def forward(self, x, y):
        return F.fused_dropout_add(x, y, p=self.p, training=self.training, mode=self.mode, name=self.name)

    def extra_repr(self):
        return f"p={self.p}, mode={self.mode}" + (f", name={self.name}" if self.name else "")
