"""paddle.optimizer.LBFGS: limited-memory BFGS with an optional strong-Wolfe line search.

The algorithm is torch's (torch/optim/lbfgs.py), which Paddle ported; this follows Paddle's port
step by step, computing on the torch tensors behind the parameters (one flat vector of all the
gradients, as torch does).  Scalars keep Paddle's kinds: the loss is a Python float, dot products,
`ro`, `H_diag` and the first step size are 0-D tensors of the parameters' dtype, so mixed
arithmetic rounds where Paddle's does.

Like Paddle: `weight_decay` and `grad_clip` are accepted but the step does not apply them; the
state is `state_dict()["state"]` (func_evals, n_iter, d, alpha, old_yk, old_sk, ro, H_diag,
prev_flat_grad, prev_loss, al); `set_state_dict` is the base Optimizer's, which restores no LBFGS
state (Paddle's does not either); with parameter groups only the last group is optimized.
"""
import collections
import functools

import torch

from .._normalize import is_tensor, wrap
from .optimizer import Optimizer, _tensor_type

__all__ = []


def _dot(x, y):
    return (x * y).sum(dim=-1)


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, xmin_bound), xmax_bound)
    return (xmin_bound + xmax_bound) / 2.0


def _strong_wolfe(obj_func, xk, alpha, d, loss, grad, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    d_norm = d.abs().max()
    grad = grad.clone()
    loss_new, grad_new = obj_func(xk, alpha, d)
    ls_func_evals = 1
    gtd_new = _dot(grad_new, d)

    t_prev, f_prev, g_prev, gtd_prev = (0, loss, grad, gtd)
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if loss_new > (loss + c1 * alpha * gtd) or (ls_iter > 1 and loss_new >= f_prev):
            bracket = [t_prev, alpha]
            bracket_f = [f_prev, loss_new]
            bracket_g = [g_prev, grad_new.clone()]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket = [alpha]
            bracket_f = [loss_new]
            bracket_g = [grad_new]
            done = True
            break
        if gtd_new >= 0:
            bracket = [t_prev, alpha]
            bracket_f = [f_prev, loss_new]
            bracket_g = [g_prev, grad_new.clone()]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        min_step = alpha + 0.01 * (alpha - t_prev)
        max_step = alpha * 10
        tmp = alpha
        alpha = _cubic_interpolate(t_prev, f_prev, gtd_prev, alpha, loss_new, gtd_new,
                                   bounds=(min_step, max_step))
        t_prev = tmp
        f_prev = loss_new
        g_prev = grad_new.clone()
        gtd_prev = gtd_new
        loss_new, grad_new = obj_func(xk, alpha, d)
        ls_func_evals += 1
        gtd_new = _dot(grad_new, d)
        ls_iter += 1

    if ls_iter == max_ls:
        bracket = [0, alpha]
        bracket_f = [loss, loss_new]
        bracket_g = [grad, grad_new]

    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        alpha = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0],
                                   bracket[1], bracket_f[1], bracket_gtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - alpha, alpha - min(bracket)) < eps:
            if insuf_progress or alpha >= max(bracket) or alpha <= min(bracket):
                if abs(alpha - max(bracket)) < abs(alpha - min(bracket)):
                    alpha = max(bracket) - eps
                else:
                    alpha = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        loss_new, grad_new = obj_func(xk, alpha, d)
        ls_func_evals += 1
        gtd_new = _dot(grad_new, d)
        ls_iter += 1

        if loss_new > (loss + c1 * alpha * gtd) or loss_new >= bracket_f[low_pos]:
            bracket[high_pos] = alpha
            bracket_f[high_pos] = loss_new
            bracket_g[high_pos] = grad_new.clone()
            bracket_gtd[high_pos] = gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos] = bracket[low_pos]
                bracket_f[high_pos] = bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos] = alpha
            bracket_f[low_pos] = loss_new
            bracket_g[low_pos] = grad_new.clone()
            bracket_gtd[low_pos] = gtd_new

    alpha = bracket[low_pos]
    loss_new = bracket_f[low_pos]
    grad_new = bracket_g[low_pos]
    return loss_new, grad_new, alpha, ls_func_evals


def _wrap_state(v):
    if isinstance(v, torch.Tensor):
        return wrap(v)
    if isinstance(v, list):
        return [_wrap_state(x) for x in v]
    return v


class LBFGS(Optimizer):
    """L-BFGS: call `step(closure)`, where `closure` clears the gradients, computes the loss, calls
    `backward()` and returns the loss."""

    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None, parameters=None, weight_decay=None, grad_clip=None,
                 name=None):
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_eval = max_eval
        self.tolerance_grad = tolerance_grad
        self.tolerance_change = tolerance_change
        self.history_size = history_size
        self.line_search_fn = line_search_fn
        if isinstance(parameters, _tensor_type()):
            raise TypeError("parameters argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {type(parameters)}")
        self.state = collections.defaultdict(dict)
        super().__init__(learning_rate=1.0, parameters=parameters, weight_decay=weight_decay, grad_clip=grad_clip,
                         name=name)
        if not isinstance(self._parameter_list[0], dict):  # IndexError on an empty list, as in Paddle
            self._params = self._parameter_list
        else:
            for group in self._param_groups:  # Paddle keeps only the last group's parameters
                self._params = group["params"]
        self._numel_cache = None

    def state_dict(self):
        return {"state": {k: _wrap_state(v) for k, v in self.state.items()}}

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = functools.reduce(lambda total, p: total + p._t.numel(), self._params, 0)
        return self._numel_cache

    def _gather_flat_grad(self):
        views = []
        for p in self._params:
            g = p._t.grad
            views.append(torch.zeros_like(p._t).reshape(-1) if g is None else g.reshape(-1))
        return torch.cat(views, dim=0)

    def _add_grad(self, alpha, direction):
        offset = 0
        for p in self._params:
            t = p._t
            numel = t.numel()
            t.copy_(t + direction[offset:offset + numel].reshape(t.shape) * alpha)
            offset += numel
        assert offset == self._numel()

    def _clone_param(self):
        return [p._t.clone() for p in self._params]

    def _set_param(self, params_data):
        for p, pdata in zip(self._params, params_data):
            p._t.copy_(pdata)

    def _directional_evaluate(self, closure, x, alpha, d):
        self._add_grad(alpha, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    def step(self, closure):
        with torch.no_grad():
            def closure_with_grad(_closure=closure):
                with torch.enable_grad():
                    return _closure()

            closure = closure_with_grad
            learning_rate = self.learning_rate
            max_iter = self.max_iter
            max_eval = self.max_eval
            tolerance_grad = self.tolerance_grad
            tolerance_change = self.tolerance_change
            line_search_fn = self.line_search_fn
            history_size = self.history_size
            state = self.state
            state.setdefault("func_evals", 0)
            state.setdefault("n_iter", 0)

            orig_loss = closure()
            loss = float(orig_loss)
            current_evals = 1
            state["func_evals"] += 1

            flat_grad = self._gather_flat_grad()
            opt_cond = flat_grad.abs().max() <= tolerance_grad
            if opt_cond:
                return orig_loss

            d = state.get("d")
            alpha = state.get("alpha")
            old_yk = state.get("old_yk")
            old_sk = state.get("old_sk")
            ro = state.get("ro")
            H_diag = state.get("H_diag")
            prev_flat_grad = state.get("prev_flat_grad")
            prev_loss = state.get("prev_loss")

            n_iter = 0
            while n_iter < max_iter:
                n_iter += 1
                state["n_iter"] += 1

                if state["n_iter"] == 1:
                    d = flat_grad.neg()
                    old_yk = []
                    old_sk = []
                    ro = []
                    loss_dtype = orig_loss._t.dtype if is_tensor(orig_loss) else flat_grad.dtype
                    H_diag = torch.tensor(1.0, dtype=loss_dtype, device=flat_grad.device)
                else:
                    y = flat_grad - prev_flat_grad
                    if isinstance(alpha, torch.Tensor):
                        s = d * alpha.to(d.dtype)
                    else:
                        s = d * torch.tensor(alpha, dtype=d.dtype, device=d.device)
                    ys = _dot(y, s)
                    if ys > 1e-10:
                        if len(old_yk) == history_size:
                            old_yk.pop(0)
                            old_sk.pop(0)
                            ro.pop(0)
                        old_yk.append(y)
                        old_sk.append(s)
                        ro.append(1.0 / ys)
                        H_diag = ys / _dot(y, y)

                    num_old = len(old_yk)
                    if "al" not in state:
                        state["al"] = [None] * history_size
                    al = state["al"]

                    q = flat_grad.neg()
                    for i in range(num_old - 1, -1, -1):
                        al[i] = _dot(old_sk[i], q) * ro[i]
                        q.copy_(q + old_yk[i] * (-al[i]))
                    d = r = q * H_diag
                    for i in range(num_old):
                        be_i = _dot(old_yk[i], r) * ro[i]
                        r.copy_(r + old_sk[i] * (al[i] - be_i))

                if prev_flat_grad is None:
                    prev_flat_grad = flat_grad.clone()
                else:
                    prev_flat_grad.copy_(flat_grad)
                prev_loss = loss

                if state["n_iter"] == 1:
                    alpha = min(1.0, 1.0 / flat_grad.abs().sum()) * learning_rate
                else:
                    alpha = learning_rate

                gtd = _dot(flat_grad, d)
                if gtd > -tolerance_change:
                    break

                ls_func_evals = 0
                if line_search_fn is not None:
                    if line_search_fn != "strong_wolfe":
                        raise RuntimeError("only 'strong_wolfe' is supported")
                    x_init = self._clone_param()

                    def obj_func(x, alpha, d):
                        return self._directional_evaluate(closure, x, alpha, d)

                    loss, flat_grad, alpha, ls_func_evals = _strong_wolfe(obj_func, x_init, alpha, d, loss,
                                                                          flat_grad, gtd)
                    self._add_grad(alpha, d)
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                else:
                    self._add_grad(alpha, d)
                    if n_iter != max_iter:
                        loss = float(closure())
                        flat_grad = self._gather_flat_grad()
                        opt_cond = flat_grad.abs().max() <= tolerance_grad
                        ls_func_evals = 1

                current_evals += ls_func_evals
                state["func_evals"] += ls_func_evals

                if opt_cond:
                    break
                if (d * alpha).abs().max() <= tolerance_change:
                    break
                if abs(loss - prev_loss) < tolerance_change:
                    break
                if current_evals >= max_eval:
                    break
                if n_iter == max_iter:
                    break

            state["d"] = d
            state["alpha"] = alpha
            state["old_yk"] = old_yk
            state["old_sk"] = old_sk
            state["ro"] = ro
            state["H_diag"] = H_diag
            state["prev_flat_grad"] = prev_flat_grad
            state["prev_loss"] = prev_loss
        return orig_loss

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        raise NotImplementedError("LBFGS optimizer does not use this way to minimize loss. Please refer 'Examples' "
                                  "of LBFGS() for usage.")
