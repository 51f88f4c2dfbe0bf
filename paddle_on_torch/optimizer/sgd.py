"""paddle.optimizer.SGD: param -= lr * grad."""
import warnings

import torch

from .optimizer import _HALF, Optimizer, _cpu_kernels

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, learning_rate=0.001, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "sgd"
        self._multi_precision = multi_precision

    def _create_accumulators(self, params, opts):
        for p in params:
            if p.name in self._already_create_accumulator:
                continue
            if self._uses_master(p):
                self._create_master_weight(p)
                self._already_create_accumulator.add(p.name)
            elif p._t.dtype in _HALF:
                warnings.warn("Accumulating with FP16/BF16 in optimizer can lead to poor accuracy or slow "
                              "convergence.Consider using multi_precision=True option of the Adam optimizer.")

    def _update(self, param, target, grad, lr, opts):
        target._t.sub_(grad * lr)

    def _update_group(self, params, targets, grads, lrs, opts):
        ps = [t._t for t in targets]
        mod = _cpu_kernels(ps[0])  # the C++ kernel (ext/optim_cpu.py): one call, same bits
        if mod is not None and mod.sgd_step(ps, grads, lrs):
            return
        pack = self._flat_pack((), targets)
        if pack is None:
            torch._foreach_sub_([t._t for t in targets], torch._foreach_mul(grads, lrs))
            return
        lr = pack.per_param(lrs, pack.params[0].dtype)
        pack.sub_from_params(pack.cat(grads).mul_(pack.expand(lr)))
