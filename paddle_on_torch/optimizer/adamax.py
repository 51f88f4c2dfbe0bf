"""paddle.optimizer.Adamax: m = b1*m + (1-b1)*g; u = max(b2*u + eps, |g|); param -= lr/(1-b1^t) * m/u."""
import torch

from .adam import _check_betas
from .optimizer import _HALF, Optimizer, _k, _om

__all__ = ["Adamax"]


class Adamax(Optimizer):
    _moment_acc_str = "moment"
    _inf_norm_acc_str = "inf_norm"
    _beta1_pow_acc_str = "beta1_pow_acc"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        _check_betas(learning_rate, beta1, beta2, epsilon)
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "adamax"
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._multi_precision = False
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon}

    def _add_accumulators(self, target, opts):
        dtype = torch.float32 if target._t.dtype in _HALF else target._t.dtype
        self._add_accumulator(self._moment_acc_str, target, dtype=dtype)
        self._add_accumulator(self._inf_norm_acc_str, target, dtype=dtype)
        b1 = opts["beta1"]
        self._add_accumulator(self._beta1_pow_acc_str, target, fill_value=_k(target._t, b1), shape=[1])

    def _update(self, param, target, grad, lr, opts):
        p = target._t
        b1, b2, eps = _k(p, opts["beta1"], opts["beta2"], opts["epsilon"])
        m = self._acc(self._moment_acc_str, target)
        u = self._acc(self._inf_norm_acc_str, target)
        b1p = self._acc(self._beta1_pow_acc_str, target)
        m.mul_(b1).add_(grad * _om(p, b1))
        torch.maximum(u * b2 + eps, grad.abs(), out=u)
        p.sub_((lr / (1 - b1p)) * (m / u))

    def _finish_update(self, params_grads, opts):
        for p, g in params_grads:
            if g is None or p.stop_gradient:
                continue
            b1p = self._acc(self._beta1_pow_acc_str, self._target(p))
            b1p.mul_(_k(b1p, opts["beta1"]))
