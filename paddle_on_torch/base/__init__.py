"""paddle.base: the few names of Paddle's framework package that user scripts touch."""
from .. import _report
from . import dygraph  # noqa: F401
from ..framework.flags import get_flags, set_flags  # noqa: F401

__getattr__ = _report.module_getattr("paddle.base")
