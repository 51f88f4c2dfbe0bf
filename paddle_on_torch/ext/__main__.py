"""`python -m paddle_on_torch.ext`: build the C++ kernels into the cache now (e.g. right after pip install or
in a Docker build step) instead of on first use.  Exits 1 when they cannot be built here."""
import sys

from . import cache_root, load, load_optim

verbose = "-v" in sys.argv[1:]
mod = load(verbose=verbose)
optim = load_optim(verbose=verbose)
if mod is None or optim is None:
    sys.exit("paddle_on_torch: the C++ kernels could not be built (see the warning above)")
print(f"paddle_on_torch C++ kernels ({mod.capability()}) built in {cache_root()}: {mod.__file__}, {optim.__file__}")
