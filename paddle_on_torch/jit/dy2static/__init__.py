"""Paddle's dy2static for paddle_on_torch: Python control flow on Tensors, converted so that a function
traces as one graph (torch.cond / torch.while_loop) under torch.export and dynamo.

transform.py rewrites a function's source, convert.py builds and caches the converted functions
(recursing into callees through convert_call), operators.py is what the converted code calls, and
tracing.py turns a branch or loop on a traced Tensor into torch's control-flow operators.  The rules
and what falls back: docs/jit.md, "Control flow".
"""
from .convert import convert_call, convert_function, converted_source, patched_forwards, prepare
from .operators import ConversionError, UndefinedVar
from . import program_translator  # noqa: F401,E402  (Paddle's ProgramTranslator: the to_static switch)

__all__ = ["convert_function", "convert_call", "converted_source", "prepare", "patched_forwards", "ConversionError",
           "UndefinedVar"]
