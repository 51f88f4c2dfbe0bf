"""Build and load the C++ CPU kernels on first use (cached by source hash).

`load()` returns the compiled module, or None (with one warning) when no compiler / ninja is
available or the build fails; callers then use the reference compositions.  The build directory is
`$PADDLE_ON_TORCH_EXT_CACHE/<hash>` (default `~/.cache/paddle_on_torch/ext/<hash>`); the hash
covers the source, the compile flags, the torch version and the CPU capability, so a stale build
is never picked up.
"""
import hashlib
import importlib.util
import os
import sys
import threading
import warnings

_lock = threading.Lock()


def _capability():
    import torch

    try:
        return torch.backends.cpu.get_cpu_capability()
    except Exception:  # pragma: no cover - very old torch
        return "DEFAULT"


def _flags(cap):
    flags = ["-O3", "-fopenmp", "-DNDEBUG"]
    if cap in ("AVX512", "AVX512_BF16", "AMX"):
        flags += ["-DCPU_CAPABILITY=AVX512", "-DCPU_CAPABILITY_AVX512", "-mavx512f", "-mavx512bw",
                  "-mavx512vl", "-mavx512dq", "-mfma", "-mf16c"]
    elif cap == "AVX2":
        flags += ["-DCPU_CAPABILITY=AVX2", "-DCPU_CAPABILITY_AVX2", "-mavx2", "-mfma", "-mf16c"]
    else:
        flags += ["-DCPU_CAPABILITY=DEFAULT", "-DCPU_CAPABILITY_DEFAULT"]
    return flags


def cache_root():
    return os.environ.get("PADDLE_ON_TORCH_EXT_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "paddle_on_torch", "ext")


def _key(source, flags):
    import torch

    h = hashlib.sha256()
    for part in (source, " ".join(flags), torch.__version__, sys.version, sys.platform):
        h.update(part.encode())
    return h.hexdigest()[:16]


def _import_built(name, build_dir):
    """Import an already-built extension directly (skips the ninja up-to-date check)."""
    import torch  # noqa: F401  (the extension links against libtorch)

    for fn in os.listdir(build_dir):
        if fn.startswith(name) and fn.endswith(".so"):
            spec = importlib.util.spec_from_file_location(name, os.path.join(build_dir, fn))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
    return None


def _build(stem, source, flags, verbose):
    """Import the extension `stem` built from `source` with `flags`, building it first when the cache
    has no build of this exact source, flags, torch and Python."""
    from torch.utils import cpp_extension

    key = _key(source, flags)
    name = f"pot_{stem}_{key}"
    build_dir = os.path.join(cache_root(), key)
    os.makedirs(build_dir, exist_ok=True)
    mod = _import_built(name, build_dir)
    if mod is None:
        src = os.path.join(build_dir, f"{stem}.cpp")
        if not os.path.exists(src):
            tmp = f"{src}.{os.getpid()}"
            with open(tmp, "w") as f:
                f.write(source)
            os.replace(tmp, src)
        mod = cpp_extension.load(name=name, sources=[src], build_directory=build_dir,
                                 extra_cflags=flags, extra_ldflags=["-fopenmp"], verbose=verbose)
    return mod


def _warn_unavailable(what, fallback, e):
    msg = str(e).strip().splitlines()
    warnings.warn(f"paddle_on_torch: C++ {what} unavailable, using {fallback} "
                  f"({type(e).__name__}: {msg[-1] if msg else ''})", RuntimeWarning, stacklevel=4)


class CppModule:
    """One C++ module of this package, built on first use (see `_build`).  `load()` returns it, or None
    with one warning when it cannot be built here (no compiler, no ninja, headers missing, ...); callers
    then take their torch-op path.  `module` is the loaded module (None before), for hot-path checks."""

    def __init__(self, stem, what, fallback, extra_flags=()):
        self.stem, self.what, self.fallback, self.extra_flags = stem, what, fallback, list(extra_flags)
        self.module = None
        self.failed = False

    def load(self, verbose=False):
        if self.module is not None or self.failed:
            return self.module
        with _lock:
            if self.module is None and not self.failed:
                source = importlib.import_module(f"{__name__}.{self.stem}").SOURCE
                try:
                    self.module = _build(self.stem, source, _flags(_capability()) + self.extra_flags, verbose)
                except Exception as e:  # no compiler, no ninja, headers missing, ...
                    self.failed = True
                    _warn_unavailable(self.what, self.fallback, e)
        return self.module


FUSED = CppModule("fused_cpu", "kernels", "the reference compositions")
# the optimizer steps, without floating-point contraction (see optim_cpu.py): the same bits as the torch ops
OPTIM = CppModule("optim_cpu", "optimizer kernel", "torch ops for the optimizer step", ["-ffp-contract=off"])
RNN = CppModule("rnn_cpu", "RNN kernel", "torch's RNN ops")


def load(verbose=False):
    """The compiled `fused_cpu` module, or None when it cannot be built here."""
    return FUSED.load(verbose)


def load_optim(verbose=False):
    """The compiled `optim_cpu` module (the Adam, Momentum and SGD steps), or None when it cannot be built here."""
    return OPTIM.load(verbose)


def empty_cache():
    """Give the C++ kernels' cached free output blocks back to the system (see fused_cpu.py: big outputs).
    Outputs of 1 MiB and more are taken from, and returned to, a cache of at most
    $PADDLE_ON_TORCH_KERNEL_CACHE_MB MiB (default 512, 0 turns it off), so that a fresh output does not fault
    its pages in again."""
    if FUSED.module is not None:
        FUSED.module.empty_cache()


def cached_bytes():
    """Bytes held in the C++ kernels' cache of free output blocks (0 before the kernels are loaded)."""
    return FUSED.module.cached_bytes() if FUSED.module is not None else 0


def set_cache_limit(nbytes):
    """Bound the C++ kernels' cache of free output blocks to `nbytes` (0 turns it off; the start-up value is
    $PADDLE_ON_TORCH_KERNEL_CACHE_MB MiB, default 512).  Returns the previous bound, or None without the kernels."""
    mod = load()
    return None if mod is None else mod.set_cache_limit(int(nbytes))
