"""paddle.incubate.nn.memory_efficient_attention: Paddle's port of xformers' CUDA attention (with its
BlockDiagonalCausalMask / LowerTriangularMask biases): not provided; paddle.nn.functional.scaled_dot_product_attention
and flash_attention are."""
from ... import _report

raise _report.unsupported_module("paddle.incubate.nn.memory_efficient_attention",
                                 ": xformers' CUDA attention kernels (use scaled_dot_product_attention)")
