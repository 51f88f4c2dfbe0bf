"""paddle.distributed.auto_parallel.intermediate.pipeline_parallel: SplitPoint (defined with parallelize, which
applies pp_config)."""
from .parallelize import SplitPoint  # noqa: F401
