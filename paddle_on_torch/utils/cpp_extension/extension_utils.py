"""paddle.utils.cpp_extension.extension_utils: the helpers behind Paddle's custom-operator build that libraries
import (loading a built operator library and registering its ops; the build directory)."""
from ... import _report
from . import get_build_directory, load_op_meta_info_and_register_op  # noqa: F401

__getattr__ = _report.module_getattr("paddle.utils.cpp_extension.extension_utils")
