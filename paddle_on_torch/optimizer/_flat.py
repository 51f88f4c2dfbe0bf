"""Flat optimizer state: the accumulators of many parameters in one contiguous buffer per kind.

On CPU a torch._foreach_* op is still one kernel per tensor, and for the small parameters of most
models the per-kernel cost is the step's cost.  A FlatPack moves each kind of accumulator (moment1,
velocity, beta1_pow_acc, ...) of a bucket of parameters into one buffer and makes every
accumulator Tensor's `_t` a view of its slice, so state_dict, set_value and paddle.save see the
same Tensors as before while an update runs each elementwise op once over the buffer.  Elementwise
float ops give the same bits on a slice of a buffer as on a tensor of their own, so the result is
that of the per-parameter update.  The parameters themselves stay where they are; the update is
written back through flat views of them.  A pack is rebuilt (copying the current values) whenever a
parameter's or accumulator's tensor is no longer the one it was built on.
"""
import operator

import torch

__all__ = ["FlatPack"]


class FlatPack:
    def __init__(self, accs, params):
        """accs: accumulator name -> list of accumulator Tensors (one per parameter, same order as
        params); params: the torch tensors the update writes (contiguous, one dtype)."""
        self.params = list(params)
        self.pviews = [p.view(-1) for p in self.params]
        self.sizes = [v.numel() for v in self.pviews]
        self.total = sum(self.sizes)
        self.sizes_t = torch.tensor(self.sizes, device=self.params[0].device)
        self.flat, self.views = {}, {}
        for name, vars_ in accs.items():
            ts = [a._t for a in vars_]
            flat = torch.cat([t.reshape(-1) for t in ts])
            views = [v.view(t.shape) for v, t in zip(flat.split([t.numel() for t in ts]), ts)]
            for a, v in zip(vars_, views):
                a._t = v
            self.flat[name], self.views[name] = flat, views

    def valid(self, accs, params):
        if len(params) != len(self.params) or not all(map(operator.is_, params, self.params)):
            return False
        for name, vars_ in accs.items():
            if not all(map(operator.is_, [a._t for a in vars_], self.views[name])):
                return False
        return True

    def expand(self, per_param):
        """A [n_params] tensor (or Python number) repeated over each parameter's elements."""
        if not isinstance(per_param, torch.Tensor):
            return per_param
        if per_param.device.type == "cpu":
            # usually every parameter has the same value (the beta powers advance together): then one
            # number, which an elementwise op casts to the same float the tensor would hold; on the CPU
            # reading it costs ~2 us where repeat_interleave over every element costs ~100s of us
            values = per_param.tolist()
            if values.count(values[0]) == len(values):
                return values[0]
        return per_param.repeat_interleave(self.sizes_t, output_size=self.total)

    def per_param(self, values, dtype):
        """Per-parameter Python numbers as one number when they are all equal, else an [n_params] tensor."""
        if values.count(values[0]) == len(values):
            return values[0]
        return torch.tensor(values, dtype=dtype, device=self.params[0].device)

    @staticmethod
    def cat(tensors):
        return torch.cat([t.reshape(-1) for t in tensors])

    def sub_from_params(self, upd):
        torch._foreach_sub_(self.pviews, upd.split(self.sizes))
