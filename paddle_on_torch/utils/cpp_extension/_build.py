"""Compiling Paddle custom-operator sources against paddle_on_torch's header set, with torch's toolchain.

The sources include <paddle/extension.h>; paddle_on_torch/include provides it (and the headers it includes) on
ATen.  `build()` compiles them with torch.utils.cpp_extension.load (ninja, one folder per extension, rebuilt only
when a source or a flag changes) and links in paddle_on_torch/include/paddle_on_torch/registry.cc, which turns the
library's PD_BUILD_OP table into torch operators.  That file is the same for every extension: it is compiled once
per torch installation and header set (`registry_object()`) and linked as an object.  A Paddle header the set does
not have, or a compile error that comes from a part of Paddle's C++ API it does not provide, is reported as
NotImplementedError naming it.
"""
import hashlib
import os
import re

from ... import _report
from ...kernels.cpp import build_lock

INCLUDE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "include")
REGISTRY_SOURCE = os.path.join(INCLUDE_DIR, "paddle_on_torch", "registry.cc")

# as Paddle's build: optimised, no warnings from the (user's and our) headers
CXX_FLAGS = ["-O3", "-DNDEBUG", "-w"]


def cuda_available():
    """Whether this torch can build CUDA sources (a CUDA build of torch and a CUDA toolkit)."""
    import torch
    from torch.utils import cpp_extension

    return torch.version.cuda is not None and cpp_extension.CUDA_HOME is not None


def require_cuda(api):
    if not cuda_available():
        import torch

        why = "this torch is a CPU-only build" if torch.version.cuda is None else "no CUDA toolkit (nvcc) was found"
        raise RuntimeError(
            f"paddle.utils.cpp_extension.{api}: CUDA custom operators need a CUDA build of torch and the CUDA "
            f"toolkit, but {why}. Build the CPU kernels with CppExtension / load(sources=[... .cc only])."
        )


def _is_cuda_source(path):
    return os.path.splitext(path)[1] in (".cu", ".cuh")


def _header_digest():
    h = hashlib.sha256()
    for root, _, files in sorted(os.walk(INCLUDE_DIR)):
        for f in sorted(files):
            with open(os.path.join(root, f), "rb") as fh:
                h.update(f.encode() + fh.read())
    return h.hexdigest()


def registry_object(verbose=False):
    """registry.cc compiled for this torch and header set ($PADDLE_ON_TORCH_EXT_CACHE, default
    ~/.cache/paddle_on_torch/ext, under custom_op_registry/<key>): the object file, and its key."""
    import torch
    from torch.utils import cpp_extension

    key = hashlib.sha256("\n".join([torch.__file__, torch.__version__, *CXX_FLAGS, _header_digest()]).encode())
    key = key.hexdigest()[:16]
    root = os.environ.get("PADDLE_ON_TORCH_EXT_CACHE") or os.path.join(os.path.expanduser("~"), ".cache",
                                                                        "paddle_on_torch", "ext")
    folder = os.path.join(root, "custom_op_registry", key)
    obj = os.path.join(folder, "registry.o")
    if not os.path.exists(obj):
        with build_lock(folder):
            if not os.path.exists(obj):
                # torch's build of the one file (it also links and loads a library of it: harmless, it registers
                # nothing) leaves the object in the folder
                cpp_extension.load(name="paddle_on_torch_custom_op_registry", sources=[REGISTRY_SOURCE],
                                   extra_cflags=CXX_FLAGS, extra_include_paths=[INCLUDE_DIR],
                                   build_directory=folder, verbose=verbose, is_python_module=False)
    return obj, key


_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](paddle/[^">]+)[">]')
_IF = re.compile(r"^\s*#\s*if")
_ENDIF = re.compile(r"^\s*#\s*endif")


def check_includes(sources, include_paths=()):
    """Refuse, before compiling, a Paddle header the set does not provide that a source includes outside any
    #if (the compiler's error says the same, later; a header included under a condition, or by another header,
    is left to it)."""
    for path in sources:
        depth = 0
        with open(path, errors="replace") as f:
            for line in f:
                if _IF.match(line):
                    depth += 1
                elif _ENDIF.match(line):
                    depth -= 1
                m = _INCLUDE.match(line)
                if not m or depth:
                    continue
                header = m.group(1)
                if not any(os.path.isfile(os.path.join(p, header))
                           for p in (INCLUDE_DIR, *include_paths, os.path.dirname(path))):
                    raise _report.unsupported(
                        f"the Paddle header <{header}> in a C++ custom operator",
                        f" ({os.path.basename(path)} includes it; paddle_on_torch provides paddle/extension.h and "
                        "the public custom-operator headers it includes, not Paddle's internal C++ framework)")


def build(name, sources, extra_cxx_cflags=None, extra_cuda_cflags=None, extra_ldflags=None, extra_include_paths=None,
          extra_library_paths=None, build_directory=None, verbose=False, use_cuda=None):
    """Compile `sources` into `<build_directory>/<name>.so` (rebuilt when they or the flags change); its path."""
    from torch.utils import cpp_extension

    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"paddle.utils.cpp_extension: the extension name must be an identifier, got {name!r}")
    sources = [os.path.abspath(s) for s in sources]
    for s in sources:
        if not os.path.exists(s):
            raise FileNotFoundError(f"paddle.utils.cpp_extension: source file {s} does not exist")
    if use_cuda is None:
        use_cuda = any(_is_cuda_source(s) for s in sources)
    if use_cuda:
        require_cuda("load" if extra_cuda_cflags is not None else "CUDAExtension")
    check_includes(sources, extra_include_paths or ())
    registry, registry_key = registry_object(verbose)
    # the registry's key among the flags: a new registry object relinks the extension
    defines = [f"-DPADDLE_EXTENSION_NAME={name}", "-DPADDLE_ON_TORCH", f"-DPADDLE_ON_TORCH_REGISTRY={registry_key}"]
    defines += ["-DPADDLE_WITH_CUDA"] if use_cuda else []
    ldflags = [registry] + list(extra_ldflags or []) + [f"-L{p}" for p in extra_library_paths or []]
    with build_lock(build_directory):
        try:
            return cpp_extension.load(
                name=name, sources=sources,
                extra_cflags=CXX_FLAGS + defines + list(extra_cxx_cflags or []),
                extra_cuda_cflags=defines + list(extra_cuda_cflags or []) if use_cuda else None,
                extra_ldflags=ldflags, extra_include_paths=[INCLUDE_DIR] + list(extra_include_paths or []),
                build_directory=build_directory, verbose=verbose, with_cuda=use_cuda, is_python_module=False)
        except RuntimeError as e:
            raise translate_build_error(e, name) from None


# compiler messages that mean "this part of Paddle's C++ API is not in the header set", and the name to report;
# gcc quotes names with ‘’ in a UTF-8 locale and with '' otherwise
_Q, _UQ = "[\u2018']", "[\u2019']"
_MISSING = [
    (re.compile(r"fatal error: (paddle/[\w/.]+): No such file or directory"),
     lambda m: (f"the Paddle header <{m.group(1)}>", "paddle_on_torch provides paddle/extension.h and the public "
                "custom-operator headers it includes, not Paddle's internal C++ framework")),
    (re.compile(_Q + r"(\w+)" + _UQ + " is not a member of " + _Q + r"((?:paddle|phi|common)(?:::\w+)*)" + _UQ),
     lambda m: (f"{m.group(2)}::{m.group(1)}", "")),
    # gcc names the class as 'class paddle::Tensor' or, on a const object, 'const paddle::Tensor' {aka ...}
    (re.compile(_Q + r"(?:const )?(?:class )?(paddle::(?:Tensor|OpMetaInfoBuilder|CustomOpKernelContext))" + _UQ
                + r"(?: \{aka [^}]*\})? has no member named " + _Q + r"(\w+)" + _UQ),
     lambda m: (f"{m.group(1)}::{m.group(2)}", "")),
    (re.compile(_Q + r"(PD_\w+|PADDLE_\w+)" + _UQ + " was not declared in this scope"),
     lambda m: (m.group(1), "")),
    (re.compile(r"static assertion failed: paddle_on_torch: ([^\n]+)"),
     lambda m: ("a custom-op signature", ": " + m.group(1))),
]


def translate_build_error(e, name):
    """A torch build error, as NotImplementedError when it comes from something the header set lacks (the
    compiler output stays in the message), else as the RuntimeError it was."""
    text = str(e)
    for pattern, describe in _MISSING:
        m = pattern.search(text)
        if m:
            what, why = describe(m)
            detail = (f" (building custom operator extension '{name}' against paddle_on_torch's Paddle C++ API "
                      f"headers{'; ' + why if why and not why.startswith(':') else ''}){why if why.startswith(':') else ''}"
                      f"\n\ncompiler output:\n{text}")
            err = _report.unsupported(f"{what} in a C++ custom operator", detail)
            return err
    return RuntimeError(f"paddle.utils.cpp_extension: building custom operator extension '{name}' failed:\n{text}")
