"""paddle.optimizer.fusion_utils: Paddle's fused optimizer-state storage shared between processes over CUDA IPC
(FusionStorageHelper, used by zero-cost checkpointing): not provided."""
from .. import _report

raise _report.unsupported_module("paddle.optimizer.fusion_utils",
                                 ": fused optimizer storage shared over CUDA IPC handles")
