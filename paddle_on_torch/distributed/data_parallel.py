"""paddle.DataParallel: every rank runs the whole model on its part of the batch; after each
backward the gradients are averaged over the ranks, so one optimizer step equals the step of one
process on the whole batch (for a loss that is a mean over equal-sized per-rank batches).

Not torch DDP (a Layer is not an nn.Module), but its scheme: the trainable parameters are split into buckets
of about `comm_buffer_size` MB (the first `last_comm_buffer_size` MB), in reverse order at first, since
gradients become ready from the last layer back; after the first synced backward the buckets follow the order
in which rank 0 saw the gradients become ready (parameters without one last), as DDP rebuilds its buckets.  In a synced backward (one through
the wrapped layer's output, outside `no_sync()`), a parameter's post-accumulate-grad hook marks it ready, and a
bucket whose parameters are all ready starts an asynchronous all_reduce of its gradients while the backward goes
on (in bucket order, so every rank issues the same sequence).  At the end of the backward (an autograd engine
callback), the buckets not started yet -- parameters without a gradient on this rank -- start too, and each
bucket's average is written back.  Averaging the accumulated `.grad` is exact for gradient accumulation too:
what was synced before is equal on all ranks, and what accumulated under `no_sync()` is averaged with the new
contribution.  Each bucket also sums a presence flag per parameter: one with no gradient on any rank keeps
`grad None`; one used on some ranks only gets zeros from the others.
"""
import contextlib
import weakref

import torch
import torch.distributed as tdist

from ..nn.layer.layers import Layer
from . import parallel as _parallel

__all__ = ["DataParallel"]


class _Bucket:
    __slots__ = ("params", "ready", "flat", "work")

    def __init__(self, params):
        self.params, self.ready, self.flat, self.work = params, 0, None, None


class DataParallel(Layer):
    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None):
        if not isinstance(layers, Layer):
            raise TypeError("The data type of 'layers' in DataParallel must be Layer, but received "
                            f"{type(layers).__name__}")
        super().__init__(layers.full_name() + "_data_parallel")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.group = group
        self.grad_need_sync = True
        self._buffer_bytes = (int(last_comm_buffer_size * 2 ** 20), int(comm_buffer_size * 2 ** 20))
        self._buckets = []  # of the current parameter set, rebuilt when it changes
        self._bucket_of = {}  # id(torch tensor) -> (tensor, bucket, index in self._tensors)
        self._tensors = []  # the trainable parameters' torch tensors, in parameters() order
        self._seen = []  # indices of the tensors whose gradients became ready, in order (this backward)
        self._reordered = False  # the buckets follow the readiness order of a first synced backward
        self._hooked = {}  # id(torch tensor) -> weakref of it, for the tensors that carry our hook
        self._armed = False  # inside a synced backward
        self._next = 0  # the next bucket to start
        self._nranks = group.nranks if group is not None else _parallel.get_world_size()
        if self._nranks > 1:
            _parallel._ensure_pg()
            self._sync_params_buffers()

    def _pg(self):
        return self.group.process_group if self.group is not None else None

    def _src(self):
        return self.group.ranks[0] if self.group is not None else 0

    @torch.no_grad()
    def _sync_params_buffers(self):
        """Every rank starts from rank 0's parameters and buffers (Paddle's sync_params_buffers)."""
        for t in [p._t for p in self._layers.parameters()] + [b._t for b in self._layers.buffers()]:
            if getattr(t, "device_mesh", None) is not None:
                continue
            data = t.detach()
            tdist.broadcast(data, self._src(), group=self._pg())

    def forward(self, *inputs, **kwargs):
        outputs = self._layers(*inputs, **kwargs)
        if self._nranks > 1 and self.training and torch.is_grad_enabled():
            for out in _tensors(outputs):
                if out._t.requires_grad:
                    out._t.register_hook(self._on_backward)
        return outputs

    # ---------------------------------------------------------------- buckets

    def _trainable(self):
        return [p._t for p in self._layers.parameters() if not p.stop_gradient
                and getattr(p._t, "device_mesh", None) is None]

    def _rebuild_buckets(self, order):
        """Buckets over self._tensors in `order` (indices), one dtype and device each, the first capped at the
        last buffer size and the others at comm_buffer_size (Paddle's arguments, in MB)."""
        self._buckets, self._bucket_of = [], {}
        current, size, key = [], 0, None
        for t in [self._tensors[i] for i in order]:
            cap = self._buffer_bytes[bool(self._buckets)]
            if current and ((t.dtype, t.device) != key or size + t.numel() * t.element_size() > cap):
                self._buckets.append(_Bucket(current))
                current, size = [], 0
            current.append(t)
            size += t.numel() * t.element_size()
            key = (t.dtype, t.device)
        if current:
            self._buckets.append(_Bucket(current))
        index = {id(t): i for i, t in enumerate(self._tensors)}
        for b in self._buckets:
            for t in b.params:
                self._bucket_of[id(t)] = (t, b, index[id(t)])
                ref = self._hooked.get(id(t))
                if (ref is None or ref() is not t) and t.is_leaf:
                    t.register_post_accumulate_grad_hook(self._on_grad_ready)
                    self._hooked[id(t)] = weakref.ref(t)

    def _on_backward(self, grad):
        if self.grad_need_sync and not self._armed:
            tensors = self._trainable()
            if len(tensors) != len(self._tensors) or any(a is not b for a, b in zip(tensors, self._tensors)):
                self._tensors, self._reordered = tensors, False
                self._rebuild_buckets(range(len(tensors) - 1, -1, -1))
            for b in self._buckets:
                b.ready, b.flat, b.work = 0, None, None
            self._armed, self._next, self._seen = True, 0, []
            torch.autograd.Variable._execution_engine.queue_callback(self._finish)
        return grad

    def _on_grad_ready(self, t):
        entry = self._bucket_of.get(id(t)) if self._armed else None
        if entry is None or entry[0] is not t:
            return
        entry[1].ready += 1
        self._seen.append(entry[2])
        buckets = self._buckets
        while self._next < len(buckets) and buckets[self._next].ready == len(buckets[self._next].params):
            self._start(buckets[self._next])  # in bucket order: every rank issues the same sequence
            self._next += 1

    @torch.no_grad()
    def _start(self, b):
        grads = [t.grad.reshape(-1) if t.grad is not None else torch.zeros(t.numel(), dtype=t.dtype, device=t.device)
                 for t in b.params]
        present = torch.tensor([t.grad is not None for t in b.params], dtype=b.params[0].dtype,
                               device=b.params[0].device)
        b.flat = torch.cat(grads + [present])
        b.work = tdist.all_reduce(b.flat, group=self._pg(), async_op=True)

    @torch.no_grad()
    def _finish(self):
        self._armed = False
        for b in self._buckets[self._next:]:
            self._start(b)
        n = self._nranks
        for b in self._buckets:
            b.work.wait()
            k = len(b.params)
            values, present = b.flat[:-k].div_(n), b.flat[-k:].tolist()
            offset = 0
            for t, here in zip(b.params, present):
                size = t.numel()
                if here > 0:
                    g = values[offset:offset + size].view_as(t)
                    if t.grad is None:
                        t.grad = g.clone()
                    else:
                        t.grad.copy_(g)
                offset += size
            b.flat = b.work = None
        if not self._reordered:
            self._reorder()

    def _reorder(self):
        """Buckets in the order rank 0 saw the gradients become ready (broadcast: the layout must be the same on
        every rank), parameters that got none last."""
        seen = set(self._seen)
        order = [self._seen + [i for i in range(len(self._tensors) - 1, -1, -1) if i not in seen]]
        tdist.broadcast_object_list(order, src=self._src(), group=self._pg())
        self._rebuild_buckets(order[0])
        self._reordered = True

    @contextlib.contextmanager
    def no_sync(self):
        """Gradients of backward passes inside accumulate locally; the next synced backward averages them."""
        old, self.grad_need_sync = self.grad_need_sync, False
        try:
            yield
        finally:
            self.grad_need_sync = old

    def scale_loss(self, loss):
        """Deprecated in Paddle: returns the loss unchanged."""
        return loss

    def apply_collective_grads(self):
        """Deprecated in Paddle: gradients are already averaged during backward."""

    def state_dict(self, *args, **kwargs):
        return self._layers.state_dict(*args, **kwargs)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict


def _tensors(obj):
    from ..tensor.tensor import Tensor

    if isinstance(obj, Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            yield from _tensors(o)
    elif isinstance(obj, dict):
        for o in obj.values():
            yield from _tensors(o)
