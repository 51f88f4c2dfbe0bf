"""Paddle's name generator: `linear_0`, `linear_0.w_0`, `create_parameter_1.b_0`, ..."""
import collections

__all__ = ["generate", "guard"]

_counters = collections.defaultdict(int)


def generate(key):
    n = _counters[key]
    _counters[key] += 1
    return f"{key}_{n}"


class guard:
    """Scope a fresh set of counters (paddle.utils.unique_name.guard)."""

    def __init__(self, new_generator=None):
        self._saved = None

    def __enter__(self):
        global _counters
        self._saved, _counters = _counters, collections.defaultdict(int)

    def __exit__(self, *exc):
        global _counters
        _counters = self._saved
