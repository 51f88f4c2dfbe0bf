"""paddle.distributed.flex_checkpoint.dcp: save / load of sharded checkpoints (distributed/checkpoint/api.py)."""
from . import load_state_dict, metadata, save_state_dict, sharded_weight, utils  # noqa: F401
