"""paddle.distributed.flex_checkpoint: Paddle's checkpoint package; here its dcp functions on torch DCP
(distributed/checkpoint)."""
from . import dcp  # noqa: F401
