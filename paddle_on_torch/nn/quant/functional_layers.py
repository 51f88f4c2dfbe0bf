"""paddle.nn.quant's functional layers: tensor ops as Layers, so quantization passes can find and wrap them."""
from ..layer.layers import Layer


class FloatFunctionalLayer(Layer):
    """Base of the layers below (a marker for quantization passes)."""


def _layer(op_name):
    def forward(self, *args, **kwargs):
        import paddle_on_torch

        return getattr(paddle_on_torch, op_name)(*args, **kwargs)

    return type(op_name, (FloatFunctionalLayer,), {"forward": forward, "__doc__": f"paddle.{op_name} as a Layer."})


add, subtract, multiply, divide = (_layer(n) for n in ("add", "subtract", "multiply", "divide"))
reshape, transpose, concat, flatten, matmul = (_layer(n) for n in ("reshape", "transpose", "concat", "flatten",
                                                                   "matmul"))
