"""Compiling Paddle custom-operator sources against paddle_on_torch's header set, with torch's toolchain.

The sources include <paddle/extension.h>; paddle_on_torch/include provides it (and the headers it includes) on
ATen.  `build()` compiles them, together with paddle_on_torch/include/paddle_on_torch/registry.cc (which turns the
library's PD_BUILD_OP table into torch operators), with torch.utils.cpp_extension.load: ninja, one folder per
extension, rebuilt only when a source or a flag changes.  A compile error that comes from a part of Paddle's C++
API the header set does not provide is reported as NotImplementedError naming it.
"""
import fcntl
import os
import re

from ... import _report

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
    defines = [f"-DPADDLE_EXTENSION_NAME={name}", "-DPADDLE_ON_TORCH"] + (["-DPADDLE_WITH_CUDA"] if use_cuda else [])
    ldflags = list(extra_ldflags or []) + [f"-L{p}" for p in extra_library_paths or []]
    os.makedirs(build_directory, exist_ok=True)
    # torch's own lock file outlives a build killed mid-way (every later build then waits on it); ours is an
    # flock, released when its process dies, so a torch lock found while holding it is stale
    with open(os.path.join(build_directory, "pot.lock"), "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        stale = os.path.join(build_directory, "lock")
        if os.path.exists(stale):
            os.remove(stale)
        try:
            return cpp_extension.load(
                name=name, sources=sources + [REGISTRY_SOURCE],
                extra_cflags=CXX_FLAGS + defines + list(extra_cxx_cflags or []),
                extra_cuda_cflags=defines + list(extra_cuda_cflags or []) if use_cuda else None,
                extra_ldflags=ldflags, extra_include_paths=[INCLUDE_DIR] + list(extra_include_paths or []),
                build_directory=build_directory, verbose=verbose, with_cuda=use_cuda, is_python_module=False)
        except RuntimeError as e:
            raise translate_build_error(e, name) from None


# compiler messages that mean "this part of Paddle's C++ API is not in the header set", and the name to report
_MISSING = [
    (re.compile(r"fatal error: (paddle/[\w/.]+): No such file or directory"),
     lambda m: (f"the Paddle header <{m.group(1)}>", "paddle_on_torch provides paddle/extension.h and the public "
                "custom-operator headers it includes, not Paddle's internal C++ framework")),
    (re.compile(r"'(\w+)' is not a member of '((?:paddle|phi|common)(?:::\w+)*)'"),
     lambda m: (f"{m.group(2)}::{m.group(1)}", "")),
    (re.compile(r"'class (paddle::(?:Tensor|OpMetaInfoBuilder|CustomOpKernelContext))' has no member named '(\w+)'"),
     lambda m: (f"{m.group(1)}::{m.group(2)}", "")),
    (re.compile(r"'(PD_\w+|PADDLE_\w+)' was not declared in this scope"),
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
