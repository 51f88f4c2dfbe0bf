"""paddle.distribution.Distribution and ExponentialFamily, with Paddle's argument conventions.

Parameters are stored as paddle Tensors (users read `dist.loc`, `dist.probs`, ...); the formulas
are written with paddle_on_torch's own functions so results get Paddle's dtypes and shapes.
"""
import warnings

import numpy as np

import paddle_on_torch as paddle
from ..tensor.tensor import Tensor

__all__ = ["Distribution", "ExponentialFamily"]


def _is_tensor(x):
    return isinstance(x, Tensor)


def _sum_rightmost(value, n):
    return value.sum(list(range(-n, 0))) if n > 0 else value


class Distribution:
    """The abstract base class of Paddle's probability distributions."""

    def __init__(self, batch_shape=(), event_shape=()):
        self._batch_shape = tuple(batch_shape)
        self._event_shape = tuple(event_shape)
        super().__init__()

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def variance(self):
        raise NotImplementedError

    def sample(self, shape=()):
        raise NotImplementedError

    def rsample(self, shape=()):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def kl_divergence(self, other):
        raise NotImplementedError

    def prob(self, value):
        return self.log_prob(value).exp()

    def log_prob(self, value):
        raise NotImplementedError

    def probs(self, value):
        raise NotImplementedError

    def _extend_shape(self, sample_shape):
        return tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape)

    # ---------------------------------------------------------------- Paddle's argument helpers
    def _validate_args(self, *args):
        """True when every argument is a Tensor; ValueError when Tensors and non-Tensors mix."""
        kinds = {_is_tensor(a) for a in args}
        if len(kinds) > 1:
            raise ValueError("if one argument is Tensor, all arguments should be Tensor")
        return kinds == {True}

    def _to_tensor(self, *args):
        """Python floats, lists, tuples and arrays -> float32 Tensors broadcast against each other.

        Paddle's helper always lands in float32 (even from float64 arrays: a float64 parameter is
        cast back up afterwards, keeping float32's rounding); other dtypes warn first.
        """
        arrays = []
        for a in args:
            if not isinstance(a, (float, list, tuple, np.ndarray, Tensor)):
                raise TypeError("Type of input args must be float, list, tuple, numpy.ndarray or Tensor, "
                                f"but received type {type(a)}")
            arr = np.array(a.numpy() if _is_tensor(a) else a)
            if arr.dtype not in (np.float32, np.float64):
                warnings.warn("data type of argument only support float32 and float64, your argument will be "
                              "convert to float32.")
            arrays.append(arr.astype("float32"))
        shape = np.broadcast_shapes(*[a.shape for a in arrays])
        return tuple(paddle.to_tensor(np.broadcast_to(a, shape)) for a in arrays)

    def _check_values_dtype_in_probs(self, param, value):
        """Paddle casts a float `value` to the parameters' dtype (with a warning)."""
        if paddle.is_complex(param):
            return value.astype(param.dtype)
        if value.dtype != param.dtype and value.dtype in (paddle.float32, paddle.float64):
            warnings.warn("dtype of input 'value' needs to be the same as parameters of distribution class. "
                          "dtype of 'value' will be converted.")
            return paddle.cast(value, param.dtype)
        return value

    def _probs_to_logits(self, probs, is_binary=False):
        return (paddle.log(probs) - paddle.log1p(-probs)) if is_binary else paddle.log(probs)

    def _logits_to_probs(self, logits, is_binary=False):
        F = paddle.nn.functional
        return F.sigmoid(logits) if is_binary else F.softmax(logits, axis=-1)

    def _broadcast_all(self, *args):
        """Non-Tensor arguments take the dtype of the first Tensor (else the default dtype); all broadcast."""
        for a in args:
            if not isinstance(a, (float, list, tuple, np.ndarray, Tensor)):
                raise TypeError("Type of input args must be float, list, tuple, numpy.ndarray or Tensor, "
                                f"but received type {type(a)}")
        dtype = next((a.dtype for a in args if _is_tensor(a)), paddle.get_default_dtype())
        tensors = [a if _is_tensor(a) else paddle.to_tensor(a, dtype=dtype) for a in args]
        return paddle.broadcast_tensors(tensors)

    def __repr__(self):
        return f"<paddle.distribution.{type(self).__name__} object at {hex(id(self))}>"


class ExponentialFamily(Distribution):
    """Distributions of the exponential family: entropy (and KL) by Bregman divergence.

    Subclasses give `_natural_parameters`, `_log_normalizer` and `_mean_carrier_measure`.
    """

    @property
    def _natural_parameters(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_parameters):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        params = []
        for p in self._natural_parameters:
            p = p.detach()
            p.stop_gradient = False
            params.append(p)
        log_norm = self._log_normalizer(*params)
        grads = paddle.grad(log_norm.sum(), params, create_graph=True)
        result = -self._mean_carrier_measure + log_norm
        for p, g in zip(params, grads):
            result = result - p * g
        return result
