"""paddle.incubate.asp (automatic n:m sparsity): calculate_density; pruning and the optimizer wrapper are not
provided yet and raise UnsupportedAPIError naming themselves."""
import numpy as np

from ... import _report

__all__ = ["calculate_density"]

# Paddle 3.3.1's paddle.incubate.asp.__all__ beyond what is provided here
_NOT_PROVIDED = {"decorate", "prune_model", "set_excluded_layers", "reset_excluded_layers", "add_supported_layer"}


def calculate_density(x):
    """The fraction of non-zero entries of a numpy array (a Python float)."""
    x = np.asarray(x).flatten()
    return float(np.nonzero(x)[0].size) / x.size


def __getattr__(name):
    if name in _NOT_PROVIDED:
        raise _report.unsupported(f"paddle.incubate.asp.{name}")
    raise AttributeError(f"module 'paddle.incubate.asp' has no attribute '{name}'")
