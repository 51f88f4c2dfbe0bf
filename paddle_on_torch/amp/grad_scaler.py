"""paddle.amp.GradScaler (and its base AmpScaler): dynamic loss scaling.

As in Paddle, the scaler is enabled only on an accelerator place (on CPU it warns, and scale()
returns the loss, step()/minimize() just run the optimizer), and a dynamic scaler turns itself off
at the first scale() unless the last auto_cast used float16.
"""
import enum
import warnings
from collections import defaultdict

import numpy as np
import torch

from .._core.place import current_torch_device
from . import auto_cast as _ac

__all__ = ["AmpScaler", "GradScaler", "OptimizerState"]


class OptimizerState(enum.Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_state():
    return {"state": OptimizerState.INIT}


def _to_tensor(array):
    from .. import _normalize

    return _normalize.wrap(torch.as_tensor(array, device=current_torch_device()))


def _unscale_and_check(grads, inv):
    """Multiply the gradients by `inv` in place (in float32, as Paddle's check_finite_and_unscale) and say whether
    any value is inf or nan: torch's fused kernel (its GradScaler's), one call per device and dtype; gradients
    that are not plain dense tensors (distributed ones) one by one."""
    found = torch.zeros((), dtype=torch.bool)
    groups = {}
    for g in grads:
        if type(g) is torch.Tensor and g.layout is torch.strided:
            groups.setdefault((g.device, g.dtype), []).append(g)
        else:
            found = found | (~torch.isfinite(g)).any().cpu()
            g.mul_(inv.to(g.device).reshape(()).to(g.dtype) if g.dtype is not torch.float32 else
                   inv.to(g.device).reshape(()))
    for (device, _), gs in groups.items():
        flag = torch.zeros(1, dtype=torch.float32, device=device)
        torch._amp_foreach_non_finite_check_and_unscale_(gs, flag, inv.to(device))
        found = found | bool(flag.item())
    return found


def _params(optimizer):
    groups = getattr(optimizer, "_param_groups", None)
    if groups and isinstance(groups[0], dict):
        return [p for g in groups for p in g["params"]]
    params = getattr(optimizer, "_parameter_list", None)
    if params is None:
        raise TypeError(f"{type(optimizer).__name__} has no parameter list (_parameter_list or _param_groups)")
    return list(params)


class AmpScaler:
    def __init__(self, enable=True, init_loss_scaling=2.0 ** 15, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=1000, decr_every_n_nan_or_inf=1, use_dynamic_loss_scaling=True):
        if enable and not _ac._accelerator():
            warnings.warn(f"AmpScaler can only be enabled on CUDAPlace, XPUPlace and CustomPlace, current place is "
                          f"{_ac._place_str()}, so it makes no effect.")
            enable = False
        self._enable = enable
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._scale = None
        if self._enable:
            assert incr_ratio > 1.0, "The incr_ratio must be > 1.0."
            assert decr_ratio < 1.0, "The decr_ratio must be < 1.0."
            self._init_loss_scaling = init_loss_scaling
            self._incr_ratio = incr_ratio
            self._decr_ratio = decr_ratio
            self._incr_every_n_steps = incr_every_n_steps
            self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
            self._incr_count = 0
            self._decr_count = 0
            self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
            self._found_inf = _to_tensor(np.array([False]))
            self._scale = _to_tensor(np.array([self._init_loss_scaling], dtype=np.float32))
            self._cache_found_inf = None
            self._optimizer_states = defaultdict(_fresh_state)

    def scale(self, var):
        """The loss multiplied by the current scale (the loss itself when disabled)."""
        from ..tensor.tensor import Tensor

        dtype = _ac.amp_global_state().amp_dtype
        if self._enable and dtype != "float16" and self._use_dynamic_loss_scaling:
            self._enable = False
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            warnings.warn(f"It is not recommended to use dynamic loss scaling for {dtype}, so GradScaler is "
                          "disable by default.")
        if not self._enable:
            return var  # Paddle returns whatever it was given here, Tensor or not
        if not isinstance(var, Tensor):
            raise TypeError(f"The type of 'var' in AmpScaler.scale() must be (<class 'paddle.Tensor'>, "
                            f"<class 'paddle.pir.Value'>), but received {type(var)}.")
        return var * self._scale

    def minimize(self, optimizer, *args, **kwargs):
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        if self._optimizer_states[id(optimizer)]["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        result = (None, None)
        if self._skip_if_found_inf(optimizer):
            result = optimizer.minimize(*args, **kwargs)
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = defaultdict(_fresh_state)
        return result

    def _skip_if_found_inf(self, optimizer):
        """True when the optimizer should run; records the step's found-inf flag.

        Paddle hands found_inf to the optimizer, whose update kernels then leave the parameters and
        accumulators alone; here a step with an inf/nan gradient is skipped before it starts, which
        leaves the same state.  The optimizer's auxiliary var ends as Paddle's does (a bool).
        """
        found = bool(self._found_inf)
        self._cache_found_inf = found
        if hasattr(optimizer, "_set_auxiliary_var"):
            optimizer._set_auxiliary_var("found_inf", found)
        return not found

    def _unscale(self, optimizer):
        """Divide the gradients by the scale in place and record whether any is inf or nan."""
        if not self._enable:
            return
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        grads = [p._t.grad for p in _params(optimizer) if p._t.grad is not None]
        found = torch.zeros((), dtype=torch.bool)
        if grads:
            inv = (1.0 / self._scale._t.to(torch.float32)).reshape([1])
            with torch.no_grad():
                found = _unscale_and_check(grads, inv)
        self._found_inf = _to_tensor(found.reshape([1]).cpu())
        state["state"] = OptimizerState.UNSCALED

    def _update(self):
        if not self._enable:
            return
        if self._cache_found_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                print(f"Found inf or nan, current scale is: {float(self._scale)}, decrease to: "
                      f"{float(self._scale)}*{float(self._decr_ratio)}")
                self._scale = self._scale * self._decr_ratio
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                self._scale = self._scale * self._incr_ratio
                self._incr_count = 0

    def is_enable(self):
        return self._enable

    def is_use_dynamic_loss_scaling(self):
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self):
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling):
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = _to_tensor(np.array([self._init_loss_scaling], dtype=np.float32))

    def get_incr_ratio(self):
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio):
        assert new_incr_ratio > 1.0, "The new_incr_ratio must be > 1.0."
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self):
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio):
        assert new_decr_ratio < 1.0, "The new_decr_ratio must be < 1.0."
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self):
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps):
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self):
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf):
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    def state_dict(self):
        if not self._enable:
            return {}
        return {
            "scale": self._scale.numpy(),
            "incr_ratio": self._incr_ratio,
            "decr_ratio": self._decr_ratio,
            "incr_every_n_steps": self._incr_every_n_steps,
            "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
            "incr_count": self._incr_count,
            "decr_count": self._decr_count,
            "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling,
        }

    def load_state_dict(self, state_dict):
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The input state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_loss_scaling = state_dict["scale"][0]
        self._scale = _to_tensor(np.array([self._init_loss_scaling], dtype=np.float32))
        self._incr_ratio = state_dict["incr_ratio"]
        self._decr_ratio = state_dict["decr_ratio"]
        self._incr_every_n_steps = state_dict["incr_every_n_steps"]
        self._decr_every_n_nan_or_inf = state_dict["decr_every_n_nan_or_inf"]
        self._incr_count = state_dict["incr_count"]
        self._decr_count = state_dict["decr_count"]
        self._use_dynamic_loss_scaling = state_dict["use_dynamic_loss_scaling"]


class GradScaler(AmpScaler):
    """Dynamic loss scaling for float16 training: scale() the loss, then step()+update() or minimize().

    The scale is multiplied by `incr_ratio` after `incr_every_n_steps` finite steps in a row and by
    `decr_ratio` after `decr_every_n_nan_or_inf` steps with an inf/nan gradient; such steps skip
    the parameter update.
    """

    def __init__(self, enable=True, init_loss_scaling=2.0 ** 16, incr_ratio=2.0, decr_ratio=0.5,
                 incr_every_n_steps=2000, decr_every_n_nan_or_inf=1, use_dynamic_loss_scaling=True):
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)

    def step(self, optimizer):
        """Unscale the gradients (unless unscale_ ran) and step the optimizer unless one was inf/nan."""
        if not self._enable:
            return optimizer.step()
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        if self._skip_if_found_inf(optimizer):
            optimizer.step()
        state["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = defaultdict(_fresh_state)

    def update(self):
        """Adjust the loss scale after step() (dynamic loss scaling only)."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_fresh_state)

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale now (e.g. before gradient clipping)."""
        return self._unscale(optimizer)
