"""paddle.incubate.fp8: Paddle's FP8 GEMM / quantisation kernels (CUDA, Hopper and later): not provided."""
from .. import _report

raise _report.unsupported_module("paddle.incubate.fp8", ": Paddle's FP8 kernels are CUDA-only (sm90+) fused ops")
