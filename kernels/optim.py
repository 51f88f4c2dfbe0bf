"""The multi-tensor optimizer steps: the torch ops `paddle_on_torch::adam_step` / `momentum_step` / `sgd_step`, behind
paddle.optimizer.Adam / AdamW, Momentum and SGD's multi-tensor step (optimizer/adam.py, momentum.py, sgd.py).

    adam_step(params!, grads, moment1!, moment2!, moment2_max! ([] without amsgrad), beta1_pow!, beta2_pow!,
              lrs, decays, beta1, beta2, one_minus_beta1, one_minus_beta2, epsilon) -> ()
        per parameter, in the order of Adam._adam: p *= decay (AdamW, 1.0: none); m1 = m1*b1 + g*(1-b1);
        m2 = m2*b2 + (g*g)*(1-b2); v = max(m2_max, m2) with amsgrad, else m2;
        p -= lr*sqrt(1-b2^t)/(1-b1^t) * (m1 / (sqrt(v) + eps*sqrt(1-b2^t))); beta1_pow *= b1; beta2_pow *= b2
    momentum_step(params!, grads, velocity!, lrs, l2, mu, nesterov) -> ()
        g = g + p*l2 (0.0: none); v = v*mu + g; p -= v*lr (Nesterov: p -= (g + v*mu)*lr)
    sgd_step(params!, grads, lrs) -> ()
        p -= g*lr

The lists hold one tensor per parameter (beta pows: [1]), all of one dtype; `lrs`, `decays`, `l2`: one number per
parameter; `!`: updated in place.  Each float is taken in the parameters' dtype, as Paddle's kernels do (the
callers round the betas; `one_minus_*` is 1 - beta computed in that dtype).  Not differentiable: every Autograd key
falls through to the device's kernel, which writes under no_grad (an optimizer step).

Here: the schemas, the fakes and the reference composition in torch foreach ops (the kernel of every device without
one of its own, and what a step runs without the C++ build or under PADDLE_ON_TORCH_KERNELS=reference).  The CPU
kernels are ext/optim.cpp's (one pass over memory per parameter, the same bits), registered with TORCH_LIBRARY_IMPL
when the extension loads; `cpp_ready` says whether a step on a tensor reaches them.
"""
import numpy as np
import torch

from . import dispatch

_lib = torch.library.Library("paddle_on_torch", "FRAGMENT")  # noqa: TOR901  (kept alive: it holds the schemas)

SCHEMAS = {
    "adam_step": "adam_step(Tensor(a!)[] params, Tensor[] grads, Tensor(b!)[] moment1, Tensor(c!)[] moment2, "
                 "Tensor(d!)[] moment2_max, Tensor(e!)[] beta1_pow, Tensor(f!)[] beta2_pow, float[] lrs, "
                 "float[] decays, float beta1, float beta2, float one_minus_beta1, float one_minus_beta2, "
                 "float epsilon) -> ()",
    "momentum_step": "momentum_step(Tensor(a!)[] params, Tensor[] grads, Tensor(b!)[] velocity, float[] lrs, "
                     "float[] l2, float mu, bool nesterov) -> ()",
    "sgd_step": "sgd_step(Tensor(a!)[] params, Tensor[] grads, float[] lrs) -> ()",
}


def sqrt_rounded(t):
    """Correctly rounded square root, as Paddle's CPU kernels take it (the sqrt instruction).  torch's CPU
    sqrt calls MKL's vector sqrt (VML_HA), which on some CPUs is one ulp off for a good part of the inputs
    (~16% of float32 and ~1% of float64 ones on the AMD EPYC this was settled on), so the optimizer's
    result would depend on the CPU; NumPy's sqrt is the instruction, and as fast."""
    if type(t) is not torch.Tensor or t.device.type != "cpu" or t.dtype not in (torch.float32, torch.float64):
        return torch.sqrt(t)  # CUDA's sqrt is correctly rounded
    out = torch.empty_like(t)
    np.sqrt(t.numpy(), out=out.numpy())
    return out


@torch.no_grad()
def adam_step_reference(params, grads, moment1, moment2, moment2_max, beta1_pow, beta2_pow, lrs, decays, beta1,
                        beta2, one_minus_beta1, one_minus_beta2, epsilon):
    if not params:
        return
    decayed = [(p, f) for p, f in zip(params, decays) if f != 1.0]
    if decayed:
        torch._foreach_mul_([p for p, _ in decayed], [f for _, f in decayed])
    torch._foreach_mul_(moment1, beta1)
    torch._foreach_add_(moment1, torch._foreach_mul(grads, one_minus_beta1))
    torch._foreach_mul_(moment2, beta2)
    gg = torch._foreach_mul(grads, grads)
    torch._foreach_mul_(gg, one_minus_beta2)
    torch._foreach_add_(moment2, gg)
    v = moment2
    if moment2_max:
        torch._foreach_maximum_(moment2_max, moment2)
        v = moment2_max
    pow1, pow2 = torch.cat(beta1_pow), torch.cat(beta2_pow)
    corr2 = sqrt_rounded(1 - pow2)
    lr = lrs[0] if lrs.count(lrs[0]) == len(lrs) else torch.tensor(lrs, dtype=pow1.dtype, device=pow1.device)
    step = (lr * corr2 / (1 - pow1)).tolist()
    denom = [sqrt_rounded(t) for t in v] if v[0].device.type == "cpu" else torch._foreach_sqrt(v)
    torch._foreach_add_(denom, (epsilon * corr2).tolist())
    upd = torch._foreach_div(moment1, denom)
    torch._foreach_mul_(upd, step)
    torch._foreach_sub_(params, upd)
    torch._foreach_mul_(beta1_pow, beta1)
    torch._foreach_mul_(beta2_pow, beta2)


@torch.no_grad()
def momentum_step_reference(params, grads, velocity, lrs, l2, mu, nesterov):
    if not params:
        return
    decayed = [i for i, c in enumerate(l2) if c]
    if decayed:  # g = g + p * l2 where a parameter has L2 decay
        terms = torch._foreach_mul([params[i] for i in decayed], [l2[i] for i in decayed])
        summed = torch._foreach_add([grads[i] for i in decayed], terms)
        grads = list(grads)
        for i, g in zip(decayed, summed):
            grads[i] = g
    torch._foreach_mul_(velocity, mu)
    torch._foreach_add_(velocity, grads)
    if nesterov:
        upd = torch._foreach_mul(velocity, mu)
        torch._foreach_add_(upd, grads)
        torch._foreach_mul_(upd, lrs)
    else:
        upd = torch._foreach_mul(velocity, lrs)
    torch._foreach_sub_(params, upd)


@torch.no_grad()
def sgd_step_reference(params, grads, lrs):
    if params:
        torch._foreach_sub_(params, torch._foreach_mul(grads, lrs))


REFERENCES = {"adam_step": adam_step_reference, "momentum_step": momentum_step_reference,
              "sgd_step": sgd_step_reference}


def _fake(*args):
    return None  # the tensors are updated in place: nothing to allocate


for _name, _schema in SCHEMAS.items():
    _lib.define(_schema)
    _lib.impl(_name, REFERENCES[_name], "CompositeExplicitAutograd")  # any device without its own kernel
    _lib.impl(_name, torch.library.fallthrough_kernel, "Autograd")  # not differentiable: straight to the kernel
    torch.library.register_fake(f"paddle_on_torch::{_name}", _fake, lib=_lib)
    dispatch.register(f"paddle_on_torch::{_name}", REFERENCES[_name], cuda=REFERENCES[_name])

adam_step = torch.ops.paddle_on_torch.adam_step.default
momentum_step = torch.ops.paddle_on_torch.momentum_step.default
sgd_step = torch.ops.paddle_on_torch.sgd_step.default


def cpp_ready(t):
    """Whether a step whose first tensor is `t` runs ext/optim.cpp's kernel: a CPU tensor, the C++ extension loaded
    (built on first use; None: no compiler) and no other backend forced (PADDLE_ON_TORCH_KERNELS=reference)."""
    return t.device.type == "cpu" and dispatch.forced() in (None, "cpp") and dispatch.load_cpp() is not None


__all__ = ["adam_step", "momentum_step", "sgd_step", "adam_step_reference", "momentum_step_reference",
           "sgd_step_reference", "sqrt_rounded", "cpp_ready"]
