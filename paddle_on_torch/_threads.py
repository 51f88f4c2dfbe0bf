"""Paddle's CPU thread default, applied at `import paddle` before any torch work, and the one switch to leave it.

Real Paddle's import sets `OMP_NUM_THREADS=1` unless the user set it, and warns on standard error when
it is above 1.  torch otherwise starts one thread per core, and on a busy machine its OpenMP threads
contend with each other and with everything else: small programs ran 30-70x slower than under
Paddle.  So paddle_on_torch does what Paddle does and gives torch the same number of intra-op threads.

`PADDLE_ON_TORCH_THREADS` (not Paddle's; README "Threads") leaves that default on a machine the program has to
itself: `auto` keeps torch's own count (one thread per physical core) and OMP_NUM_THREADS as the user left it,
a number N gives torch N intra-op threads (and OMP_NUM_THREADS=N when it is unset).  Either way Paddle's
warning is not printed: the user asked for the threads.
"""
import os
import sys

_WARNING = ("WARNING: OMP_NUM_THREADS set to {n}, not 1. The computation speed will not be optimized if you "
            "use data parallel. It will fail if this PaddlePaddle binary is compiled with OpenBlas since OpenBlas "
            "does not support multi-threads.")
SWITCH = "PADDLE_ON_TORCH_THREADS"


def requested():
    """What PADDLE_ON_TORCH_THREADS asks for: None (unset or empty: Paddle's default), "auto", or a count >= 1.
    Anything else is a ValueError naming the variable."""
    value = os.environ.get(SWITCH, "").strip().lower()
    if not value:
        return None
    if value == "auto":
        return "auto"
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"{SWITCH} must be 'auto' or a thread count of at least 1, not {value!r}")
    return n


def apply():
    """Set OMP_NUM_THREADS as Paddle's import does (before torch is imported, so that OpenMP and MKL read
    it at load), then torch's intra-op threads to match (torch may have been imported already); or follow
    PADDLE_ON_TORCH_THREADS.  Returns torch's intra-op thread count afterwards."""
    want = requested()
    if want == "auto":
        import torch

        return torch.get_num_threads()
    if want is not None:
        os.environ.setdefault("OMP_NUM_THREADS", str(want))
        import torch

        torch.set_num_threads(want)
        return want
    try:
        n = int(os.getenv("OMP_NUM_THREADS", "1"))
    except ValueError:  # Paddle reads a value it cannot parse as 1
        n = 1
    if n > 1:
        print(_WARNING.format(n=n), file=sys.stderr)
        print("PLEASE USE OMP_NUM_THREADS WISELY.", file=sys.stderr)
    os.environ["OMP_NUM_THREADS"] = str(n)
    import torch

    if n >= 1 and torch.get_num_threads() != n:  # (0 or less: torch refuses it; its default stays)
        torch.set_num_threads(n)
    return n
