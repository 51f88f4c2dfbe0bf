"""paddle.optimizer.Momentum: heavy-ball or Nesterov momentum, with L2 decay fused into the update."""
import torch

from ..regularizer import L2Decay
from ..kernels import optim as _ops
from .optimizer import Optimizer

__all__ = ["Momentum"]


def _regularization(weight_decay):
    if isinstance(weight_decay, L2Decay):
        return "l2_decay", weight_decay._coeff
    if isinstance(weight_decay, float):
        return "l2_decay", weight_decay
    return "", 0.0


class Momentum(Optimizer):
    r"""velocity = mu * velocity + (grad + l2 * param); param -= lr * velocity
    (Nesterov: param -= lr * (grad + mu * velocity)).  On GPU the gradient is first multiplied by
    rescale_grad, as Paddle's GPU kernel does (its CPU kernel ignores rescale_grad)."""

    _velocity_acc_str = "velocity"

    def __init__(self, learning_rate=0.001, momentum=0.9, parameters=None, use_nesterov=False, weight_decay=None,
                 grad_clip=None, multi_precision=False, rescale_grad=1.0, use_multi_tensor=False, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if momentum is None:
            raise ValueError("momentum is not set")
        if isinstance(weight_decay, int) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)

        def fused(reg):  # an L2 decay is done inside the momentum update, not added to the gradient
            return isinstance(reg, (L2Decay, float))

        if isinstance(parameters, list) and parameters and isinstance(parameters[0], dict):
            for group in parameters:
                decay = group["weight_decay"] if "weight_decay" in group else weight_decay
                group["regularization_method"], group["regularization_coeff"] = _regularization(decay)
                group["weight_decay"] = None if fused(decay) else decay
        super().__init__(learning_rate=learning_rate, parameters=parameters,
                         weight_decay=None if fused(weight_decay) else weight_decay, grad_clip=grad_clip, name=name)
        self.type = "momentum"
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)
        self._regularization_method, self._regularization_coeff = _regularization(weight_decay)
        self._multi_precision = multi_precision
        self._rescale_grad = rescale_grad
        self._use_multi_tensor = use_multi_tensor
        self._default_dict = {
            "momentum": momentum, "use_nesterov": use_nesterov, "rescale_grad": rescale_grad,
            "regularization_method": self._regularization_method,
            "regularization_coeff": self._regularization_coeff,
        }

    def _add_accumulators(self, target, opts):
        self._add_accumulator(self._velocity_acc_str, target)

    def _create_regularization_of_grad(self, param, grad, regularization=None):
        if isinstance(getattr(param, "regularizer", None), L2Decay):
            return grad  # fused into the update below
        return super()._create_regularization_of_grad(param, grad, regularization)

    @staticmethod
    def _l2(param, opts):
        """The L2 coefficient fused into this parameter's update (0.0 for none): its own regularizer wins."""
        reg = getattr(param, "regularizer", None)
        if isinstance(reg, L2Decay):
            return reg._coeff
        if reg is not None:
            return 0.0
        return opts["regularization_coeff"] if opts["regularization_method"] == "l2_decay" else 0.0

    def _update_group(self, params, targets, grads, lrs, opts):
        """_update over many targets of one dtype: the same operations in the same order, by one call of the op
        paddle_on_torch::momentum_step (kernels/optim.py: on the CPU ext/optim.cpp's kernel, one pass over memory),
        or, where that kernel cannot run, on flat state (FlatPack), else by the op's reference composition."""
        ps = [t._t for t in targets]
        coeffs = [self._l2(p, opts) for p in params]
        if _ops.cpp_ready(ps[0]):  # on the CPU rescale_grad is ignored, as by Paddle's CPU kernel
            _ops.momentum_step(ps, grads, self._acc_list(self._velocity_acc_str, targets), lrs, coeffs,
                               opts["momentum"], opts["use_nesterov"])
            return
        if ps[0].device.type != "cpu" and opts["rescale_grad"] != 1.0:
            grads = torch._foreach_mul(grads, opts["rescale_grad"])
        decayed = [i for i, c in enumerate(coeffs) if c]
        pack = self._flat_pack((self._velocity_acc_str,), targets)
        if pack is not None and (not decayed or len(decayed) == len(coeffs)):
            g = pack.cat(grads)
            if decayed:  # g = g + p * coeff
                g = g + pack.cat(ps).mul_(pack.expand(pack.per_param(coeffs, g.dtype)))
            velocity = pack.flat[self._velocity_acc_str]
            velocity.mul_(opts["momentum"]).add_(g)
            lr = pack.expand(pack.per_param(lrs, g.dtype))
            if opts["use_nesterov"]:
                upd = (velocity * opts["momentum"]).add_(g).mul_(lr)
            else:
                upd = velocity * lr
            pack.sub_from_params(upd)
            return
        _ops.momentum_step(ps, grads, self._acc_list(self._velocity_acc_str, targets), lrs, coeffs, opts["momentum"],
                           opts["use_nesterov"])

    def _update(self, param, target, grad, lr, opts):
        coeff = self._l2(param, opts)
        method = "l2_decay" if coeff else ""
        mu = opts["momentum"]
        p = target._t
        velocity = self._acc(self._velocity_acc_str, target)
        # Paddle's CPU kernel ignores rescale_grad; its GPU kernel scales the gradient by it
        g = grad * opts["rescale_grad"] if p.device.type != "cpu" and opts["rescale_grad"] != 1.0 else grad
        if method == "l2_decay":
            g = g + p * coeff
        velocity.mul_(mu).add_(g)
        if opts["use_nesterov"]:
            p.sub_((g + velocity * mu) * lr)
        else:
            p.sub_(velocity * lr)
