"""paddle.utils: unique_name, run_check, require_version, deprecated, try_import, dlpack, cpp_extension, download,
and the nested-structure helpers of layers_utils (map_structure, flatten, ...)."""
import importlib as _importlib

from .. import _report
from . import layers_utils, unique_name  # noqa: F401
from .layers_utils import (  # noqa: F401
    assert_same_structure, convert_to_list, copy_mutable_vars, flatten, hold_mutable_vars, is_sequence, map_structure,
    pack_sequence_as, padding_to_same_structure, to_sequence)
from .deprecated import deprecated  # noqa: F401,E402  (the function shadows its module, as in Paddle)
from .install_check import run_check  # noqa: F401
from .lazy_import import try_import  # noqa: F401
from .require_version import require_version  # noqa: F401

__all__ = []

_unsupported_getattr = _report.module_getattr("paddle.utils")
_ON_TOUCH = {"cpp_extension", "download"}  # submodules loaded when first touched (they import setuptools, ...)


def __getattr__(name):
    if name in _ON_TOUCH:
        return _importlib.import_module(f"{__name__}.{name}")
    return _unsupported_getattr(name)
