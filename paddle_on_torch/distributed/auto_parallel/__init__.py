"""paddle.distributed.auto_parallel on torch DeviceMesh / DTensor."""
from .placement_type import Partial, Placement, ReduceType, Replicate, Shard  # noqa: F401
from .process_mesh import ProcessMesh  # noqa: F401
from .api import (dtensor_from_fn, dtensor_from_local, dtensor_to_local, reshard, shard_layer,  # noqa: F401
                  shard_tensor, unshard_dtensor)
from .interface import create_mesh, get_mesh, set_mesh  # noqa: F401
from .strategy import Strategy  # noqa: F401,E402  (fleet.auto.Strategy, as Paddle exports it here)
