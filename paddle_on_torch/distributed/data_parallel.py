"""paddle.DataParallel: every rank runs the whole model on its part of the batch; after each
backward the gradients are averaged over the ranks, so one optimizer step equals the step of one
process on the whole batch (for a loss that is a mean over equal-sized per-rank batches).

Not torch DDP (a Layer is not an nn.Module): at the end of each backward through the wrapped
layer's output (an autograd engine callback queued by a hook on the output), all trainable
gradients are averaged with one all_reduce per dtype.  Averaging the accumulated `.grad` is exact
for gradient accumulation too: what was synced before is equal on all ranks, and what
accumulated under `no_sync()` is averaged with the new contribution.  A parameter with no
gradient on any rank keeps `grad None`; one used on some ranks only gets zeros from the others.
"""
import contextlib

import torch
import torch.distributed as tdist

from ..nn.layer.layers import Layer
from . import parallel as _parallel

__all__ = ["DataParallel"]


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
        self._queued = False
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

    def _on_backward(self, grad):
        if self.grad_need_sync and not self._queued:
            self._queued = True
            torch.autograd.Variable._execution_engine.queue_callback(self._allreduce_grads)
        return grad

    @torch.no_grad()
    def _allreduce_grads(self):
        self._queued = False
        params = [p for p in self._layers.parameters() if not p.stop_gradient
                  and getattr(p._t, "device_mesh", None) is None]
        by_dtype = {}
        for p in params:
            by_dtype.setdefault(p._t.dtype, []).append(p)
        n = self._nranks
        for dtype, ps in by_dtype.items():
            pieces = [(p._t.grad if p._t.grad is not None else torch.zeros_like(p._t)).reshape(-1) for p in ps]
            has = torch.tensor([p._t.grad is not None for p in ps], dtype=dtype, device=ps[0]._t.device)
            flat = torch.cat(pieces + [has])
            tdist.all_reduce(flat, group=self._pg())
            flat[:-len(ps)] /= n
            offset = 0
            for p, present in zip(ps, flat[-len(ps):].tolist()):
                size = p._t.numel()
                if present > 0:
                    g = flat[offset:offset + size].view_as(p._t)
                    if p._t.grad is None:
                        p._t.grad = g.clone()
                    else:
                        p._t.grad.copy_(g)
                offset += size

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
