"""`python -m paddle_on_torch.ext`: build the C++ kernels into the cache now (e.g. right after pip install or
in a Docker build step) instead of on first use.  Exits 1 when one cannot be built here."""
import sys

from . import FUSED, OPTIM, RNN, cache_root

for kernel in (FUSED, RNN, OPTIM):
    mod = kernel.load(verbose="-v" in sys.argv[1:])
    if mod is None:
        sys.exit(f"paddle_on_torch: the C++ {kernel.what} could not be built (see the warning above)")
    print(f"paddle_on_torch C++ {kernel.what} built in {cache_root()}: {mod.__file__}")
