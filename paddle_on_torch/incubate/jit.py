"""paddle.incubate.jit: Paddle's `inference` decorator (a function or Layer turned into a Paddle Inference
predictor, compiled with TensorRT / Paddle's passes) and its test `is_inference_mode`."""
from .. import _report
from ..nn.layer.layers import Layer


def is_inference_mode(function):
    """Whether `function` (or a Layer's forward) was wrapped by `paddle.incubate.jit.inference`.  Nothing can be
    here (that decorator is not supported), so this is False for every function, as in Paddle for an undecorated
    one."""
    fn = function.forward if isinstance(function, Layer) else function
    return getattr(fn, "__name__", None) == "innermost_decorator"


inference = _report.unsupported_function(
    "paddle.incubate.jit.inference", ": it builds a Paddle Inference predictor (TensorRT / Paddle IR passes)")
inference_decorator = inference
