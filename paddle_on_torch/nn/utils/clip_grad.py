"""clip_grad_norm_ and clip_grad_value_: in-place gradient clipping, as Paddle computes it."""
import torch

from ..._normalize import wrap
from ...tensor.tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p._t.grad for p in parameters if p._t.grad is not None]


@torch.no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scale the gradients so their total `norm_type` norm is at most `max_norm`; returns the total norm."""
    supported = [float("inf"), 0, 1, 2]
    if norm_type not in supported:
        raise ValueError(f"norm_type only support {supported}")
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    params = [p._t for p in parameters if p._t.grad is not None]
    max_norm, norm_type = float(max_norm), float(norm_type)
    if not params:
        return wrap(torch.tensor(0.0))
    # torch's own: the norm of the gradients' norms, then grad * min(max_norm / (total + 1e-6), 1), as Paddle's
    total = torch.nn.utils.get_total_norm([p.grad for p in params], norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(f"The total norm of {norm_type} order of the gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. In any case, disable this error and scale the gradient by "
                           "non-finite norm, set `error_if_nonfinite=False`")
    torch.nn.utils.clip_grads_with_norm_(params, max_norm, total)
    return wrap(total)


@torch.no_grad()
def clip_grad_value_(parameters, clip_value):
    """Clamp every gradient to [-clip_value, clip_value] in place."""
    clip_value = float(clip_value)
    for g in _grads(parameters):
        g.clamp_(-clip_value, clip_value)
