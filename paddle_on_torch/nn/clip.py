"""Gradient clipping strategies (paddle.nn.ClipGradByValue / ClipGradByNorm / ClipGradByGlobalNorm).

A strategy is called with a list of (param, grad) pairs of paddle Tensors and returns the clipped
pairs, as Paddle's dynamic mode does: pairs whose grad is None are dropped, parameters with
`need_clip=False` pass through unchanged, and ClipGradByGlobalNorm scales the gradients in place
(so `param.grad` shows the clipped values afterwards, as in Paddle).
"""
import torch

from .. import _report
from .._normalize import wrap

__all__ = ["ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm"]


def global_norm_scale(squared_sum, clip_norm, auto_skip_clip=False, epsilon=0.0):
    """The factor every global-norm clip multiplies the gradients by: clip_norm / (max(norm, clip_norm) + epsilon)
    with norm = sqrt(squared_sum), or None where auto_skip_clip leaves gradients within clip_norm alone.  Used by
    ClipGradByGlobalNorm, fleet's HybridParallelClipGrad and shard_optimizer's clip, which differ only in how
    they sum the squares (and Paddle's hybrid clip adds epsilon 1e-6)."""
    norm = torch.sqrt(squared_sum)
    max_norm = torch.full_like(norm, clip_norm)
    if auto_skip_clip and not bool(norm > max_norm):
        return None
    return max_norm / (torch.maximum(norm, max_norm) + epsilon)


def scale_grads_(grads, scale):
    """Multiply gradients in place by a global-norm scale: dense tensors one foreach kernel per device and dtype,
    others (a DTensor, whose pieces all scale alike) by the number."""
    dense = {}
    for t in grads:
        if type(t) is torch.Tensor:
            dense.setdefault((t.device, t.dtype), []).append(t)
        else:
            t.mul_(scale.to(t.dtype).item())
    for (device, dtype), ts in dense.items():
        torch._foreach_mul_(ts, scale.to(device, dtype).reshape(()))


class ClipGradBase:
    def __str__(self):
        raise NotImplementedError

    def __call__(self, params_grads):
        with torch.no_grad():
            return self._dygraph_clip(params_grads)

    def _dygraph_clip(self, params_grads):
        raise NotImplementedError


GradientClipBase = ClipGradBase


class ClipGradByValue(ClipGradBase):
    """Clip every gradient element into [min, max] (min defaults to -max)."""

    def __init__(self, max, min=None):
        if min is None:
            assert max > 0.0
            min = -max
        self.max, self.min = float(max), float(min)

    def __str__(self):
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"

    def _dygraph_clip(self, params_grads):
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if getattr(p, "need_clip", True) is False:
                out.append((p, g))
                continue
            out.append((p, wrap(torch.clamp(g._t, self.min, self.max))))
        return out


class ClipGradByNorm(ClipGradBase):
    """Scale each gradient whose L2 norm exceeds clip_norm down to norm clip_norm."""

    def __init__(self, clip_norm):
        self.clip_norm = float(clip_norm)

    def __str__(self):
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"

    def _dygraph_clip(self, params_grads):
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if getattr(p, "need_clip", True) is False:
                out.append((p, g))
                continue
            t = g._t
            norm = torch.linalg.vector_norm(t.float() if t.dtype in (torch.float16, torch.bfloat16) else t)
            scale = torch.where(norm > self.clip_norm, self.clip_norm / norm, torch.ones_like(norm))
            out.append((p, wrap(t * scale.to(t.dtype))))
        return out


class ClipGradByGlobalNorm(ClipGradBase):
    """Scale all gradients by clip_norm / max(global_norm, clip_norm), global_norm over all of them."""

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        assert isinstance(auto_skip_clip, bool)
        self.auto_skip_clip = auto_skip_clip
        self.should_comm_on_shard_dim = False

    def __str__(self):
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"

    def _dygraph_clip(self, params_grads):
        sums = {"half": [], "float32": [], "float64": []}
        plain = {torch.float32: [], torch.float64: []}  # norms by one foreach kernel per dtype
        for p, g in params_grads:
            if g is None or getattr(p, "need_clip", True) is False:
                continue
            t = g._t
            if type(t) is torch.Tensor and t.dtype in plain:
                plain[t.dtype].append(t)
                continue
            kind = "half" if t.dtype in (torch.float16, torch.bfloat16) else \
                "float32" if t.dtype == torch.float32 else "float64"
            # Paddle's squared_l2_norm accumulates in float32 for half types and returns the grad's dtype
            sq = torch.sum(torch.square(t.float() if kind == "half" else t))
            sums[kind].append(sq.to(t.dtype) if kind == "half" else sq)
        for dt, ts in plain.items():
            if ts:
                sums["float32" if dt == torch.float32 else "float64"].append(
                    torch.stack(torch._foreach_norm(ts)).square().sum())
        if not any(sums.values()):
            return params_grads
        sum_dtype = torch.float64 if sums["float64"] else torch.float32
        parts = [torch.stack(v).sum().to(sum_dtype) for v in sums.values() if v]
        clip_var = global_norm_scale(torch.stack(parts).sum().reshape([1]), self.clip_norm, self.auto_skip_clip)
        out, scaled = [], []
        for p, g in params_grads:
            if g is None:
                continue
            if clip_var is not None and getattr(p, "need_clip", True) is not False:
                if g._t.dim() == 0:  # a new gradient of shape [1], as Paddle's 0-D grad times its [1] scale
                    g = wrap(g._t * clip_var.to(g._t.dtype))
                else:
                    scaled.append(g._t)
            out.append((p, g))
        if scaled:
            scale_grads_(scaled, clip_var)
        return out


# Paddle's older names for the same classes
GradientClipByValue, GradientClipByNorm, GradientClipByGlobalNorm = ClipGradByValue, ClipGradByNorm, \
    ClipGradByGlobalNorm


def _squared_l2_norm(x):
    """sum(x ** 2) as a [1] Tensor of x's dtype (Paddle's squared_l2_norm op; half types accumulate in float32,
    where Paddle's CPU build has no kernel for them)."""
    t = x._t
    half = t.dtype in (torch.float16, torch.bfloat16)
    sq = torch.sum(torch.square(t.float() if half else t)).reshape(1)
    return wrap(sq.to(t.dtype) if half else sq)


_NO_SELECTED_ROWS = ": SelectedRows (Paddle's sparse row gradients) do not exist on torch; every gradient is dense"
merge_selected_rows = _report.unsupported_function("paddle.nn.clip.merge_selected_rows", _NO_SELECTED_ROWS)
get_tensor_from_selected_rows = _report.unsupported_function("paddle.nn.clip.get_tensor_from_selected_rows",
                                                             _NO_SELECTED_ROWS)
