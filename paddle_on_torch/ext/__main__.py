"""`python -m paddle_on_torch.ext`: build the C++ kernels into the cache now (e.g. right after pip install or
in a Docker build step) instead of on first use.  Exits 1 when they cannot be built here."""
import sys

from . import cache_root, load

mod = load(verbose="-v" in sys.argv[1:])
if mod is None:
    sys.exit("paddle_on_torch: the C++ kernels could not be built (see the warning above)")
print(f"paddle_on_torch C++ kernels ({mod.capability()}) built in {cache_root()}: {mod.__file__}")

from ..ops import rnn as _rnn  # noqa: E402  (the whole-sequence RNN kernel, a module of its own)

rnn_mod = _rnn.kernel()
if rnn_mod is None:
    sys.exit("paddle_on_torch: the C++ RNN kernel could not be built (see the warning above)")
print(f"paddle_on_torch C++ RNN kernel built in {cache_root()}: {rnn_mod.__file__}")

from . import load_optim  # noqa: E402  (the optimizer steps, built without floating-point contraction)

optim_mod = load_optim(verbose="-v" in sys.argv[1:])
if optim_mod is None:
    sys.exit("paddle_on_torch: the C++ optimizer kernel could not be built (see the warning above)")
print(f"paddle_on_torch C++ optimizer kernel built in {cache_root()}: {optim_mod.__file__}")
