"""paddle.optimizer.RAdam: Adam whose adaptive term is switched on (and rectified) once the variance of
the adaptive learning rate is tractable (rho_t > 5)."""
import torch

from .nadam import _check
from .optimizer import _HALF, Optimizer, _k, _om

__all__ = ["RAdam"]


class RAdam(Optimizer):
    _beta1_pow_acc_str = "beta1_pow"
    _beta2_pow_acc_str = "beta2_pow"
    _rho_acc_str = "rho"
    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1.0e-8, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        _check(learning_rate, epsilon, beta1, beta2)
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "radam"
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._multi_precision = False
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon}

    def _add_accumulators(self, target, opts):
        dtype = torch.float32 if target._t.dtype in _HALF else target._t.dtype
        self._add_accumulator(self._beta1_pow_acc_str, target, dtype=dtype, fill_value=1.0)
        self._add_accumulator(self._beta2_pow_acc_str, target, dtype=dtype, fill_value=1.0)
        self._add_accumulator(self._rho_acc_str, target, dtype=dtype, fill_value=1.0)
        self._add_accumulator(self._moment1_acc_str, target, dtype=dtype)
        self._add_accumulator(self._moment2_acc_str, target, dtype=dtype)

    def _update(self, param, target, grad, lr, opts):
        b1, b2, eps = _k(target._t, opts["beta1"], opts["beta2"], opts["epsilon"])
        b1p = self._acc(self._beta1_pow_acc_str, target)
        b2p = self._acc(self._beta2_pow_acc_str, target)
        rho = self._acc(self._rho_acc_str, target)
        m1 = self._acc(self._moment1_acc_str, target)
        m2 = self._acc(self._moment2_acc_str, target)
        b1p.mul_(b1)
        b2p.mul_(b2)
        # rho holds t * b2^t / (1 - b2^t), kept by recursion
        rho.copy_((rho * (b2 - b2p) + b2p) / (1 - b2p))
        rho_inf = _k(rho, _k(rho, 2.0 / _om(rho, b2)) - 1.0)
        rho_t = rho_inf - 2 * rho
        m1.mul_(b1).add_(grad * _om(m1, b1))
        m2.mul_(b2).add_(grad * grad * _om(m2, b2))
        m_hat = m1 / (1 - b1p)
        tractable = rho_t > 5
        safe_rho = torch.where(tractable, rho_t, torch.full_like(rho_t, 6.0))
        r = torch.sqrt((safe_rho - 4) * (safe_rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * safe_rho))
        adaptive = torch.sqrt(1 - b2p) / (torch.sqrt(m2) + eps)
        step = torch.where(tractable, m_hat * r * adaptive, m_hat)
        target._t.sub_(lr * step)
