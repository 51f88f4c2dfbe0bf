"""`python -m paddle_on_torch.ext`: build the C++ kernels into the cache now (e.g. right after pip install or
in a Docker build step) instead of on first use.  Exits 1 when they cannot be built here."""
import sys

from . import cache_root, load

mod = load(verbose="-v" in sys.argv[1:])
if mod is None:
    sys.exit("paddle_on_torch: the C++ kernels could not be built (see the warning above)")
print(f"paddle_on_torch C++ kernels ({mod.capability()}) built in {cache_root()}: {mod.__file__}")
