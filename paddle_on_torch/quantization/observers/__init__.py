"""paddle.quantization.observers: observers for post-training quantization."""
from .abs_max import AbsmaxObserver
from .groupwise import GroupWiseWeightObserver

__all__ = ["AbsmaxObserver", "GroupWiseWeightObserver"]
