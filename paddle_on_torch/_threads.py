"""Paddle's CPU thread default, applied at `import paddle` before any torch work.

Real Paddle's import sets `OMP_NUM_THREADS=1` unless the user set it, and warns on standard error when
it is above 1.  torch otherwise starts one thread per core, and on a busy machine its OpenMP threads
contend with each other and with everything else: small programs ran 30-70x slower than under
Paddle.  So paddle_on_torch does what Paddle does and gives torch the same number of intra-op threads.
"""
import os
import sys

_WARNING = ("WARNING: OMP_NUM_THREADS set to {n}, not 1. The computation speed will not be optimized if you "
            "use data parallel. It will fail if this PaddlePaddle binary is compiled with OpenBlas since OpenBlas "
            "does not support multi-threads.")


def apply():
    """Set OMP_NUM_THREADS as Paddle's import does (before torch is imported, so that OpenMP and MKL read
    it at load), then torch's intra-op threads to match (torch may have been imported already)."""
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
