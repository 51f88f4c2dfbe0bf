"""paddle.distributed.auto_parallel._utils: private helpers of Paddle's auto-parallel trainer path.  The one
libraries import at the top (PaddleFormers' Trainer) is here so that import works; it refuses when called."""
from ... import _report

_patch_grads_for_step = _report.unsupported_function(
    "paddle.distributed.auto_parallel._utils._patch_grads_for_step",
    ": it rewrites gradients of Paddle's auto-parallel static Engine")
