"""paddle.optimizer.RMSProp (optionally centered, with momentum)."""
import torch

from .optimizer import Optimizer, _k, _om

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    _momentum_acc_str = "momentum"
    _mean_square_acc_str = "mean_square"
    _mean_grad_acc_str = "mean_grad"

    def __init__(self, learning_rate, rho=0.95, epsilon=1.0e-6, momentum=0.0, centered=False, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        if rho is None:
            raise ValueError("rho is not set.")
        if epsilon is None:
            raise ValueError("epsilon is not set.")
        if momentum is None:
            raise ValueError("momentum is not set.")
        if not 0.0 <= epsilon:
            raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
        if not 0.0 <= momentum:
            raise ValueError("Invalid value of momentum, expect momentum >= 0.")
        if not 0.0 <= rho:
            raise ValueError("Invalid value of rho, expect rho >= 0.")
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "rmsprop"
        self._rho, self._epsilon, self._momentum, self._centered = rho, epsilon, momentum, centered
        self._multi_precision = False
        self._default_dict = {"rho": rho, "epsilon": epsilon, "momentum": momentum, "centered": centered}

    def _add_accumulators(self, target, opts):
        self._add_accumulator(self._momentum_acc_str, target)
        self._add_accumulator(self._mean_square_acc_str, target)
        self._add_accumulator(self._mean_grad_acc_str, target)

    def _update_group(self, params, targets, grads, lrs, opts):
        kinds = (self._momentum_acc_str, self._mean_square_acc_str, self._mean_grad_acc_str)
        pack = self._flat_pack(kinds, targets)
        if pack is None:
            return self._update_each(params, targets, grads, lrs, opts)
        t0 = pack.params[0]
        rho, eps, mu = _k(t0, opts["rho"], opts["epsilon"], opts["momentum"])
        mom, ms, mg = (pack.flat[k] for k in kinds)
        g = pack.cat(grads)
        ms.mul_(rho).add_((g * g).mul_(_om(t0, rho)))
        if opts["centered"]:
            mg.mul_(rho).add_(g * _om(t0, rho))
            denom = torch.sqrt((ms - mg * mg).add_(eps))
        else:
            denom = torch.sqrt(ms + eps)
        lr = pack.expand(pack.per_param(lrs, g.dtype))
        mom.mul_(mu).add_((lr * g).div_(denom))
        pack.sub_from_params(mom)

    def _update(self, param, target, grad, lr, opts):
        rho, eps, mu = _k(target._t, opts["rho"], opts["epsilon"], opts["momentum"])
        mom = self._acc(self._momentum_acc_str, target)
        ms = self._acc(self._mean_square_acc_str, target)
        ms.mul_(rho).add_(grad * grad * _om(ms, rho))
        if opts["centered"]:
            mg = self._acc(self._mean_grad_acc_str, target)
            mg.mul_(rho).add_(grad * _om(mg, rho))
            denom = torch.sqrt(ms - mg * mg + eps)
        else:
            denom = torch.sqrt(ms + eps)
        mom.mul_(mu).add_(lr * grad / denom)
        target._t.sub_(mom)
