"""paddle.LazyGuard: build a model without allocating its parameters.

Inside the guard, parameters are created on torch's meta device (shape and dtype, no memory) and
keep their initializer; `param.initialize()` allocates one and runs the initializer, so a model of
any size can be described first and materialised piece by piece (or never, e.g. to plan a
sharding).  Using an uninitialised parameter in computation raises torch's meta-device error.
"""
import threading

__all__ = ["LazyGuard"]

_state = threading.local()


def lazy_init_enabled():
    return getattr(_state, "depth", 0) > 0


class LazyGuard:
    def __enter__(self):
        _state.depth = getattr(_state, "depth", 0) + 1
        return self

    def __exit__(self, *exc):
        _state.depth -= 1
        return False
