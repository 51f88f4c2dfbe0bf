"""paddle.incubate.nn.FusedDropout: dropout, optionally sharing its mask along axes (paddle's dropout `axis`)."""
from ....nn import Layer
from ....nn import functional as NF

__all__ = ["FusedDropout"]


class FusedDropout(Layer):
    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        if not isinstance(p, (float, int)):
            raise TypeError("p argument should be a number")
        if p < 0 or p > 1:
            raise ValueError("p argument should between 0 and 1")
        # Paddle renames the mode before checking it, so 'downscale_in_infer' is refused (Paddle 3.3.1 does this)
        mode = "downgrade_in_infer" if mode == "downscale_in_infer" else mode
        if mode not in ("downscale_in_infer", "upscale_in_train"):
            raise ValueError("mode argument should be 'downscale_in_infer' or 'upscale_in_train'")
        if axis and not isinstance(axis, (int, list, tuple)):
            raise TypeError("datatype of axis argument should be int or list")
        self.p, self.mode, self.name = p, mode, name
        self.axis = None if axis is None else ([axis] if isinstance(axis, int) else list(axis))

    def forward(self, input):
        if self.p == 0:
            return input
        return NF.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode, name=self.name)

    def extra_repr(self):
        return f"p={self.p}, axis={self.axis}, mode={self.mode}" + (f", name={self.name}" if self.name else "")
