"""paddle.base.dygraph: the dynamic-graph switches of Paddle 1.x/2.x scripts."""
import contextlib

__all__ = ["guard", "enabled"]


@contextlib.contextmanager
def guard(place=None):
    """Run the block in dynamic-graph mode, which is the only mode paddle_on_torch has."""
    yield


def enabled():
    return True
