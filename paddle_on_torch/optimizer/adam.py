"""paddle.optimizer.Adam, with Paddle's bias correction folded into the step size and epsilon scaled by
sqrt(1 - beta2^t): param -= lr * sqrt(1-b2^t)/(1-b1^t) * m / (sqrt(v) + eps * sqrt(1-b2^t)).  The square
roots are correctly rounded on the CPU too (kernels/optim.py's sqrt_rounded), as in Paddle's kernels."""
import warnings

import torch

from ..kernels import optim as _ops
from ..kernels.optim import sqrt_rounded as _sqrt
from .optimizer import _HALF, Optimizer, _k, _om, _tensor_type

__all__ = ["Adam"]


def _is_tensor(v):
    return isinstance(v, _tensor_type())  # (cached: this runs for each option at every step)


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
        _adam does for each one, by one call of the op paddle_on_torch::adam_step (kernels/optim.py: on the
        CPU ext/optim.cpp's kernel, one pass over memory), or, where that kernel cannot run (no compiler,
        PADDLE_ON_TORCH_KERNELS=reference), on flat state (FlatPack), else by the op's reference composition
        (foreach ops).  `decays`: AdamW's factor 1 - lr * coeff per target (1.0: none), multiplied into the
        target first."""
        ps = [t._t for t in targets]
        b1, b2, eps = _k(ps[0], _scalar(opts["beta1"]), _scalar(opts["beta2"]), _scalar(opts["epsilon"]))
        kinds = (self._moment1_acc_str, self._moment2_acc_str, self._beta1_pow_acc_str, self._beta2_pow_acc_str)
        if self._amsgrad:
            kinds += (self._moment2_acc_max_str,)
        if not _ops.cpp_ready(ps[0]):
            pack = self._flat_pack(kinds, targets)
            if pack is not None:
                self._adam_flat(pack, kinds, ps, grads, lrs, decays, b1, b2, eps)
                return
        accs = self._acc_lists(kinds, targets)
        _ops.adam_step(ps, grads, accs[0], accs[1], accs[4] if self._amsgrad else [], accs[2], accs[3], lrs,
                       decays if decays is not None else [1.0] * len(ps), b1, b2, _om(ps[0], b1), _om(ps[0], b2),
                       eps)

    def _adam_flat(self, pack, kinds, ps, grads, lrs, decays, b1, b2, eps):
        if decays is not None:
            decayed = [(p, f) for p, f in zip(ps, decays) if f != 1.0]
            if decayed:
                torch._foreach_mul_([p for p, _ in decayed], [f for _, f in decayed])
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
