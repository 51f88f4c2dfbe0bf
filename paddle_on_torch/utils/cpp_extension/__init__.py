"""paddle.utils.cpp_extension: Paddle's build API for C++/CUDA custom operators.

Those operators are written against Paddle's C++ API (`paddle/extension.h`, `PD_BUILD_OP`) and link
to Paddle's own libraries, which paddle_on_torch does not have: it runs on PyTorch.  So the build
entry points raise NotImplementedError saying so, and point to PyTorch's twin,
`torch.utils.cpp_extension` (an operator written there and registered with `torch.library` works on
paddle_on_torch's tensors through `paddle.Tensor._t`).  `get_build_directory` is Paddle's.
"""
import logging
import os

from ... import _report

_logger = logging.getLogger("utils.cpp_extension")  # Paddle's logger: INFO lines on stderr, timestamped
_logger.setLevel(logging.INFO)
if not _logger.handlers:
    _h = logging.StreamHandler()
    _h.setFormatter(logging.Formatter(fmt="%(asctime)s - %(levelname)s - %(message)s"))
    _logger.addHandler(_h)

__all__ = ["CppExtension", "CUDAExtension", "load", "setup", "get_build_directory"]


def get_build_directory(verbose=False):
    """$PADDLE_EXTENSION_DIR, else ~/.cache/paddle_extensions (created when missing), as Paddle's."""
    root = os.environ.get("PADDLE_EXTENSION_DIR")
    if root is None:
        root = os.path.join(os.path.expanduser("~/.cache"), "paddle_extensions")
        if os.name == "nt":
            root = os.path.normpath(root)
        if verbose:
            _logger.info(f"$PADDLE_EXTENSION_DIR is not set, using path: {root} by default.")
    if not os.path.exists(root):
        os.makedirs(root)
    return root


def _cannot_build(api):
    return _report.unsupported(
        f"paddle.utils.cpp_extension.{api}", ": Paddle C++/CUDA custom operators (paddle/extension.h, "
        "PD_BUILD_OP) cannot be built with paddle_on_torch, which runs on PyTorch and has no Paddle C++ library to "
        f"link against. Write the operator as a PyTorch extension instead: torch.utils.cpp_extension.{api} "
        "(with torch.library to register it), and call it on a paddle Tensor's torch tensor (`x._t`).")


def load(name, sources, extra_cxx_cflags=None, extra_cuda_cflags=None, extra_ldflags=None,
         extra_include_paths=None, extra_library_paths=None, build_directory=None, verbose=False, **kwargs):
    """Paddle's JIT build of a custom operator: not possible on PyTorch (raises NotImplementedError)."""
    raise _cannot_build("load")


def setup(**attr):
    """Paddle's setuptools build of custom operators: not possible on PyTorch (raises NotImplementedError)."""
    raise _cannot_build("setup")


def CppExtension(sources, *args, **kwargs):
    """A Paddle C++ custom-operator extension: not possible on PyTorch (raises NotImplementedError)."""
    raise _cannot_build("CppExtension")


def CUDAExtension(sources, *args, **kwargs):
    """A Paddle CUDA custom-operator extension: not possible on PyTorch (raises NotImplementedError)."""
    raise _cannot_build("CUDAExtension")


def load_op_meta_info_and_register_op(lib_filename):
    """Register the custom operators of a compiled Paddle extension library: Paddle's C++ operators cannot be
    loaded on PyTorch (raises NotImplementedError)."""
    raise _cannot_build("load_op_meta_info_and_register_op")


def __getattr__(name):
    if name == "extension_utils":
        import importlib

        return importlib.import_module(f"{__name__}.extension_utils")
    return _report.module_getattr("paddle.utils.cpp_extension")(name)
