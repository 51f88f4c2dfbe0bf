"""paddle.geometric: segment reductions, message passing, neighbour sampling and reindexing for graphs."""
from .. import _report
from .math import segment_max, segment_mean, segment_min, segment_sum  # noqa: F401
from .message_passing import send_u_recv, send_ue_recv, send_uv  # noqa: F401
from .reindex import reindex_graph, reindex_heter_graph  # noqa: F401
from .sampling import sample_neighbors, weighted_sample_neighbors  # noqa: F401

__all__ = ["send_u_recv", "send_ue_recv", "send_uv", "segment_sum", "segment_mean", "segment_min", "segment_max",
           "reindex_graph", "reindex_heter_graph", "sample_neighbors", "weighted_sample_neighbors"]

__getattr__ = _report.module_getattr("paddle.geometric")
