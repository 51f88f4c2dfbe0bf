"""paddle.optimizer.Adagrad: moment += g*g; param -= lr * g / (sqrt(moment) + eps)."""
import torch

from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    _moment_acc_str = "moment"

    def __init__(self, learning_rate, epsilon=1.0e-6, parameters=None, weight_decay=None, grad_clip=None, name=None,
                 initial_accumulator_value=0.0):
        assert learning_rate is not None
        assert epsilon is not None
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "adagrad"
        self._epsilon = epsilon
        self._multi_precision = False
        self.initial_accumulator_value = initial_accumulator_value
        self._default_dict = {"epsilon": epsilon, "initial_accumulator_value": initial_accumulator_value}

    def _add_accumulators(self, target, opts):
        self._add_accumulator(self._moment_acc_str, target, fill_value=opts["initial_accumulator_value"])

    def _update_group(self, params, targets, grads, lrs, opts):
        pack = self._flat_pack((self._moment_acc_str,), targets)
        if pack is None:
            return self._update_each(params, targets, grads, lrs, opts)
        g = pack.cat(grads)
        moment = pack.flat[self._moment_acc_str]
        moment.add_(g * g)
        lr = pack.expand(pack.per_param(lrs, g.dtype))
        pack.sub_from_params((lr * g).div_(torch.sqrt(moment).add_(opts["epsilon"])))

    def _update(self, param, target, grad, lr, opts):
        moment = self._acc(self._moment_acc_str, target)
        moment.add_(grad * grad)
        target._t.sub_(lr * grad / (torch.sqrt(moment) + opts["epsilon"]))
