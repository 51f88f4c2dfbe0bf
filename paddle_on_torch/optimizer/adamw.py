"""paddle.optimizer.AdamW: Adam with decoupled weight decay, param *= 1 - lr * lr_ratio * coeff, before
the Adam step (which uses lr * lr_ratio)."""

from .adam import _AdamCore, _check_betas, _is_tensor
from .optimizer import Optimizer, _k, _om

__all__ = ["AdamW"]


class AdamW(_AdamCore, Optimizer):
    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, parameters=None,
                 weight_decay=0.01, use_lowprecision_moment=False, lr_ratio=None, apply_decay_param_fun=None,
                 grad_clip=None, lazy_mode=False, multi_precision=False, amsgrad=False, name=None):
        _check_betas(learning_rate, beta1, beta2, epsilon)
        if isinstance(weight_decay, bool) or not (isinstance(weight_decay, (int, float)) or _is_tensor(weight_decay)):
            if not isinstance(weight_decay, (int, float)):
                raise TypeError("weight_decay should be int, float or Tensor.")
        if lr_ratio is not None:
            assert callable(lr_ratio)
        self._adamw_defaults = {"weight_decay": float(weight_decay), "beta1": beta1, "beta2": beta2,
                                "epsilon": epsilon, "lazy_mode": lazy_mode, "grad_clip": grad_clip}
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=None,
                         grad_clip=grad_clip, name=name)
        self.type = "adamw"
        self._apply_decay_param_fun = apply_decay_param_fun
        self._weight_decay = float(weight_decay)
        self._use_lowprecision_moment = use_lowprecision_moment
        self._lr_ratio = lr_ratio
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lazy_mode = lazy_mode
        self._multi_precision = multi_precision
        self._amsgrad = amsgrad
        self._default_dict = self._adamw_defaults
        self.regularization = None

    def _add_param_group(self, param_group):
        for k, v in self._adamw_defaults.items():  # AdamW fills groups with its own defaults
            param_group.setdefault(k, v)
        super()._add_param_group(param_group)

    def _apply_group_to_params(self, group):
        # AdamW's weight decay is its own (decoupled); only the lr factor lands on the parameters
        for p in group["params"]:
            p.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)

    def _update(self, param, target, grad, lr, opts):
        if self._lr_ratio is not None:
            lr = lr * self._lr_ratio(param)
        with_decay = self._apply_decay_param_fun is None or self._apply_decay_param_fun(param.name)
        coeff = _k(target._t, float(opts["weight_decay"]))
        if with_decay and coeff:
            target._t.mul_(_om(target._t, _k(target._t, lr * coeff)))
        self._adam(target, grad, lr, opts)

    def _update_group(self, params, targets, grads, lrs, opts):
        if self._lr_ratio is not None:
            lrs = [lr * self._lr_ratio(p) for p, lr in zip(params, lrs)]
        coeff = _k(targets[0]._t, float(opts["weight_decay"]))
        decays = None
        if coeff:
            fun = self._apply_decay_param_fun
            t0 = targets[0]._t  # one dtype per group: the same rounding for all
            factor = {lr: _om(t0, _k(t0, lr * coeff)) for lr in set(lrs)}  # usually one learning rate
            decays = [factor[lr] if fun is None or fun(p.name) else 1.0 for p, lr in zip(params, lrs)]
        self._adam_group(targets, grads, lrs, opts, decays)
