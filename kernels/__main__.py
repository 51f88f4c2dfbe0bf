"""`python -m paddle_on_torch.kernels`: build the C++ kernels now (e.g. in a Docker build step) instead of on
first use.  Exits 1 when they cannot be built here."""
import sys

from .cpp import CPP

mod = CPP.load(verbose="-v" in sys.argv[1:])
if mod is None:
    sys.exit("paddle_on_torch: the C++ CPU kernels could not be built (see the warning above)")
print(f"paddle_on_torch: C++ CPU kernels ready: {mod.__file__}")
