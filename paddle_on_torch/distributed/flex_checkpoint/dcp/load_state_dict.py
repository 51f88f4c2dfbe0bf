"""paddle.distributed.flex_checkpoint.dcp.load_state_dict: loading sharded checkpoints, whole or as safetensors."""
from ...._report import module_getattr
from ...checkpoint.api import _divide as divide_positions  # noqa: F401
from ...checkpoint.api import load_merged_state_dict, load_state_dict, merge_sharded_state_dict  # noqa: F401

__getattr__ = module_getattr("paddle.distributed.flex_checkpoint.dcp.load_state_dict")
