"""paddle.utils.cpp_extension.extension_utils: the helpers behind Paddle's custom-operator build; what libraries
import from here is the loader of compiled Paddle operator libraries, which cannot run on PyTorch."""
from ... import _report
from . import load_op_meta_info_and_register_op  # noqa: F401

__getattr__ = _report.module_getattr("paddle.utils.cpp_extension.extension_utils")
