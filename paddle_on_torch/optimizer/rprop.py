"""paddle.optimizer.Rprop: per-element step sizes grown by etas[1] while the gradient keeps its sign and
shrunk by etas[0] (skipping that step) when it flips; param -= sign(grad) * step."""
import torch

from .optimizer import Optimizer

__all__ = ["Rprop"]


class Rprop(Optimizer):
    _prevs_acc_str = "prevs"
    _learning_rates_acc_str = "learning_rates"

    def __init__(self, learning_rate=0.001, learning_rate_range=(1e-5, 50), parameters=None, etas=(0.5, 1.2),
                 grad_clip=None, multi_precision=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if not 0.0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1]:
            raise ValueError("'0.0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1]' must be true")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("'0.0 < etas[0] < 1.0 < etas[1]' must be true")
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=0.0,
                         grad_clip=grad_clip, name=name)
        self.type = "rprop"
        self._initial_learning_rate = learning_rate
        self._multi_precision = multi_precision
        self._learning_rate_range = tuple(learning_rate_range)
        self._etas = tuple(etas)

    def _create_accumulators(self, params, opts):
        for p in params:
            if p.name in self._already_create_accumulator:
                continue
            target = self._create_master_weight(p) if self._uses_master(p) else p
            self._add_accumulator(self._prevs_acc_str, target, p._t.dtype, 0)
            self._add_accumulator(self._learning_rates_acc_str, target, p._t.dtype,
                                  fill_value=self._initial_learning_rate)
            self._already_create_accumulator.add(p.name)

    def _update(self, param, target, grad, lr, opts):
        prev = self._acc(self._prevs_acc_str, target)
        rates = self._acc(self._learning_rates_acc_str, target)
        lo, hi = self._learning_rate_range
        eta_neg, eta_pos = self._etas
        g = grad.to(prev.dtype)
        sign = torch.sign(prev * g)
        rates.copy_(torch.where(sign > 0, torch.clamp(rates * eta_pos, max=hi),
                                torch.where(sign < 0, torch.clamp(rates * eta_neg, min=lo), rates)))
        g = torch.where(sign < 0, torch.zeros_like(g), g)
        target._t.sub_((torch.sign(g) * rates).to(target._t.dtype))
        prev.copy_(g)
