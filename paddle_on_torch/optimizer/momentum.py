"""paddle.optimizer.Momentum: heavy-ball or Nesterov momentum, with L2 decay fused into the update."""
from ..regularizer import L2Decay
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

    def _update(self, param, target, grad, lr, opts):
        method, coeff = opts["regularization_method"], opts["regularization_coeff"]
        reg = getattr(param, "regularizer", None)
        if isinstance(reg, L2Decay):
            method, coeff = "l2_decay", reg._coeff
        elif reg is not None:
            method, coeff = "", 0.0
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
