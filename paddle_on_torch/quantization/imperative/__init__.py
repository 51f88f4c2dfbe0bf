"""paddle.quantization.imperative (Paddle 2.x's dygraph QAT/PTQ) is not implemented."""
from ... import _report

raise _report.unsupported("paddle.quantization.imperative", " (the legacy imperative quantization API; "
                          "use paddle.quantization.QAT / PTQ)")
