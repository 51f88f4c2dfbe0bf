"""spectral_norm: weight = weight_orig / sigma, sigma from power iteration on buffers u, v (Paddle's hook)."""
import torch
import torch.nn.functional as TF

from ..._core import dtype as _dtypes
from ..._core import random as _rng
from ..._normalize import wrap

__all__ = ["spectral_norm"]



def _normal(n, like):
    """paddle.normal(0, 1, shape=[n]) (Paddle's draws on the CPU), assigned into a tensor of like's dtype."""
    drawn = _rng.normal_(torch.empty(n, dtype=_dtypes.default_float_torch(), device=like.device), 0.0, 1.0)
    return drawn.to(like.dtype)

class SpectralNorm:
    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name, self.dim = name, dim
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations, self.eps = n_power_iterations, eps

    def reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute([self.dim] + [d for d in range(weight.dim()) if d != self.dim])
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, layer, do_power_iteration):
        weight = getattr(layer, self.name + "_orig")._t
        u = getattr(layer, self.name + "_u")._t
        v = getattr(layer, self.name + "_v")._t
        mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(TF.normalize(mat.T @ u, dim=0, eps=self.eps))
                    u.copy_(TF.normalize(mat @ v, dim=0, eps=self.eps))
                u, v = u.clone(), v.clone()
        sigma = torch.dot(u, mat @ v)
        return wrap(weight / sigma)

    def __call__(self, layer, inputs):
        setattr(layer, self.name, self.compute_weight(layer, do_power_iteration=layer.training))

    @staticmethod
    def apply(layer, name, n_power_iterations, dim, eps):
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = layer._parameters[name]
        with torch.no_grad():
            h, w = fn.reshape_weight_to_matrix(weight._t).shape
            # Paddle makes u and v with create_parameter (so they take parameter names, and draw their default
            # initializer) and then redraws each N(0, 1) with paddle.normal (the default float dtype), in this order
            u = layer.create_parameter([h])
            u_t = _normal(h, u._t)
            v = layer.create_parameter([w])
            v_t = _normal(w, v._t)
            u = wrap(TF.normalize(u_t, dim=0, eps=fn.eps))
            v = wrap(TF.normalize(v_t, dim=0, eps=fn.eps))
        del layer._parameters[fn.name]
        layer.add_parameter(fn.name + "_orig", weight)
        setattr(layer, fn.name, wrap(weight._t * 1.0))
        layer.register_buffer(fn.name + "_u", u)
        layer.register_buffer(fn.name + "_v", v)
        layer.register_forward_pre_hook(fn)
        return fn


def spectral_norm(layer, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Divide `layer.<name>` by its largest singular value, estimated by power iteration each training call."""
    if dim is None:
        from ..layer.common import Linear
        from ..layer.conv import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose

        dim = 1 if isinstance(layer, (Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, Linear)) else 0
    SpectralNorm.apply(layer, name, n_power_iterations, dim, eps)
    return layer
