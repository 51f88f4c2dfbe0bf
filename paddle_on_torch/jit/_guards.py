"""A torch.compile'd to_static entry with a fast path past dynamo's guards over the Layer tree.

Dynamo guards every read a compiled forward makes through a Layer (its tables, each parameter's
metadata): ~1500-4400 guard-tree lines per entry for the zoo's gpt / resnet, ~450 us per resnet call,
the whole gap to torch.compile of the torch twin.  A Layer is no nn.Module, so dynamo's own shortcut
for module trees does not apply.  Instead the Layer counts its own changes (layers.MUTATIONS), and
while that count is what it was at the last call dynamo checked in full, a call asks dynamo to
evaluate only a pruned guard tree: every guard except those below a Layer object (the Layer's own
identity / type guards stay, as do guards that ever failed, i.e. those that tell cache entries apart).
Dynamo's mechanism for that is its "differentiating guards" (the tree its `skip_guard_eval_unsafe`
stance runs); the source set is chosen here, so what is skipped is exactly what the count covers.
Measured figures: docs/jit.md.
"""
import operator

import torch
from torch._C._dynamo.guards import DictGuardManager
from torch._dynamo import eval_frame as _eval_frame
from torch._dynamo.eval_frame import _debug_get_cache_entry_list
from torch.utils._ordered_set import OrderedSet

from .. import _normalize
from .._normalize import fastpath as _fastpath
from ..nn.layer import layers as _layers

_DEFAULT_STANCE = _eval_frame._stance
_PRUNED_STANCE = _eval_frame.DynamoStance(skip_guard_eval_unsafe=True)
_NOT_RUN = object()


def _children(node):
    if isinstance(node, DictGuardManager):
        return [m for kv in node.get_key_value_managers().values() for m in kv if m is not None]
    return node.get_child_managers()


def prune_guards(entries):
    """Point every cache entry (of one code object) at its guard tree without the guards
    below Layer objects."""
    chosen = OrderedSet()

    def walk(node, under_layer):
        typ = node.get_type_of_guarded_value()
        below = under_layer or (isinstance(typ, type) and issubclass(typ, _layers.Layer))
        keep = False
        for child in _children(node):
            keep |= walk(child, below)
        if keep or not under_layer or node.fail_count() > 0:
            chosen.add(node.get_source())
            return True
        return False

    for e in entries:
        walk(e.guard_manager.root, False)
    for e in entries:  # one source set for every entry, as dynamo does with its own choice
        gm = e.guard_manager
        gm.diff_guard_sources = OrderedSet(chosen)
        gm.populate_diff_guard_manager()


def has_graph_breaks(entries):
    # dynamo goes on after a graph break in generated resume functions, whose guards are not pruned here;
    # an entry without code (dynamo keeps one for a frame it chose to run as is) tells nothing either way
    return any(n.startswith("__resume_at") for e in entries if e.code is not None for n in e.code.co_names)


def _same_entries(a, b):
    return len(a) == len(b) and all(map(operator.is_, a, b))


class CompiledEntry:
    """torch.compile(fn) called with the fast path above."""

    def __init__(self, fn, backend, fullgraph):
        from .._core.backends import compile_backend_for
        from .._core.place import current_torch_device

        self.code = fn.__code__
        # inductor only where it has code generation for the current device (a custom device may not)
        backend = compile_backend_for(current_torch_device(), backend)
        _normalize.generate_all()  # dynamo must meet the ops' generated code, not their first-call step
        self.compiled = torch.compile(fn, backend=backend, fullgraph=fullgraph)
        self.checked_at = None  # layers.MUTATIONS at the last call checked in full, or None
        # the cache entries whose guards were last pruned: a compile adds one (a recompile of the same
        # code moves no frame counter), and a new entry's guard tree must be pruned before a fast call
        self.entries = []
        self.fast_ok = True  # False once the function graph-breaks

    def __call__(self, *args, **kwargs):
        # the C++ fast path is on for eager code and off inside: the compiled code's guards read the function
        # wrappers' `_fast` globals (None when traced), and a call that may trace switches Tensor's operators too
        fast = _fastpath.functions_off()
        try:
            return self._call(args, kwargs)
        finally:
            _fastpath.functions_on(fast)

    def _call(self, args, kwargs):
        mutations = _layers.MUTATIONS[0]
        stance = _eval_frame._stance
        if mutations == self.checked_at and (stance is _DEFAULT_STANCE or stance == _DEFAULT_STANCE):
            _eval_frame._stance = _PRUNED_STANCE  # the compiled wrapper reads it on entry
            try:
                out = self.compiled(*args, **kwargs)
            except RuntimeError as e:
                # no entry passed the pruned guards: dynamo refuses to compile under this stance (before
                # running anything), so the call below checks in full and compiles as usual
                if "skip_guard_eval_unsafe" not in str(e):
                    raise
            else:
                if _layers.MUTATIONS[0] != mutations:  # the call changed the Layer tree itself
                    self.checked_at = None
                return out
            finally:
                _eval_frame._stance = stance
        with _fastpath.suspended():  # this call may trace: dynamo must meet Python code
            out = self.compiled(*args, **kwargs)
        entries = _debug_get_cache_entry_list(self.code)
        if not _same_entries(entries, self.entries):  # something was compiled: prune again
            self.entries = entries
            if self.fast_ok and has_graph_breaks(entries):
                self.fast_ok = False
            if not (self.fast_ok and entries):
                self.checked_at = None
                return out
            prune_guards(entries)
        # a call that changed the Layer tree itself (a forward assigning attributes) is never fast
        self.checked_at = mutations if self.fast_ok and _layers.MUTATIONS[0] == mutations else None
        return out
