"""paddle.utils: unique_name, run_check, require_version, deprecated, try_import, dlpack, cpp_extension."""
from .. import _report
from . import cpp_extension, unique_name  # noqa: F401
from .deprecated import deprecated  # noqa: F401,E402  (the function shadows its module, as in Paddle)
from .install_check import run_check  # noqa: F401
from .lazy_import import try_import  # noqa: F401
from .require_version import require_version  # noqa: F401

__all__ = []

__getattr__ = _report.module_getattr("paddle.utils")
