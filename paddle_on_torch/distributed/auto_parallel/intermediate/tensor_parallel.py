"""paddle.distributed.auto_parallel.intermediate.tensor_parallel: the tensor-parallel plans (defined with
parallelize, which applies them)."""
from .parallelize import (ColWiseParallel, PlanBase, PrepareLayerInput, PrepareLayerOutput,  # noqa: F401
                          RowWiseParallel, SequenceParallelBegin, SequenceParallelDisable, SequenceParallelEnable,
                          SequenceParallelEnd)
