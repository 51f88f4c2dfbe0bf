"""When a call may leave torch's usual route: plain eager mode on plain tensors.

Fast paths that skip the dispatcher (the C++ autograd nodes, the Triton launchers) or pick an ATen kernel by
hand (small convolutions) must not run under torch.compile / tracing, fake tensors, a dispatch mode or
functorch, nor on tensor subclasses such as DTensor, whose rules only cover the public ops.
"""
import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode

_functorch_active = torch._C._are_functorch_transforms_active

# A Parameter of a plain tensor dispatches as one (a Parameter of a tensor subclass, e.g. DTensor, has that type)
PLAIN_TENSORS = (torch.Tensor, torch.nn.Parameter)


def plain_eager(*ts):
    """True in plain eager mode when every tensor of `ts` (None allowed) is a torch.Tensor or a Parameter."""
    if torch.compiler.is_compiling() or _get_current_dispatch_mode() is not None or _functorch_active():
        return False
    for t in ts:
        if t is not None and type(t) not in PLAIN_TENSORS:
            return False
    return True
