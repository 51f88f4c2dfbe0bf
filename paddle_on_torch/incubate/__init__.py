"""paddle.incubate: the parts paddle_on_torch provides (asp, autograd and nn load on first touch)."""
import importlib as _importlib

from .. import _report
from ..geometric import segment_max, segment_mean, segment_min, segment_sum  # noqa: F401
from .operators import (  # noqa: F401
    graph_khop_sampler, graph_reindex, graph_sample_neighbors, graph_send_recv, identity_loss, softmax_mask_fuse,
    softmax_mask_fuse_upper_triangle)
from .optimizer import LookAhead, ModelAverage  # noqa: F401

_SUBMODULES = {"asp", "autograd", "nn", "jit", "multiprocessing", "tensor"}
_unsupported_getattr = _report.module_getattr("paddle.incubate")


def __getattr__(name):
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    return _unsupported_getattr(name)
