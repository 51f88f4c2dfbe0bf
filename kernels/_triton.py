"""What the Triton kernels of the fused ops share (kernels/<op>_triton.py, the CUDA kernels of kernels/<op>.py): block
and warp sizes.  The Triton modules run on CPU tensors only under TRITON_INTERPRET=1 (set before they are imported),
which the tests use; importing paddle_on_torch never imports them (each op imports its Triton module on its first
CUDA call)."""
import triton


def _block(n):
    return max(16, triton.next_power_of_2(n))


def _warps(block):
    """Warps for a program that holds `block` elements in registers: more warps for wider rows, so that each
    thread keeps at most ~64 of them (4096 fp32 per row on 4 warps spills on a Hopper SM)."""
    return 32 if block >= 32768 else 16 if block >= 8192 else 8 if block >= 2048 else 4
