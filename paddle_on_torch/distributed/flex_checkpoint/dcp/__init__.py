"""paddle.distributed.flex_checkpoint.dcp: save / load of sharded checkpoints (distributed/checkpoint/api.py)."""
from . import load_state_dict, save_state_dict  # noqa: F401
