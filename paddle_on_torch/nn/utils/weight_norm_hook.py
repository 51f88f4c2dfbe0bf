"""weight_norm / remove_weight_norm: weight = g * v / ||v||, recomputed by a forward pre-hook (Paddle's hook)."""
import torch

from ..._normalize import wrap

__all__ = ["weight_norm", "remove_weight_norm"]


def _norm_except_dim(p, dim):
    """||p|| over every axis but `dim` (all axes for dim=-1), with Paddle's 1e-12 inside the square root."""
    if dim == -1:
        return torch.sqrt(torch.sum(p * p) + 1e-12)
    moved = p.movedim(dim, 0).reshape(p.shape[dim], -1)
    return torch.sqrt(torch.sum(moved * moved, dim=1) + 1e-12)


def _weight_norm(v, g, dim):
    if dim == -1:
        return v / (torch.sqrt(torch.sum(v * v)) + 1e-12) * g
    norm = torch.linalg.vector_norm(v.movedim(dim, 0).reshape(v.shape[dim], -1), dim=1)
    shape = [1] * v.dim()
    shape[dim] = v.shape[dim]
    return v / norm.clamp(min=1e-12).reshape(shape) * g.reshape(shape)


class WeightNorm:
    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, layer):
        g = getattr(layer, self.name + "_g")._t
        v = getattr(layer, self.name + "_v")._t
        return wrap(_weight_norm(v, g, self.dim))

    @staticmethod
    def apply(layer, name, dim):
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        weight_dim = len(layer._parameters[name].shape)
        assert -weight_dim <= dim < weight_dim, "dim must set between [-R, R), R means the dimension of weight."
        if dim != -1:
            dim = (dim + weight_dim) % weight_dim
        fn = WeightNorm(name, dim)
        w = getattr(layer, name)
        del layer._parameters[name]
        from ...static.program import quiet

        with torch.no_grad(), quiet():  # (in static mode: the initial values, not ops of the program)
            g_value = _norm_except_dim(w._t, dim)
        v = layer.create_parameter(w.shape, dtype=w.dtype)
        layer.add_parameter(name + "_v", v)
        g = layer.create_parameter(list(g_value.shape), dtype=w.dtype)
        layer.add_parameter(name + "_g", g)
        with torch.no_grad(), quiet():
            v._t.copy_(w._t)
            g._t.copy_(g_value)
        setattr(layer, name, fn.compute_weight(layer))
        layer.register_forward_pre_hook(fn)
        return fn

    def remove(self, layer):
        from ...static.program import quiet

        with torch.no_grad(), quiet():
            w_value = self.compute_weight(layer)
        delattr(layer, self.name)
        del layer._parameters[self.name + "_g"]
        del layer._parameters[self.name + "_v"]
        w = layer.create_parameter(w_value.shape, dtype=w_value.dtype)
        layer.add_parameter(self.name, w)
        with torch.no_grad(), quiet():
            w._t.copy_(w_value._t)

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer))


def weight_norm(layer, name="weight", dim=0):
    """Reparameterise `layer.<name>` as `<name>_g` (magnitude) and `<name>_v` (direction)."""
    WeightNorm.apply(layer, name, dim)
    return layer


def remove_weight_norm(layer, name="weight"):
    for k, hook in layer._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(layer)
            del layer._forward_pre_hooks[k]
            return layer
    raise ValueError(f"weight_norm of '{name}' not found in {layer}")
