"""paddle.utils (only unique_name so far)."""
from .. import _report
from . import cpp_extension, unique_name  # noqa: F401
from .install_check import run_check  # noqa: F401
from .require_version import require_version  # noqa: F401

__all__ = []

__getattr__ = _report.module_getattr("paddle.utils")
