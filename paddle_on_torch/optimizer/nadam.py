"""paddle.optimizer.NAdam: Adam with Nesterov momentum and the momentum-decay schedule
mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))."""
import torch

from .optimizer import _HALF, Optimizer, _k, _om

__all__ = ["NAdam"]


def _check(learning_rate, epsilon, beta1, beta2):
    if isinstance(learning_rate, (float, int)) and not 0.0 <= learning_rate:
        raise ValueError(f"Invalid learning rate: {learning_rate}")
    if not 0.0 <= epsilon:
        raise ValueError(f"Invalid epsilon value: {epsilon}")
    if not 0.0 <= beta1 < 1.0:
        raise ValueError(f"Invalid beta1 value: {beta1}")
    if not 0.0 <= beta2 < 1.0:
        raise ValueError(f"Invalid beta2 value: {beta2}")


class NAdam(Optimizer):
    _momentum_decay_pow_acc_str = "momentum_decay_pow"
    _beta2_pow_acc_str = "beta2_pow"
    _mu_product_acc_str = "mu_product"
    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, epsilon=1.0e-8, momentum_decay=0.004,
                 parameters=None, weight_decay=None, grad_clip=None, name=None):
        _check(learning_rate, epsilon, beta1, beta2)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "nadam"
        self._beta1, self._beta2, self._epsilon, self._momentum_decay = beta1, beta2, epsilon, momentum_decay
        self._multi_precision = False
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon, "momentum_decay": momentum_decay}

    def _add_accumulators(self, target, opts):
        dtype = torch.float32 if target._t.dtype in _HALF else target._t.dtype
        self._add_accumulator(self._momentum_decay_pow_acc_str, target, dtype=dtype, fill_value=1.0)
        self._add_accumulator(self._beta2_pow_acc_str, target, dtype=dtype, fill_value=1.0)
        self._add_accumulator(self._mu_product_acc_str, target, dtype=dtype, fill_value=1.0)
        self._add_accumulator(self._moment1_acc_str, target, dtype=dtype)
        self._add_accumulator(self._moment2_acc_str, target, dtype=dtype)

    def _update(self, param, target, grad, lr, opts):
        b1, b2, eps, psi = _k(target._t, opts["beta1"], opts["beta2"], opts["epsilon"], opts["momentum_decay"])
        decay_pow = self._acc(self._momentum_decay_pow_acc_str, target)
        b2p = self._acc(self._beta2_pow_acc_str, target)
        mu_prod = self._acc(self._mu_product_acc_str, target)
        m1 = self._acc(self._moment1_acc_str, target)
        m2 = self._acc(self._moment2_acc_str, target)
        decay_pow.mul_(0.96)
        b2p.mul_(b2)
        mu_t = b1 * (1 - 0.5 * torch.pow(decay_pow, psi))
        mu_next = b1 * (1 - 0.5 * torch.pow(decay_pow * 0.96, psi))
        mu_prod.mul_(mu_t)
        m1.mul_(b1).add_(grad * _om(m1, b1))
        m2.mul_(b2).add_(grad * grad * _om(m2, b2))
        m_hat = mu_next * m1 / (1 - mu_prod * mu_next) + (1 - mu_t) * grad / (1 - mu_prod)
        v_hat = m2 / (1 - b2p)
        target._t.sub_(lr * m_hat / (torch.sqrt(v_hat) + eps))
