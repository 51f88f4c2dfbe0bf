"""paddle.distributed.auto_parallel.local_layer: Paddle's LocalLayer (a Layer run on each rank's local pieces of
distributed tensors, its outputs made global again): not provided."""
from ... import _report

raise _report.unsupported_module("paddle.distributed.auto_parallel.local_layer",
                                 ": LocalLayer (per-rank computation on the local pieces of DTensors)")
