"""paddle.nn.functional: pairwise_distance, pdist."""
import torch

from ..._normalize import TensorLike, op

__all__ = ["pairwise_distance", "pdist"]


@op
def pairwise_distance(x: TensorLike, y: TensorLike, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    if x.dim() != y.dim() and not (x.dim() <= 2 and y.dim() <= 2):
        raise ValueError(f"The rank of x and y must be equal, but got {x.dim()} and {y.dim()}.")
    d = x - y + epsilon
    if d.dim() == 0:
        d = d.reshape(1)
    return torch.linalg.vector_norm(d, ord=p, dim=-1, keepdim=keepdim)


@op
def pdist(x: TensorLike, p=2.0, name=None):
    """The p-norm distance between every pair of rows of a 2-D x (the upper triangle, row by row)."""
    if x.dim() != 2:
        raise ValueError("The x must be 2-dimensional")  # (Paddle asserts: an AssertionError there)
    return torch.nn.functional.pdist(x, p=p)
