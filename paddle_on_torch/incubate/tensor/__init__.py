"""paddle.incubate.tensor: the segment reductions (math) and host-offload helpers (manipulation)."""
from . import manipulation, math  # noqa: F401
from .math import segment_max, segment_mean, segment_min, segment_sum  # noqa: F401
