"""paddle.regularizer: L1Decay and L2Decay, the weight-decay terms an optimizer adds to gradients."""
import torch

from . import _report
from ._normalize import wrap

__all__ = ["L1Decay", "L2Decay", "WeightDecayRegularizer"]


class WeightDecayRegularizer:
    """Base class: `regularizer(param, grad, block)` returns the term added to `grad`."""

    def __call__(self, param, grad, block=None):
        raise NotImplementedError

    def __str__(self):
        raise NotImplementedError

    def _term(self, p):  # torch in, torch out: the fast path optimizers use
        raise NotImplementedError


class L1Decay(WeightDecayRegularizer):
    """Adds `coeff * sign(param)` to the gradient."""

    def __init__(self, coeff=0.0):
        assert coeff is not None
        self._coeff = coeff

    def __call__(self, param, grad, block=None):
        return wrap(self._term(param._t.detach()))

    def _term(self, p):
        return torch.sign(p) * self._coeff

    def __str__(self):
        return f"L1Decay, coeff={self._coeff:f}"


class L2Decay(WeightDecayRegularizer):
    """Adds `coeff * param` to the gradient."""

    def __init__(self, coeff=0.0):
        assert coeff is not None
        self._coeff = coeff

    def __call__(self, param, grad, block=None):
        return wrap(self._term(param._t.detach()))

    def _term(self, p):
        return p * self._coeff

    def __str__(self):
        return f"L2Decay, coeff={self._coeff:f}"


__getattr__ = _report.module_getattr("paddle.regularizer")
