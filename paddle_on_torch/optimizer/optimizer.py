"""paddle.optimizer.Optimizer: the machinery every Paddle optimizer shares.

Paddle's dynamic-mode step, in order: collect (param, grad) pairs of trainable parameters that
have a gradient; clip them (`grad_clip`); add the regularization term (a parameter's own
ParamAttr regularizer wins over the optimizer's `weight_decay`); create the per-parameter
accumulators on first use (named `<param name>_<acc>_<n>` by the name generator, which is what
state_dict() shows); then run the update rule of each parameter with the learning rate times the
parameter's ParamAttr learning-rate factor.  With `multi_precision`, float16/bfloat16 parameters
are updated through a float32 master copy.

Subclasses give `_create_accumulators` and `_update(param, target, grad, lr, opts)`: `target` is
the torch tensor to update in place (the master weight or the parameter's own tensor), `grad`
its gradient as a torch tensor of the target's dtype, `lr` a Python float, `opts` the options
of the parameter's group.  Everything runs under torch.no_grad.
"""
import collections
import functools
import logging

import numpy as np
import torch

from .._normalize import wrap
from ..base import framework as _fw
from ..framework import unique_name
from ..regularizer import L2Decay, WeightDecayRegularizer
from ._flat import FlatPack
from .lr import LambdaDecay, LRScheduler

__all__ = ["Optimizer"]

_HALF = (torch.float16, torch.bfloat16)
_FLOATS = (torch.float32, torch.float64)
_PLAIN = (torch.Tensor, torch.nn.Parameter)  # not DTensor and other subclasses


@functools.lru_cache(maxsize=512)
def _round32(v):
    return float(np.float32(v))


@functools.lru_cache(maxsize=512)
def _one_minus32(v):
    return float(np.float32(1) - np.float32(v))


def _k(t, *vals):
    """Paddle's kernels hold their float attributes (betas, epsilon, ...) in the compute type: float32
    unless the parameter is float64.  Rounding them the same way keeps the updates bit-close.
    (The roundings are cached: this runs for every parameter at every step.)"""
    tensor = _tensor_type()
    vals = tuple(float(v.item()) if isinstance(v, tensor) else v for v in vals)  # Tensor betas
    if t.dtype == torch.float64:
        return vals if len(vals) > 1 else vals[0]
    out = tuple(_round32(v) for v in vals)
    return out if len(out) > 1 else out[0]


def _om(t, v):
    """1 - v, computed in the compute type as Paddle's kernels do (1 - 0.999f is not 0.001f)."""
    if t.dtype == torch.float64:
        return 1.0 - v
    return _one_minus32(v)


def _accumulator_like(t, shape, fill_value, dtype):
    """An accumulator of the tensor subclass `t` (a distributed parameter: a DTensor).  As in Paddle's
    auto-parallel dygraph, the state of a dist parameter is a dist tensor on its mesh: of the parameter's
    shape, with its placements (each rank holds the state of its own piece, and the update runs on local
    pieces with no communication); of another shape (the [1] beta powers), replicated."""
    from torch.distributed.tensor import DTensor, Replicate

    if not isinstance(t, DTensor):
        return torch.full(shape, fill_value, dtype=dtype, device=t.device)
    if list(t.shape) == list(shape):
        return torch.full_like(t, fill_value, dtype=dtype)
    local = torch.full(shape, fill_value, dtype=dtype, device=t.to_local().device)
    return DTensor.from_local(local, t.device_mesh, [Replicate()] * t.device_mesh.ndim, run_check=False)


@functools.lru_cache(maxsize=None)
def _tensor_type():
    from ..tensor.tensor import Tensor

    return Tensor


class Optimizer:
    """Base class of the Paddle optimizers (use a subclass such as Adam)."""

    def __init__(self, learning_rate, parameters=None, weight_decay=None, grad_clip=None, name=None):
        Tensor = _tensor_type()
        if parameters is not None:
            if isinstance(parameters, Tensor):
                raise TypeError("`parameters` argument given to the optimizer should be an iterable of paddle "
                                f"Tensors, but got argument type is `{type(parameters)}`.")
            if isinstance(parameters, dict):
                raise TypeError("`parameters` argument should not get dict type, if parameter groups is needed, "
                                "please set `parameters` as list of dict")
            self._parameter_list = list(parameters)
        else:
            self._parameter_list = None
        self._name = name
        if self._parameter_list is None and _fw._static is None:  # static mode takes the program's
            raise AttributeError("parameters argument given to the Optimizer should not be None in dygraph mode.")
        if weight_decay is not None and self._parameter_list and not isinstance(self._parameter_list[0], dict):
            if any(getattr(p, "regularizer", None) is not None for p in self._parameter_list):
                logging.info("If regularizer of a Parameter has been set by 'paddle.ParamAttr' or "
                             "'static.WeightNormParamAttr' already. The weight_decay[%s] in Optimizer will not take "
                             "effect, and it will only be applied to other Parameters!", weight_decay)
        if not isinstance(learning_rate, (float, LRScheduler)):
            raise TypeError(f"learning rate should be float or LRScheduler, got {type(learning_rate)} here")
        if grad_clip is not None:
            from ..nn.clip import ClipGradBase

            if not isinstance(grad_clip, ClipGradBase):
                raise TypeError("'grad_clip' should be an instance of GradientClipBase's derived class")
        if isinstance(weight_decay, bool):
            self.regularization = weight_decay
        elif isinstance(weight_decay, (int, float)):
            self.regularization = L2Decay(float(weight_decay))
        else:
            self.regularization = weight_decay
        self._grad_clip = grad_clip
        self._learning_rate = learning_rate
        self._dtype = None
        if self._parameter_list:
            first = self._parameter_list[0]
            if isinstance(first, dict):
                for group in self._parameter_list:
                    assert "params" in group, ("params should be set in parameters if parameter groups are "
                                               "optimized in different options")
                first = self._parameter_list[0]["params"][0]
            self._dtype = first.dtype
        self._accumulators = collections.defaultdict(dict)  # acc name -> {param name: Tensor}
        self._accumulators_holder = {}  # a loaded state dict waiting for its accumulators to be created
        self._opti_name_list = []
        self._master_weights = {}
        self._multi_precision = False
        self._already_create_accumulator = set()
        self._auxiliary_vars = {}
        self.clear_gradients = self.clear_grad
        self._default_dict = {"weight_decay": self.regularization, "grad_clip": self._grad_clip}
        self._param_groups = []
        if self._parameter_list and isinstance(self._parameter_list[0], dict):
            for group in self._parameter_list:
                self._add_param_group(group.copy())
        else:
            self._param_groups = self._parameter_list

    # ------------------------------------------------------------ parameter groups
    def _add_param_group(self, param_group):
        from ..nn.layer.layers import Parameter

        params = param_group["params"]
        if isinstance(params, Parameter):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters should be in ordered collections,but received set, please use "
                            "list instead.")
        else:
            param_group["params"] = list(params)
        for k, v in self._default_dict.items():
            param_group.setdefault(k, v)
        seen = set()
        for group in self._param_groups:
            seen.update(id(p) for p in group["params"])
        if any(id(p) in seen for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self._apply_group_to_params(param_group)
        self._param_groups.append(param_group)

    def _apply_group_to_params(self, group):
        # Paddle records a group's weight decay and lr factor on the parameters themselves
        for p in group["params"]:
            wd = group["weight_decay"]
            p.regularizer = L2Decay(wd) if isinstance(wd, float) else wd
            p.optimize_attr["learning_rate"] = group.get("learning_rate", 1.0)

    def _group_opts(self, group):
        if group is None:
            return self._default_dict
        return {**self._default_dict, **{k: v for k, v in group.items() if k != "params"}}

    # ------------------------------------------------------------ learning rate
    def get_lr(self):
        if isinstance(self._learning_rate, float):
            return self._learning_rate
        return self._learning_rate()

    def set_lr(self, value):
        if not isinstance(value, (int, float)):
            raise TypeError(f"The type of 'value' in optimizer.set_lr must be float, but received {type(value)}.")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("optimizer's learning rate can't be LRScheduler when invoke this API, because this "
                               "will lead to conflict.")
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler):
        if not isinstance(scheduler, LRScheduler):
            raise TypeError("The type of 'scheduler' in optimizer.set_lr_scheduler must be LRScheduler, but "
                            f"received {type(scheduler)}.")
        self._learning_rate = scheduler

    def _lr_float32(self):
        """Paddle keeps the learning rate in a tensor of the parameters' dtype (float32 for half types)."""
        return self._dtype is None or str(self._dtype) not in ("paddle.float64",)

    def _param_lr(self, param, global_lr):
        factor = 1.0
        attr = getattr(param, "optimize_attr", None)
        if attr is not None and "learning_rate" in attr:
            factor = attr["learning_rate"]
        if self._lr_float32():
            lr = np.float32(global_lr)
            return float(lr if factor == 1.0 else lr * np.float32(factor))
        return global_lr if factor == 1.0 else global_lr * factor

    # ------------------------------------------------------------ accumulators
    def _add_accumulator(self, name, param, dtype=None, fill_value=0.0, shape=None):
        if self._name is not None:
            name = self._name + "_" + name
        accs = self._accumulators[name]
        if param.name in accs:
            return accs[param.name]
        t = param._t
        tdtype = t.dtype if dtype is None else dtype
        tshape = list(t.shape) if shape is None else list(shape)
        var_name = unique_name.generate(param.name + "_" + name)
        self._opti_name_list.append(var_name)
        if type(t) is torch.Tensor or type(t) is torch.nn.Parameter:
            var = wrap(torch.full(tshape, float(fill_value), dtype=tdtype, device=t.device))
        else:
            var = wrap(_accumulator_like(t, tshape, float(fill_value), tdtype))
        var.name = var_name
        var.persistable = True
        if self._accumulators_holder:
            if var_name not in self._accumulators_holder:
                raise AssertionError(f"Optimizer set error, {var_name} should in state dict")
            var.set_value(self._accumulators_holder.pop(var_name))
        accs[param.name] = var
        return var

    def _get_accumulator(self, name, param):
        if self._name is not None:
            name = self._name + "_" + name
        try:
            return self._accumulators[name][param.name]
        except KeyError:
            raise Exception(f"Accumulator {name} does not exist for parameter {param.name}") from None

    def _create_master_weight(self, param):
        if param.name in self._master_weights:
            return self._master_weights[param.name]
        var = wrap(param._t.detach().to(torch.float32))
        var.name = unique_name.generate(param.name + "_fp32_master")
        var.persistable = True
        self._master_weights[param.name] = var
        return var

    def _uses_master(self, param):
        return self._multi_precision and param._t.dtype in _HALF

    def _target(self, param):
        """The Tensor an update writes: the float32 master weight, or the parameter itself."""
        return self._master_weights[param.name] if self._uses_master(param) else param

    def _create_accumulators(self, params, opts):
        for p in params:
            if p.name in self._already_create_accumulator:
                continue
            target = self._create_master_weight(p) if self._uses_master(p) else p
            self._add_accumulators(target, opts)
            self._already_create_accumulator.add(p.name)

    def _add_accumulators(self, target, opts):
        pass

    def _acc(self, name, target):
        return self._get_accumulator(name, target)._t

    # ------------------------------------------------------------ the step
    def _params_grads(self, params):
        out = []
        for p in params:
            g = p._t.grad
            if g is not None and not p.stop_gradient:  # the gradient first: stop_gradient is two properties
                if hasattr(g, "device_mesh") and not hasattr(p._t, "device_mesh"):
                    from ..distributed.auto_parallel.api import replicate_for_grad

                    replicate_for_grad(p)  # a dense parameter with a distributed gradient (as Paddle)
                out.append((p, wrap(g)))
        return out

    @torch.no_grad()
    def step(self):
        if not self._param_groups or not isinstance(self._param_groups[0], dict):
            self._apply_optimize(self._params_grads(self._param_groups or []), None, trainable=True)
        else:
            for group in self._param_groups:
                self._apply_optimize(self._params_grads(group["params"]), group, trainable=True)

    def _apply_optimize(self, params_grads, group, trainable=False):
        """`trainable`: no parameter of params_grads stops gradients (step()'s _params_grads checked)."""
        clip = self._grad_clip if group is None else group.get("grad_clip")
        if clip is not None:
            params_grads = clip(params_grads)
        params_grads = self.append_regularization_ops(params_grads, self.regularization)
        opts = self._group_opts(group)
        if not trainable:
            params_grads = [(p, g) for p, g in params_grads if not p.stop_gradient]
        self._create_accumulators([p for p, _ in params_grads], opts)
        global_lr = float(self.get_lr())
        live = [(p, g) for p, g in params_grads if g is not None]
        if not (self._foreach and self._update_many(live, global_lr, opts)):
            for p, g in live:
                self._update_one(p, g, self._param_lr(p, global_lr), opts)
        self._finish_update(params_grads, opts)

    def _update_one(self, p, g, lr, opts):
        if self._uses_master(p):
            master = self._master_weights[p.name]
            self._update(p, master, g._t.to(torch.float32), lr, opts)
            p._t.copy_(master._t)
        else:
            self._update(p, p, g._t, lr, opts)

    # ------------------------------------------------------------ multi-tensor step
    # The step of all parameters at once, with torch._foreach_* ops (one C++ loop per op instead of a
    # Python loop over parameters).  A subclass opts in with `_update_group`; the foreach ops run the
    # same float32 operations in the same order as `_update`, so both paths give identical bits
    # (tests/test_optimizer_fast.py).  `_foreach = False` on an instance forces the per-parameter loop.
    _foreach = True
    _update_group = None  # (params, targets, grads, lrs, opts): Tensor/torch lists of one dtype

    def _update_many(self, live, global_lr, opts):
        """Run `_update_group` per dtype of the update targets; False when this optimizer has no
        multi-tensor path or the step needs the per-parameter one (duplicates, mixed-dtype targets)."""
        if self._update_group is None or not live:
            return False
        params = [p for p, _ in live]
        if len(set(map(id, params))) != len(params):
            return False  # a parameter listed twice is updated twice, in order
        lrs = self._param_lrs(params, global_lr)
        grads = [g._t for _, g in live]
        dtype = grads[0].dtype
        if dtype in _FLOATS and all(type(p._t) in _PLAIN and p._t.dtype is dtype and g.dtype is dtype
                                    for p, g in zip(params, grads)):
            # the usual step (one float32/float64 dtype, plain tensors, no master weights): one bucket
            self._update_group(params, params, grads, lrs, opts)
            return True
        buckets = {}
        masters = []
        for (p, g), lr in zip(live, lrs):
            t = p._t
            if type(t) is not torch.nn.Parameter and type(t) is not torch.Tensor:
                return False  # DTensor and other subclasses: the per-parameter path
            if self._multi_precision and t.dtype in _HALF:
                target = self._master_weights[p.name]
                masters.append((t, target))
                grad = g._t.to(torch.float32)
            else:
                target, grad = p, g._t
                if t.dtype in _HALF:
                    return False  # half accumulators of a half parameter: the per-parameter path casts
            b = buckets.setdefault(target._t.dtype, ([], [], [], []))
            b[0].append(p)
            b[1].append(target)
            b[2].append(grad if grad.dtype == target._t.dtype else grad.to(target._t.dtype))
            b[3].append(lr)
        for ps, targets, grads, lrs in buckets.values():
            self._update_group(ps, targets, grads, lrs, opts)
        if masters:
            torch._foreach_copy_([t for t, _ in masters], [m._t for _, m in masters])
        return True

    def _param_lrs(self, params, global_lr):
        """_param_lr of each parameter, with the float32 rounding done once."""
        f32 = self._lr_float32()
        lr = float(np.float32(global_lr)) if f32 else global_lr
        out = []
        for p in params:
            attr = getattr(p, "optimize_attr", None)
            factor = attr.get("learning_rate", 1.0) if attr is not None else 1.0
            if factor == 1.0:
                out.append(lr)
            else:
                out.append(float(np.float32(lr) * np.float32(factor)) if f32 else global_lr * factor)
        return out

    def _flat_pack(self, kinds, targets):
        """The FlatPack of these targets' accumulators `kinds` (built on first use, rebuilt when stale),
        or None where the targets cannot be viewed flat."""
        ps = [t._t for t in targets]
        accs = {k: self._acc_var_list(k, targets) for k in kinds}
        key = (kinds, tuple(t.name for t in targets))
        packs = self.__dict__.setdefault("_packs", {})
        pack = packs.get(key)
        if pack is None or not pack.valid(accs, ps):
            if not all(p.is_contiguous() for p in ps):
                return None
            pack = packs[key] = FlatPack(accs, ps)
        return pack

    def _acc_var_list(self, name, targets):
        if self._name is not None:
            name = self._name + "_" + name
        accs = self._accumulators[name]
        return [accs[t.name] for t in targets]

    def _update_each(self, params, targets, grads, lrs, opts):
        """The per-parameter update of a group (for a multi-tensor path that cannot run)."""
        for p, t, g, lr in zip(params, targets, grads, lrs):
            self._update(p, t, g, lr, opts)

    def _acc_lists(self, kinds, targets):
        """_acc_list of each accumulator kind in `kinds`, the targets' names read once (a step's hot loop)."""
        names = [t.name for t in targets]
        prefix = "" if self._name is None else self._name + "_"
        return [[accs[n]._t for n in names] for accs in (self._accumulators[prefix + k] for k in kinds)]

    def _acc_list(self, name, targets):
        if self._name is not None:
            name = self._name + "_" + name
        accs = self._accumulators[name]
        return [accs[t.name]._t for t in targets]

    def _update(self, param, target, grad, lr, opts):
        raise NotImplementedError('Class "Optimizer" cannot be used directly as an optimizer, please use its '
                                  'subclasses such as "Adam"')

    def _finish_update(self, params_grads, opts):
        pass

    # ------------------------------------------------------------ regularization
    def _create_regularization_of_grad(self, param, grad, regularization=None):
        reg = getattr(param, "regularizer", None)
        if grad is None or (reg is None and regularization is None):
            return grad
        reg = reg if reg is not None else regularization
        p = param
        if param._t.dtype != grad._t.dtype:
            p = self._master_weights.get(param.name) if self._uses_master(param) else None
            p = p if p is not None else wrap(param._t.to(grad._t.dtype))
        if isinstance(reg, WeightDecayRegularizer) and type(reg)._term is not WeightDecayRegularizer._term:
            term = reg._term(p._t)
        else:
            term = reg(p, grad, None)._t
        return wrap(grad._t + term)

    def append_regularization_ops(self, parameters_and_grads, regularization=None):
        if regularization is None and all(getattr(p, "regularizer", None) is None for p, _ in parameters_and_grads):
            return parameters_and_grads
        return [(p, self._create_regularization_of_grad(p, g, regularization)) for p, g in parameters_and_grads]

    # ------------------------------------------------------------ gradients
    def clear_grad(self, set_to_zero=True):
        if self._parameter_list and isinstance(self._parameter_list[0], dict):
            params = [p for group in self._param_groups for p in group["params"]]
        else:
            params = self._parameter_list or []
        if set_to_zero:  # one foreach op for the plain gradients instead of a zero_ per parameter
            plain = []
            for p in params:
                g = p._t.grad
                if g is None or p.stop_gradient:
                    continue
                if type(g) is torch.Tensor:
                    plain.append(g)
                else:  # DTensor gradients (Partial sums too): foreach ops do not take them
                    p.clear_gradient(True)
            if plain:
                torch._foreach_zero_(plain)
            return
        for p in params:
            if not p.stop_gradient:
                p.clear_gradient(set_to_zero)

    def zero_grad(self, set_to_none=True):
        self.clear_grad(set_to_zero=not set_to_none)

    def backward(self, loss, startup_program=None, parameters=None, no_grad_set=None, callbacks=None):
        if self._dtype is None:
            self._dtype = loss.dtype
        params = parameters if parameters else self._parameter_list
        return [(p, wrap(p._t.grad)) for p in params if p._t.grad is not None]

    def apply_gradients(self, params_grads):
        params_grads = sorted(params_grads, key=lambda pg: pg[0].name)
        with torch.no_grad():
            self._apply_optimize(params_grads, None)
        return []

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        if _fw._static is not None:  # static mode: backward and update become nodes of the program
            from ..static.backward import minimize

            return minimize(self, loss, startup_program, parameters, no_grad_set)
        Tensor = _tensor_type()
        assert isinstance(loss, Tensor), "The loss should be an Tensor."
        params_grads = self.backward(loss, startup_program, parameters or self._parameter_list, no_grad_set)
        with torch.no_grad():
            if isinstance(self._param_groups[0] if self._param_groups else None, dict):
                self.step()
            else:
                self._apply_optimize(params_grads, None)
        return [], params_grads

    # ------------------------------------------------------------ state
    def state_dict(self):
        state = {}
        if not self._accumulators and self._accumulators_holder:
            state.update(self._accumulators_holder)
        else:
            for accs in self._accumulators.values():
                for var in accs.values():
                    state[var.name] = var
        if self._master_weights:
            state["master_weights"] = self._master_weights
        if isinstance(self._learning_rate, LRScheduler):
            state["LR_Scheduler"] = self._learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        if isinstance(self._learning_rate, LRScheduler):
            lr_state = state_dict.get("LR_Scheduler", None)
            if not isinstance(self._learning_rate, LambdaDecay):
                assert lr_state is not None, ("LR_Scheduler state must be included in the state dict except "
                                              "LambdaDecay")
            if lr_state:
                self._learning_rate.set_state_dict(lr_state)
        state_dict = dict(state_dict)
        state_dict.pop("LR_Scheduler", None)
        if "master_weights" in state_dict:
            self._master_weights = state_dict.pop("master_weights")
        self._accumulators_holder = state_dict
        for accs in self._accumulators.values():
            for var in accs.values():
                assert var.name in state_dict, f"optimizer Tensor {var.name} not found"
                var.set_value(state_dict[var.name])

    load_state_dict = set_state_dict

    def get_opti_var_name_list(self):
        return self._opti_name_list

    def _set_auxiliary_var(self, key, val):
        self._auxiliary_vars[key] = val

    def _get_auxiliary_var(self, key):
        return self._auxiliary_vars.get(key, None)

    def _is_dtype_fp16_or_bf16(self, dtype):
        return str(dtype) in ("paddle.float16", "paddle.bfloat16")
