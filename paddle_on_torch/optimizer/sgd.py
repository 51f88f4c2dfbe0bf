"""paddle.optimizer.SGD: param -= lr * grad."""
import warnings

from ..kernels import optim as _ops
from .optimizer import _HALF, Optimizer

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
        """One call of the op paddle_on_torch::sgd_step (kernels/optim.py: on the CPU ext/optim.cpp's kernel, same
        bits), or, where that kernel cannot run, on flat state (FlatPack), else the op's reference composition."""
        ps = [t._t for t in targets]
        pack = None if _ops.cpp_ready(ps[0]) else self._flat_pack((), targets)
        if pack is None:
            _ops.sgd_step(ps, grads, lrs)
            return
        lr = pack.per_param(lrs, pack.params[0].dtype)
        pack.sub_from_params(pack.cat(grads).mul_(pack.expand(lr)))
