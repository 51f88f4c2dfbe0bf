"""paddle.optimizer.Adam, with Paddle's bias correction folded into the step size and epsilon scaled by
sqrt(1 - beta2^t): param -= lr * sqrt(1-b2^t)/(1-b1^t) * m / (sqrt(v) + eps * sqrt(1-b2^t)).  The square
roots are correctly rounded on the CPU too (optimizer._sqrt), as in Paddle's kernels."""
import warnings

import torch

from .optimizer import _HALF, Optimizer, _cpu_kernels, _k, _om, _sqrt

__all__ = ["Adam"]


def _is_tensor(v):
    from ..tensor.tensor import Tensor

    return isinstance(v, Tensor)


def _scalar(v):
    return float(v.item()) if _is_tensor(v) else v


class _AdamCore:
    """Adam's accumulators and update, shared by Adam and AdamW (which Paddle keeps unrelated classes)."""

    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"
    _moment2_acc_max_str = "moment2_max"
    _beta1_pow_acc_str = "beta1_pow_acc"
    _beta2_pow_acc_str = "beta2_pow_acc"

    def _add_accumulators(self, target, opts):
        dtype = torch.float32 if target._t.dtype in _HALF else target._t.dtype
        if target._t.dtype in _HALF:
            warnings.warn("Accumulating with FP16 or BF16 in optimizer can lead to poor accuracy or slow "
                          "convergence.Consider using multi_precision=True option of the Adam optimizer.")
        self._add_accumulator(self._moment1_acc_str, target, dtype=dtype)
        self._add_accumulator(self._moment2_acc_str, target, dtype=dtype)
        if self._amsgrad:
            self._add_accumulator(self._moment2_acc_max_str, target, dtype=dtype)
        # a Tensor beta starts its power at Paddle's default
        b1 = 0.9 if _is_tensor(opts["beta1"]) else opts["beta1"]
        b2 = 0.999 if _is_tensor(opts["beta2"]) else opts["beta2"]
        self._add_accumulator(self._beta1_pow_acc_str, target, dtype=dtype, fill_value=b1, shape=[1])
        self._add_accumulator(self._beta2_pow_acc_str, target, dtype=dtype, fill_value=b2, shape=[1])

    def _adam(self, target, grad, lr, opts):
        p = target._t
        b1, b2, eps = _k(p, _scalar(opts["beta1"]), _scalar(opts["beta2"]), _scalar(opts["epsilon"]))
        m1 = self._acc(self._moment1_acc_str, target)
        m2 = self._acc(self._moment2_acc_str, target)
        b1p = self._acc(self._beta1_pow_acc_str, target)
        b2p = self._acc(self._beta2_pow_acc_str, target)
        g = grad if grad.dtype is m1.dtype else grad.to(m1.dtype)
        m1.mul_(b1).add_(g * _om(p, b1))
        m2.mul_(b2).add_(g * g * _om(p, b2))
        v = m2
        if self._amsgrad:
            vmax = self._acc(self._moment2_acc_max_str, target)
            torch.maximum(vmax, m2, out=vmax)
            v = vmax
        corr2 = _sqrt(1 - b2p)
        step = (lr * corr2 / (1 - b1p)).to(p.dtype)
        denom = _sqrt(v) + eps * corr2
        p.sub_(step * (m1 / denom).to(p.dtype))
        b1p.mul_(b1)
        b2p.mul_(b2)


    def _adam_group(self, targets, grads, lrs, opts, decays=None):
        """_adam over many targets of one dtype: the same float32 operations, in the same order, as
        _adam does for each one, run by the C++ kernel (one pass over memory), else on flat state
        (FlatPack), else with foreach ops.  The per-parameter scalars (step size, epsilon *
        sqrt(1 - beta2^t)) are computed for all the beta-power accumulators at once.  `decays`:
        AdamW's factor 1 - lr * coeff per target (1.0: none), multiplied into the target first."""
        ps = [t._t for t in targets]
        b1, b2, eps = _k(ps[0], _scalar(opts["beta1"]), _scalar(opts["beta2"]), _scalar(opts["epsilon"]))
        if self._adam_kernel(ps, targets, grads, lrs, decays, b1, b2, eps):
            return
        if decays is not None:
            decayed = [(p, f) for p, f in zip(ps, decays) if f != 1.0]
            if decayed:
                torch._foreach_mul_([p for p, _ in decayed], [f for _, f in decayed])
        kinds = (self._moment1_acc_str, self._moment2_acc_str, self._beta1_pow_acc_str, self._beta2_pow_acc_str)
        if self._amsgrad:
            kinds += (self._moment2_acc_max_str,)
        pack = self._flat_pack(kinds, targets)
        if pack is not None:
            m1, m2, pow1, pow2 = (pack.flat[k] for k in kinds[:4])
            g = pack.cat(grads)
            m1.mul_(b1).add_(g * _om(ps[0], b1))
            gg = g * g
            m2.mul_(b2).add_(gg.mul_(_om(ps[0], b2)))
            v = m2
            if self._amsgrad:
                v = pack.flat[kinds[4]]
                torch.maximum(v, m2, out=v)
            corr2 = _sqrt(1 - pow2)
            step = pack.expand(pack.per_param(lrs, pow1.dtype) * corr2 / (1 - pow1))
            denom = _sqrt(v).add_(pack.expand(eps * corr2))
            pack.sub_from_params(torch.div(m1, denom).mul_(step))
            pow1.mul_(b1)
            pow2.mul_(b2)
            return
        m1 = self._acc_list(self._moment1_acc_str, targets)
        m2 = self._acc_list(self._moment2_acc_str, targets)
        b1p = self._acc_list(self._beta1_pow_acc_str, targets)
        b2p = self._acc_list(self._beta2_pow_acc_str, targets)
        torch._foreach_mul_(m1, b1)
        torch._foreach_add_(m1, torch._foreach_mul(grads, _om(ps[0], b1)))
        torch._foreach_mul_(m2, b2)
        gg = torch._foreach_mul(grads, grads)
        torch._foreach_mul_(gg, _om(ps[0], b2))
        torch._foreach_add_(m2, gg)
        v = m2
        if self._amsgrad:
            v = self._acc_list(self._moment2_acc_max_str, targets)
            torch._foreach_maximum_(v, m2)
        pow1, pow2 = torch.cat(b1p), torch.cat(b2p)
        corr2 = _sqrt(1 - pow2)
        lr = lrs[0] if lrs.count(lrs[0]) == len(lrs) else torch.tensor(lrs, dtype=pow1.dtype)
        step = (lr * corr2 / (1 - pow1)).tolist()
        denom = [_sqrt(t) for t in v] if v[0].device.type == "cpu" else torch._foreach_sqrt(v)
        torch._foreach_add_(denom, (eps * corr2).tolist())
        upd = torch._foreach_div(m1, denom)
        torch._foreach_mul_(upd, step)
        torch._foreach_sub_(ps, upd)
        torch._foreach_mul_(b1p, b1)
        torch._foreach_mul_(b2p, b2)

    def _adam_kernel(self, ps, targets, grads, lrs, decays, b1, b2, eps):
        """The step by the C++ kernel (ext/optim.cpp); False where it cannot run
        (not CPU, no compiler, other dtypes or layouts, PADDLE_ON_TORCH_KERNELS=reference)."""
        mod = _cpu_kernels(ps[0])
        if mod is None:
            return False
        names = [t.name for t in targets]
        prefix = "" if self._name is None else self._name + "_"

        def accs(kind):
            of_kind = self._accumulators[prefix + kind]
            return [of_kind[n]._t for n in names]

        return mod.adam_step(ps, grads, accs(self._moment1_acc_str), accs(self._moment2_acc_str),
                             accs(self._moment2_acc_max_str) if self._amsgrad else [],
                             accs(self._beta1_pow_acc_str), accs(self._beta2_pow_acc_str), lrs,
                             decays if decays is not None else [1.0] * len(ps), b1, b2, _om(ps[0], b1),
                             _om(ps[0], b2), eps)


class Adam(_AdamCore, Optimizer):
    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, parameters=None,
                 weight_decay=None, grad_clip=None, lazy_mode=False, multi_precision=False, use_multi_tensor=False,
                 amsgrad=False, name=None):
        _check_betas(learning_rate, beta1, beta2, epsilon)
        super().__init__(learning_rate=learning_rate, parameters=parameters, weight_decay=weight_decay,
                         grad_clip=grad_clip, name=name)
        self.type = "adam"
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lazy_mode = lazy_mode
        self._multi_precision = multi_precision
        self._use_multi_tensor = use_multi_tensor
        self._amsgrad = amsgrad
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon, "lazy_mode": lazy_mode}

    def _update(self, param, target, grad, lr, opts):
        self._adam(target, grad, lr, opts)

    def _update_group(self, params, targets, grads, lrs, opts):
        self._adam_group(targets, grads, lrs, opts)


def _check_betas(learning_rate, beta1, beta2, epsilon):
    from ..tensor.tensor import Tensor

    assert learning_rate is not None
    assert beta1 is not None
    assert beta2 is not None
    assert epsilon is not None
    if not isinstance(beta1, Tensor) and not 0 <= beta1 < 1:
        raise ValueError("Invalid value of beta1, expect beta1 in [0,1).")
    if not isinstance(beta2, Tensor) and not 0 <= beta2 < 1:
        raise ValueError("Invalid value of beta2, expect beta2 in [0,1).")
    if not isinstance(epsilon, Tensor) and not 0 <= epsilon:
        raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
