"""paddle.nn.functional: pairwise_distance."""
import torch

from ..._normalize import TensorLike, op

__all__ = ["pairwise_distance"]


@op
def pairwise_distance(x: TensorLike, y: TensorLike, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    if x.dim() != y.dim() and not (x.dim() <= 2 and y.dim() <= 2):
        raise ValueError(f"The rank of x and y must be equal, but got {x.dim()} and {y.dim()}.")
    d = x - y + epsilon
    if d.dim() == 0:
        d = d.reshape(1)
    return torch.linalg.vector_norm(d, ord=p, dim=-1, keepdim=keepdim)
