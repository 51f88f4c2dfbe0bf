"""paddle.static.InputSpec: the shape, dtype and name of a model input (None dims are dynamic, -1)."""
import numpy as np

from .._core import dtype as _dtypes

__all__ = ["InputSpec"]


class InputSpec:
    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        self.shape = self._verify(shape)
        self.dtype = _dtypes.convert_dtype(dtype)
        self.name, self.stop_gradient = name, stop_gradient

    @staticmethod
    def _verify(shape):
        if not isinstance(shape, (list, tuple)):
            raise TypeError(f"Type of `shape` in InputSpec should be one of (tuple, list), but received "
                            f"{type(shape).__name__}.")
        out = []
        for d in shape:
            if d is None:
                out.append(-1)
            elif isinstance(d, (int, np.integer)):
                if d < -1:
                    raise ValueError(f"Each element of `shape` in InputSpec should be -1 or positive, got {d}.")
                out.append(int(d))
            else:
                raise ValueError(f"Each element of `shape` in InputSpec should be int or None, but received "
                                 f"{type(d).__name__}.")
        return tuple(out)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(list(tensor.shape), tensor.dtype, name or getattr(tensor, "name", None))

    @classmethod
    def from_numpy(cls, ndarray, name=None):
        return cls(list(ndarray.shape), ndarray.dtype, name)

    def batch(self, batch_size):
        """Prepend a batch dimension (in place, as Paddle does; returns self)."""
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 1:
                raise ValueError(f"Length of batch_size: {batch_size} shall be 1, but received "
                                 f"{len(batch_size)}.")
            batch_size = batch_size[0]
        if not isinstance(batch_size, int):
            raise TypeError(f"type(batch_size) shall be `int`, but received {type(batch_size).__name__}.")
        self.shape = (batch_size,) + self.shape
        return self

    def unbatch(self):
        """Drop the leading dimension (in place; returns self)."""
        if len(self.shape) == 0:
            raise ValueError("Not support to unbatch a InputSpec when len(shape) == 0.")
        self.shape = self.shape[1:]
        return self

    def __repr__(self):
        return (f"{type(self).__name__}(shape={self.shape}, dtype={self.dtype}, name={self.name}, "
                f"stop_gradient={self.stop_gradient})")

    def __eq__(self, other):
        return (type(self) is type(other) and self.shape == other.shape and self.dtype == other.dtype
                and self.name == other.name and self.stop_gradient == other.stop_gradient)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self.shape, self.dtype, self.name, self.stop_gradient))
