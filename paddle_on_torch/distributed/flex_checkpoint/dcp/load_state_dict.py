"""paddle.distributed.flex_checkpoint.dcp.load_state_dict: loading sharded checkpoints, whole or as safetensors."""
from ...._report import module_getattr, unsupported_function
from ...checkpoint.api import _divide as divide_positions  # noqa: F401
from ...checkpoint.api import load_merged_state_dict, load_state_dict, merge_sharded_state_dict  # noqa: F401

# the read planner of Paddle's own loader (which rank reads which file, then the resharding reads): the loader here
# is torch DCP's, which plans its own reads
_load_state_dict = unsupported_function("paddle.distributed.flex_checkpoint.dcp.load_state_dict._load_state_dict",
                                        ": Paddle's loader internals; use load_state_dict")
get_rank_to_read_files = unsupported_function(
    "paddle.distributed.flex_checkpoint.dcp.load_state_dict.get_rank_to_read_files",
    ": Paddle's loader internals (torch DCP plans the reads of load_state_dict)")

__getattr__ = module_getattr("paddle.distributed.flex_checkpoint.dcp.load_state_dict")
