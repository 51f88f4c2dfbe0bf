"""paddle.distributed.flex_checkpoint.dcp.full_param: whole parameters assembled from every rank's shards."""
from ...._report import module_getattr, unsupported_function

full_param = unsupported_function(
    "paddle.distributed.flex_checkpoint.dcp.full_param.full_param",
    ": it gathers whole parameters from sharded ones through Paddle's resharder, which is not built; "
    "dcp.load_state_dict / load_merged_state_dict read a sharded checkpoint whole")

__getattr__ = module_getattr("paddle.distributed.flex_checkpoint.dcp.full_param")
