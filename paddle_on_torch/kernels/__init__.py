"""Triton kernels (CUDA; CPU only under TRITON_INTERPRET=1, for tests)."""
