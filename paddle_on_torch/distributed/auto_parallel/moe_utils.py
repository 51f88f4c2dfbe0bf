"""paddle.distributed.auto_parallel.moe_utils: the expert-parallel helpers of Paddle's auto-parallel MoE layers
(sub-mesh splitting and local shapes): not provided."""
from ... import _report

raise _report.unsupported_module("paddle.distributed.auto_parallel.moe_utils",
                                 ": expert-parallel MoE over sub-meshes in auto-parallel mode")
