"""paddle.base.layer_helper.LayerHelper: Paddle's helper for appending legacy operators to a program."""
from .. import _report

__all__ = ["LayerHelper"]


class LayerHelper:
    """Appends Paddle operators (by their C++ op type) to a static program; there are no such operators on torch."""

    def __init__(self, layer_type, **kwargs):
        raise _report.unsupported("paddle.base.layer_helper.LayerHelper",
                                  f" ({layer_type!r}): Paddle's C++ operators cannot be appended on torch")
