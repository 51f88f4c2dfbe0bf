"""paddle.distribution.LKJCholesky: the LKJ distribution over Cholesky factors of correlation matrices."""
import math
from collections.abc import Sequence

import torch

import paddle_on_torch as paddle
from .. import _normalize
from .continuous import Beta, _dtype_name
from .distribution import Distribution

__all__ = ["LKJCholesky"]


def _mvlgamma(a, p):
    j = paddle.arange(1, p + 1, dtype=a.dtype)
    return p * (p - 1) / 4 * math.log(math.pi) + paddle.sum(paddle.lgamma(a.unsqueeze(-1) + (1 - j) / 2), axis=-1)


class LKJCholesky(Distribution):
    """LKJ(dim, concentration) on lower-triangular Cholesky factors; sampled by 'onion' or 'cvine'."""

    def __init__(self, dim=2, concentration=1.0, sample_method="onion"):
        if self._validate_args(concentration):
            self.concentration, self.dtype = concentration, _dtype_name(concentration.dtype)
        else:
            [self.concentration] = self._to_tensor(concentration)
            self.dtype = paddle.get_default_dtype()
        self.dim = dim
        if not dim >= 2:
            raise ValueError(f"Expected dim greater than or equal to 2. Found dim={dim}.")
        if not isinstance(dim, int):
            raise TypeError(f"Expected dim to be an integer. Found dim={dim}.")
        if not bool(paddle.all(self.concentration > 0)):
            raise ValueError("The arg of `concentration` must be positive.")
        self.sample_method = sample_method
        marginal = self.concentration + 0.5 * (dim - 2)
        offset = paddle.arange(dim - 1, dtype=self.concentration.dtype)
        if sample_method == "onion":
            offset = paddle.concat([paddle.zeros((1,), dtype=offset.dtype), offset])
            self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        elif sample_method == "cvine":
            # one partial correlation per strictly-lower entry (i, j): Beta(m - j/2, m - j/2)
            rows, cols = torch.tril_indices(dim - 1, dim - 1)
            off = paddle.to_tensor((0.5 * cols).numpy().astype(_dtype_name(offset.dtype)))
            conc = marginal.unsqueeze(-1) - off
            self._beta = Beta(conc, conc)
        else:
            raise ValueError("`method` should be one of 'cvine' or 'onion'.")
        super().__init__(self.concentration.shape, (dim, dim))

    def _onion(self, shape):
        y = self._beta.sample(shape).unsqueeze(-1)._t
        u = paddle.randn(list(self._extend_shape(shape)), dtype=y.dtype)._t.tril(-1)  # Paddle's stream
        u = u / u.norm(dim=-1, keepdim=True)
        u = torch.cat([torch.zeros_like(u[..., :1, :]), u[..., 1:, :]], dim=-2)
        w = y.sqrt() * u
        diag = (1 - (w ** 2).sum(-1)).clamp(min=torch.finfo(w.dtype).tiny).sqrt()
        return w + torch.diag_embed(diag)

    def _cvine(self, shape):
        r_vec = 2 * self._beta.sample(shape)._t - 1  # (..., dim*(dim-1)/2)
        n = self.dim
        r = torch.zeros(r_vec.shape[:-1] + (n, n), dtype=r_vec.dtype)
        rows, cols = torch.tril_indices(n, n, offset=-1)
        r[..., rows, cols] = r_vec
        eps = torch.finfo(r.dtype).tiny
        r = r.clamp(-1 + eps, 1 - eps)
        z = r ** 2
        cum = torch.cumprod(torch.sqrt(1 - z), dim=-1)
        shifted = torch.nn.functional.pad(cum[..., :-1], [1, 0], value=1.0)
        return (r + torch.eye(n, dtype=r.dtype)) * shifted

    def sample(self, sample_shape=()):
        if not isinstance(sample_shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        with torch.no_grad():
            res = self._onion(sample_shape) if self.sample_method == "onion" else self._cvine(sample_shape)
        out = list(sample_shape) + list(self.concentration.shape) + [self.dim, self.dim]
        return _normalize.wrap(res.reshape(out))

    def log_prob(self, value):
        diag = paddle.diagonal(value, offset=0, axis1=-1, axis2=-2)[..., 1:]
        order = paddle.arange(2, self.dim + 1, dtype=self.concentration.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalised = paddle.sum(order * paddle.log(diag), axis=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        norm = 0.5 * dm1 * math.log(math.pi) + _mvlgamma(alpha - 0.5, dm1) - paddle.lgamma(alpha) * dm1
        return unnormalised - norm
