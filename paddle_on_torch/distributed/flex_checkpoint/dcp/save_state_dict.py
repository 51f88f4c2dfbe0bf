"""paddle.distributed.flex_checkpoint.dcp.save_state_dict: writing sharded checkpoints."""
from ...._report import module_getattr
from ...checkpoint.api import save_state_dict  # noqa: F401

__getattr__ = module_getattr("paddle.distributed.flex_checkpoint.dcp.save_state_dict")
