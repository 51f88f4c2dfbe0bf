"""The C++ CPU kernels (the sources in the top-level ext/ folder) as one module, `paddle_on_torch.kernels._C`.

`CPP.load()` returns the module, or None with one warning when it cannot be had here (no compiler, no ninja,
headers missing, ...); callers then take their torch-op path.  Where it comes from, in order:

1. the extension setup.py built at install time (`pip install --no-build-isolation -e .` with a compiler), when
   it was built from these sources (`source_hash`: an edit of ext/ after the install makes it stale), for this torch
   and this CPU's capability; setup.py writes what it built from beside it (`_C.json`), so that a stale build is
   passed over without being imported (importing it would register its kernels with the dispatcher);
2. else a build of the same sources with torch.utils.cpp_extension.load (ninja: only what changed is rebuilt)
   in a folder per torch installation and flags (`build_dir`); a first build says one line on stderr, as it
   takes minutes.

This file is also read by setup.py (by path, before the package is installed), so it imports nothing of the
package and imports torch only inside functions.
"""
import contextlib
import glob
import os
import sys
import threading
import time
import warnings

# ext/ beside this folder: the repository's top level in a checkout or an editable install, and
# paddle_on_torch/ext (package data, see setup.py) in an installed wheel
SOURCE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ext")

_lock = threading.Lock()


def sources(root=SOURCE_DIR):
    return sorted(glob.glob(os.path.join(root, "*.cpp")))


def source_hash(root=SOURCE_DIR):
    """A hash of the C++ sources (ext/*.cpp and *.h): what an install-time build records, to be taken only while
    the sources are unchanged."""
    import hashlib

    h = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(root, "*.cpp")) + glob.glob(os.path.join(root, "*.h"))):
        h.update(os.path.basename(path).encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


BUILD_INFO = "_C.json"  # written by setup.py beside the extension it built: {"source_hash", "torch", "capability"}


def capability():
    """The instruction set the kernels are built for on this CPU: AVX512, AVX2 or DEFAULT."""
    import torch

    cap = torch.backends.cpu.get_cpu_capability()
    return "AVX512" if cap in ("AVX512", "AVX512_BF16", "AMX") else "AVX2" if cap == "AVX2" else "DEFAULT"


def compile_flags(cap=None):
    """Compiler flags for `cap` (default: this CPU).  ATen's Vectorized<float> uses AVX-512 only with the
    CPU_CAPABILITY defines, and at::parallel_for runs serially without OpenMP."""
    cap = cap or capability()
    flags = ["-O3", "-fopenmp", "-DNDEBUG", f"-DCPU_CAPABILITY={cap}", f"-DCPU_CAPABILITY_{cap}"]
    if cap == "AVX512":
        flags += ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mfma", "-mf16c"]
    elif cap == "AVX2":
        flags += ["-mavx2", "-mfma", "-mf16c"]
    return flags


LINK_FLAGS = ["-fopenmp"]


def build_dir(flags):
    """Where the JIT build of `flags` against this torch lives: $PADDLE_ON_TORCH_EXT_CACHE (default
    ~/.cache/paddle_on_torch/ext), one folder per torch installation, flags and source folder, so that two
    environments, two CPU capabilities or two checkouts on one machine do not rebuild over each other's objects
    (ninja rebuilds every object whose command changed, and the source paths are in the commands)."""
    import hashlib

    import torch

    root = os.environ.get("PADDLE_ON_TORCH_EXT_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "paddle_on_torch", "ext")
    key = hashlib.sha256("\n".join([torch.__file__, torch.__version__, SOURCE_DIR, *flags]).encode()).hexdigest()[:12]
    return os.path.join(root, key)


def _installed():
    """The extension built at install time, if it was built from these sources for this torch and CPU (else None)."""
    import importlib
    import json

    import torch

    mod = sys.modules.get("paddle_on_torch.kernels._C")  # the tests' stand-in, or a module loaded before
    if mod is None:
        try:
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), BUILD_INFO)) as f:
                info = json.load(f)
        except (OSError, ValueError):  # not built at install time
            return None
        if info.get("source_hash") != source_hash() or info.get("capability") != capability():
            return None
        try:  # by module name, so that it is one module however it is reached
            mod = importlib.import_module("paddle_on_torch.kernels._C")
        except ImportError:  # built against another torch (missing symbols)
            return None
    if mod.torch_version != torch.__version__.split("+")[0] or mod.capability() != capability():
        return None
    return mod


@contextlib.contextmanager
def build_lock(folder):
    """Hold `folder`'s build lock (for torch.utils.cpp_extension builds into it).  torch's own lock (a `lock`
    file) outlives a build killed mid-way, and every later load then waits on it forever.  Ours is an flock,
    released by the kernel when its process dies: whoever holds it is the only builder, so a torch lock found
    then is stale."""
    import fcntl

    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "pot.lock"), "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        stale = os.path.join(folder, "lock")
        if os.path.exists(stale):
            os.remove(stale)
        yield


@contextlib.contextmanager
def _this_environments_ninja():
    """torch runs `ninja` from PATH.  A script run with the environment's python but without the environment
    activated finds the system's ninja instead, of another version; two ninja versions read each other's build
    log as changed commands and rebuild every object in turn.  So the build takes the ninja installed beside this
    interpreter (requirements.txt pins it) when there is one."""
    import sysconfig

    scripts = sysconfig.get_path("scripts")
    path = os.environ.get("PATH", "")
    if not os.path.isfile(os.path.join(scripts, "ninja")) or path.split(os.pathsep)[0] == scripts:
        yield
        return
    os.environ["PATH"] = scripts + os.pathsep + path
    try:
        yield
    finally:
        os.environ["PATH"] = path


def _jit_build(verbose):
    from torch.utils import cpp_extension

    flags = compile_flags()
    folder = build_dir(flags)
    with build_lock(folder), _this_environments_ninja():
        return _load_announced(cpp_extension, folder, flags, verbose)


def _load_announced(cpp_extension, folder, flags, verbose):
    # a load of an up-to-date build returns in well under a second; anything slower is a build: say so once
    start, building = time.monotonic(), threading.Event()

    def announce():
        building.set()
        print("paddle_on_torch: building the C++ CPU kernels (ext/*.cpp) for this torch and CPU, once; "
              "this takes a few minutes ...", file=sys.stderr, flush=True)

    timer = threading.Timer(2.0, announce)
    timer.daemon = True
    timer.start()
    try:
        mod = cpp_extension.load(name="paddle_on_torch_C", sources=sources(), extra_include_paths=[SOURCE_DIR],
                                 extra_cflags=flags, extra_ldflags=LINK_FLAGS, build_directory=folder,
                                 verbose=verbose)
    finally:
        timer.cancel()
    if building.is_set():
        print(f"paddle_on_torch: C++ CPU kernels built in {time.monotonic() - start:.0f} s", file=sys.stderr,
              flush=True)
    return mod


class CppModule:
    """The C++ kernels, loaded on first use.  `module` is the loaded module (None before), for hot-path checks;
    `load()` loads it (or returns None with one warning when it cannot be had here)."""

    what = "C++ CPU kernels"

    def __init__(self):
        self.module = None
        self.failed = False

    def load(self, verbose=False):
        if self.module is not None or self.failed:
            return self.module
        with _lock:
            if self.module is None and not self.failed:
                try:
                    self.module = _installed() or _jit_build(verbose)
                except Exception as e:  # no compiler, no ninja, headers missing, ...
                    self.failed = True
                    msg = str(e).strip().splitlines()
                    warnings.warn(f"paddle_on_torch: {self.what} unavailable, using torch ops instead "
                                  f"({type(e).__name__}: {msg[-1] if msg else ''})", RuntimeWarning, stacklevel=3)
        return self.module


CPP = CppModule()


def load(verbose=False):
    """The compiled kernels module, or None when it cannot be had here."""
    return CPP.load(verbose)


def empty_cache():
    """Give the C++ kernels' cached free output blocks back to the system (see ext/fused.cpp: big outputs).
    Outputs of 1 MiB and more are taken from, and returned to, a cache of at most
    $PADDLE_ON_TORCH_KERNEL_CACHE_MB MiB (default 512, 0 turns it off), so that a fresh output does not fault
    its pages in again."""
    if CPP.module is not None:
        CPP.module.empty_cache()


def cached_bytes():
    """Bytes held in the C++ kernels' cache of free output blocks (0 before the kernels are loaded)."""
    return CPP.module.cached_bytes() if CPP.module is not None else 0


def set_cache_limit(nbytes):
    """Bound the C++ kernels' cache of free output blocks to `nbytes` (0 turns it off; the start-up value is
    $PADDLE_ON_TORCH_KERNEL_CACHE_MB MiB, default 512).  Returns the previous bound, or None without the kernels."""
    mod = load()
    return None if mod is None else mod.set_cache_limit(int(nbytes))
