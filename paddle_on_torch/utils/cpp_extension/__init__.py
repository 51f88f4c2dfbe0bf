"""paddle.utils.cpp_extension: build Paddle C++ (and CUDA) custom operators and call them from Paddle code.

Custom operators written against Paddle's C++ API (`#include "paddle/extension.h"`, `PD_BUILD_OP`,
`PD_BUILD_GRAD_OP`, `paddle::Tensor`, ...) compile against paddle_on_torch's implementation of that API on ATen
(paddle_on_torch/include, `paddle.sysconfig.get_include()`), with torch's toolchain (torch.utils.cpp_extension,
ninja).  Each op becomes a torch operator (torch.library: usable under paddle.jit.to_static / torch.compile) whose
gradient comes from its grad op, and a Python function with Paddle's signature.  docs/custom_ops.md lists the
parts of Paddle's C++ API provided and those refused.

* `load(name, sources, ...)` builds just in time (cached in `get_build_directory()/<name>`) and returns a module
  with one function per op;
* `setup(name=..., ext_modules=CppExtension(sources=[...]))` builds with setuptools (`python setup.py install`,
  `pip install .`): `import <name>` then gives the functions;
* `CUDAExtension` builds .cu sources too, where torch has CUDA (else it raises a clear error).
"""
import logging
import os
import textwrap

import setuptools
from setuptools.command.build_ext import build_ext

from . import _build, _ops

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
        if verbose:
            _logger.info(f"$PADDLE_EXTENSION_DIR is not set, using path: {root} by default.")
    if not os.path.exists(root):
        os.makedirs(root)
    return root


def _check_list(value, what):
    if value is not None and not isinstance(value, list):
        raise AssertionError(f"Required type({what}) == list[str], but received {value}")
    return value or []


def load(name, sources, extra_cxx_cflags=None, extra_cuda_cflags=None, extra_ldflags=None,
         extra_include_paths=None, extra_library_paths=None, build_directory=None, verbose=False):
    """Compile custom-operator sources just in time and return a module with one function per operator (built
    in `<build_directory or get_build_directory()>/<name>`, rebuilt only when a source or a flag changed)."""
    if build_directory is None:
        build_directory = get_build_directory(verbose)
    build_directory = os.path.abspath(build_directory)
    if isinstance(sources, str):
        sources = [sources]
    path = _build.build(name, list(sources), extra_cxx_cflags=_check_list(extra_cxx_cflags, "extra_cxx_cflags"),
                        extra_cuda_cflags=_check_list(extra_cuda_cflags, "extra_cuda_cflags"),
                        extra_ldflags=extra_ldflags, extra_include_paths=extra_include_paths,
                        extra_library_paths=extra_library_paths,
                        build_directory=os.path.join(build_directory, name), verbose=verbose)
    if verbose:
        _logger.info(f"loading shared library from: {path}")
    return _ops.load_library(path).module("_paddle_cpp_extension_" + name)


def load_op_meta_info_and_register_op(lib_filename):
    """Register the custom operators of a library built by paddle.utils.cpp_extension; their names."""
    return list(_ops.load_library(lib_filename).ops)


def _register_into(namespace, lib_filename):
    """Put the Python functions of a built library's ops into `namespace` (the module setup() installs)."""
    namespace.update(_ops.load_library(lib_filename).functions)


def _extension(sources, args, kwargs, cuda):
    name = kwargs.pop("name", None)
    if name is None:  # setup() names it after the package
        name = "custom_ops_" + os.path.splitext(os.path.basename(sources[0]))[0] if sources else "custom_ops"
    ext = setuptools.Extension(name, list(sources), *args, **kwargs)
    ext._paddle_cuda = cuda
    return ext


def CppExtension(sources, *args, **kwargs):
    """A setuptools Extension of custom-operator sources with CPU kernels, for setup()."""
    return _extension(sources, args, kwargs, cuda=False)


def CUDAExtension(sources, *args, **kwargs):
    """A setuptools Extension of custom-operator sources with CUDA kernels (.cu) too, for setup(); needs a CUDA
    build of torch and the CUDA toolkit."""
    _build.require_cuda("CUDAExtension")
    return _extension(sources, args, kwargs, cuda=True)


_STUB = textwrap.dedent('''\
    """Custom operators {name}, built by paddle.utils.cpp_extension.setup: one function per operator."""
    import os as _os

    from paddle.utils.cpp_extension import _register_into

    _register_into(globals(), _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), {so!r}))
    ''')


class BuildExtension(build_ext):
    """setuptools' build_ext for custom-operator extensions: each is compiled by the same build as load()
    (torch.utils.cpp_extension with paddle_on_torch's headers; in build_temp), installed as `<name>_pd_.so`
    beside a `<name>.py` that registers its operators on import."""

    @classmethod
    def with_options(cls, **options):
        class cls_with_options(cls):
            def __init__(self, *args, **kwargs):
                kwargs.update(options)
                super().__init__(*args, **kwargs)

        return cls_with_options

    def __init__(self, *args, **kwargs):
        self.no_python_abi_suffix = kwargs.pop("no_python_abi_suffix", True)
        self.output_dir = kwargs.pop("output_dir", None)
        super().__init__(*args, **kwargs)

    def get_ext_filename(self, fullname):
        parts = fullname.split(".")
        return os.path.join(*parts[:-1], parts[-1] + "_pd_.so")

    def build_extension(self, ext):
        import shutil

        args = ext.extra_compile_args or []
        cxx, nvcc = (args.get("cxx", []), args.get("nvcc", [])) if isinstance(args, dict) else (list(args), [])
        short = ext.name.split(".")[-1]
        cuda = getattr(ext, "_paddle_cuda", False)
        path = _build.build(short, ext.sources, extra_cxx_cflags=cxx, extra_cuda_cflags=nvcc if cuda else None,
                            extra_ldflags=list(ext.extra_link_args or []) + [f"-l{lib}" for lib in ext.libraries or []],
                            extra_include_paths=ext.include_dirs, extra_library_paths=ext.library_dirs,
                            build_directory=os.path.abspath(self.build_temp), verbose=bool(self.verbose),
                            use_cuda=cuda or None)
        target = self.get_ext_fullpath(ext.name)
        if self.output_dir:
            target = os.path.join(self.output_dir, os.path.basename(target))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(path, target)
        stub = os.path.join(os.path.dirname(target), short + ".py")
        with open(stub + ".tmp", "w") as f:
            f.write(_STUB.format(name=short, so=os.path.basename(target)))
        os.replace(stub + ".tmp", stub)


def setup(**attr):
    """setuptools.setup for a custom-operator package: `setup(name="custom_ops", ext_modules=CppExtension(...))`
    then `python setup.py install` (or `pip install .`) makes `import custom_ops` give one function per op."""
    if "name" not in attr:
        raise ValueError("Required to specific `name` argument in paddle.utils.cpp_extension.setup.\nIt's used as "
                         "`import XXX` when you want install and import your custom operators.")
    if attr["name"].endswith("module"):
        raise AssertionError("Please don't use 'module' as suffix in `name` argument, it will be stripped in "
                             "setuptools.bdist_egg and cause import error.")
    ext_modules = attr.get("ext_modules", [])
    if not isinstance(ext_modules, list):
        ext_modules = [ext_modules]
    if len(ext_modules) != 1:
        raise AssertionError(f"Required only one Extension, but received {len(ext_modules)}. If you want to "
                             "compile multi operators, you can include all necessary source files in one Extension.")
    for ext in ext_modules:
        ext.name = attr["name"]
    attr["ext_modules"] = ext_modules
    cmdclass = dict(attr.get("cmdclass", {}))
    cmdclass.setdefault("build_ext", BuildExtension)
    attr["cmdclass"] = cmdclass
    attr["zip_safe"] = False
    return setuptools.setup(**attr)


def __getattr__(name):
    if name == "extension_utils":
        import importlib

        return importlib.import_module(f"{__name__}.extension_utils")
    from ... import _report

    return _report.module_getattr("paddle.utils.cpp_extension")(name)
