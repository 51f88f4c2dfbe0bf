"""parameters_to_vector / vector_to_parameters."""
import math

import torch

from ..._normalize import wrap

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters, name=None):
    """All parameters flattened and concatenated into one 1-D Tensor (stop_gradient=False, no history)."""
    with torch.no_grad():
        out = torch.cat([p._t.reshape(-1) for p in parameters])
    out = wrap(out)
    out.stop_gradient = False
    return out


def vector_to_parameters(vec, parameters, name=None):
    """Copy consecutive slices of 1-D `vec` into the parameters (extra trailing elements are ignored)."""
    assert len(vec.shape) == 1
    parameters = list(parameters)
    sizes = [math.prod(p.shape) for p in parameters]
    total = sum(sizes)
    if total > vec.shape[0]:
        raise ValueError("The total_elements of vec should be equal to or larger than the number of elements in "
                         "parameters.")
    src, start = vec._t, 0
    with torch.no_grad():
        for p, n in zip(parameters, sizes):
            piece = src[start:start + n].reshape(p._t.shape)
            if piece.dtype == p._t.dtype:
                p._t.copy_(piece)
            else:  # Paddle shares vec's data into the parameter, dtype and all
                p._t.data = piece.clone()
            start += n
