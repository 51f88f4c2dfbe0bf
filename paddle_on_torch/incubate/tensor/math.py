"""paddle.incubate.tensor.math: the segment reductions (one home: paddle.geometric)."""
from ...geometric import segment_max, segment_mean, segment_min, segment_sum  # noqa: F401
