"""paddle.optimizer.Lamb: Adam's direction plus weight decay, scaled by the trust ratio ||w|| / ||r||."""
import torch

from .adam import _check_betas
from .optimizer import _HALF, Optimizer, _k, _om

__all__ = ["Lamb"]


class Lamb(Optimizer):
    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"
    _beta1_pow_acc_str = "beta1_pow_acc"
    _beta2_pow_acc_str = "beta2_pow_acc"

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999, epsilon=1e-6,
                 parameters=None, grad_clip=None, exclude_from_weight_decay_fn=None, multi_precision=False,
                 always_adapt=False, name=None):
        _check_betas(learning_rate, beta1, beta2, epsilon)
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=None,
                         grad_clip=grad_clip, name=name)
        self.type = "lamb"
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lamb_weight_decay = lamb_weight_decay
        self._exclude_from_weight_decay_fn = exclude_from_weight_decay_fn
        self._multi_precision = multi_precision
        self.always_adapt = always_adapt
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon,
                              "lamb_weight_decay": lamb_weight_decay,
                              "exclude_from_weight_decay_fn": exclude_from_weight_decay_fn}

    def _add_accumulators(self, target, opts):
        dtype = torch.float32 if target._t.dtype in _HALF else target._t.dtype
        self._add_accumulator(self._moment1_acc_str, target, dtype=dtype)
        self._add_accumulator(self._moment2_acc_str, target, dtype=dtype)
        b1, b2 = _k(target._t, opts["beta1"], opts["beta2"])
        self._add_accumulator(self._beta1_pow_acc_str, target, dtype=dtype, fill_value=b1, shape=[1])
        self._add_accumulator(self._beta2_pow_acc_str, target, dtype=dtype, fill_value=b2, shape=[1])

    def _update(self, param, target, grad, lr, opts):
        b1, b2, eps = _k(target._t, opts["beta1"], opts["beta2"], opts["epsilon"])
        exclude = opts["exclude_from_weight_decay_fn"]
        wd = 0.0 if exclude is not None and exclude(param) else opts["lamb_weight_decay"]
        p = target._t
        m1 = self._acc(self._moment1_acc_str, target)
        m2 = self._acc(self._moment2_acc_str, target)
        b1p = self._acc(self._beta1_pow_acc_str, target)
        b2p = self._acc(self._beta2_pow_acc_str, target)
        m1.mul_(b1).add_(grad * _om(p, b1))
        m2.mul_(b2).add_(grad * grad * _om(p, b2))
        r = (m1 / (1 - b1p)) / (torch.sqrt(m2 / (1 - b2p)) + eps) + wd * p
        w_norm = torch.linalg.vector_norm(p)
        r_norm = torch.linalg.vector_norm(r)
        if wd > 0 or self.always_adapt:
            ratio = torch.where((w_norm > 0) & (r_norm > 0), w_norm / r_norm, torch.ones_like(w_norm))
        else:
            ratio = torch.ones_like(w_norm)
        p.sub_(r * (ratio * lr))
        b1p.mul_(b1)
        b2p.mul_(b2)
