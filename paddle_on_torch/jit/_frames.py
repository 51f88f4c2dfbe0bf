"""The shim's own code is traced when a compiled function calls it, never compiled as a frame of its own.

Torch treats its own Python code this way (torch.nn, torch.nn.functional: inlined into the caller's graph,
skipped by the frame hook), and `copy` is registered the same way.  The shim's op wrappers and Layers need
it too: when a call graph-breaks inside (ppsci's `train_forward` calls `loss.item()` deep in a Layer, and
takes `paddle.grad` of tensors from outside the compiled region), dynamo runs that call eagerly with its
frame hook on, and every frame below becomes a compile of its own.  For an op wrapper that is one op per
graph: nothing to gain, guards on every call, and a recompile per parameter shape (`linear` of a 9-layer
MLP at train and eval batch sizes, twice over once to_static moves to the eager backend) until dynamo's
recompile limit.  User code (a Layer subclass in the user's file) is still compiled after such a break.
"""
import os

import torch

_done = []


def inline_only():
    """Register the package directory as 'skip as a frame, inline when called' (once per process)."""
    if _done:
        return
    from torch._dynamo import trace_rules

    inline_when_called = getattr(trace_rules, "BUILTIN_INLINE_WHEN_CALLED", None)
    if inline_when_called is None:  # an older torch (the XLA lane's) has no such list: keep its default
        _done.append(False)
        return
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__))).replace(os.sep, "/") + "/"
    inline_when_called.add(package)
    trace_rules.SKIP_DIRS.append(package)
    trace_rules._recompile_re()
    _done.append(True)
