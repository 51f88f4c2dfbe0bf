"""paddle.optimizer.Adadelta, with Paddle's learning rate applied to the update."""
import torch

from .optimizer import Optimizer, _k, _om

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    _avg_squared_grad_acc_str = "_avg_squared_grad"
    _avg_squared_update_acc_str = "_avg_squared_update"

    def __init__(self, learning_rate=0.001, epsilon=1.0e-6, rho=0.95, parameters=None, weight_decay=None,
                 grad_clip=None, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        if epsilon is None:
            raise ValueError("epsilon is not set.")
        if rho is None:
            raise ValueError("rho is not set.")
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "adadelta"
        self._multi_precision = False
        self._epsilon, self._rho = epsilon, rho
        self._default_dict = {"epsilon": epsilon, "rho": rho}

    def _add_accumulators(self, target, opts):
        self._add_accumulator(self._avg_squared_grad_acc_str, target)
        self._add_accumulator(self._avg_squared_update_acc_str, target)

    def _update(self, param, target, grad, lr, opts):
        rho, eps = _k(target._t, opts["rho"], opts["epsilon"])
        sq_grad = self._acc(self._avg_squared_grad_acc_str, target)
        sq_update = self._acc(self._avg_squared_update_acc_str, target)
        sq_grad.mul_(rho).add_(grad * grad * _om(sq_grad, rho))
        update = -torch.sqrt((sq_update + eps) / (sq_grad + eps)) * grad
        sq_update.mul_(rho).add_(update * update * _om(sq_grad, rho))
        target._t.add_(update * lr)
