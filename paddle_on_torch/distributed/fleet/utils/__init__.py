"""paddle.distributed.fleet.utils: recompute and the hybrid-parallel helpers PaddleNLP imports."""
from .... import _report
from ..recompute.recompute import recompute  # noqa: F401
from . import hybrid_parallel_util, sequence_parallel_utils  # noqa: F401

__all__ = ["recompute"]
__getattr__ = _report.module_getattr("paddle.distributed.fleet.utils")
