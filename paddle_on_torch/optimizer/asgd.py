"""paddle.optimizer.ASGD: SGD with the gradient averaged over the last `batch_num` steps
(d = d - y[i] + g; y[i] = g; param -= lr / min(m, batch_num) * d)."""
import warnings

import torch

from .optimizer import _HALF, Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    _d_acc_str = "d"
    _y_acc_str = "y"
    _m_acc_str = "m"

    def __init__(self, learning_rate=0.001, batch_num=1, parameters=None, weight_decay=None, grad_clip=None,
                 multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate should not be none")
        if batch_num is None:
            raise ValueError("batch_num should not be none")
        if not 0 < batch_num:
            raise ValueError("batch_num should be greater than 0")
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "asgd"
        self._multi_precision = multi_precision
        self._n = batch_num

    def _create_accumulators(self, params, opts):
        for p in params:
            if p.name in self._already_create_accumulator:
                continue
            if p._t.dtype in _HALF and not self._multi_precision:
                warnings.warn("Accumulating with FP16/BF16 in optimizer can lead to poor accuracy or slow "
                              "convergence.Consider using multi_precision=True option of the Adam optimizer.")
            target = self._create_master_weight(p) if self._uses_master(p) else p
            # the accumulators keep the parameter's dtype even beside a float32 master weight
            pdtype = p._t.dtype
            self._add_accumulator(self._d_acc_str, target, pdtype, 0)
            self._add_accumulator(self._y_acc_str, target, pdtype, 0, [self._n, *p._t.shape])
            self._add_accumulator(self._m_acc_str, target, torch.int64, 0, [1])
            self._already_create_accumulator.add(p.name)

    def _update(self, param, target, grad, lr, opts):
        d = self._acc(self._d_acc_str, target)
        ys = self._acc(self._y_acc_str, target)
        m = self._acc(self._m_acc_str, target)
        index = int(m.item()) % self._n
        m.add_(1)
        n = min(int(m.item()), self._n)
        y = ys[index]
        d.add_((grad - y).to(d.dtype))
        y.copy_(grad)
        target._t.sub_((lr / n) * d.to(target._t.dtype))
