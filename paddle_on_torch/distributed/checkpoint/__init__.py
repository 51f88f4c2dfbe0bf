"""paddle.distributed.save_state_dict / load_state_dict / load_merged_state_dict: sharded checkpoints on
torch.distributed.checkpoint."""
from .api import load_merged_state_dict, load_state_dict, save_state_dict  # noqa: F401
