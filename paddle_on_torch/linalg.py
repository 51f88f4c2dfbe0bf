"""paddle.linalg: the functions of paddle_on_torch/tensor/linalg.py under Paddle's linalg names."""
from . import _report
from .tensor.linalg import (  # noqa: F401
    cholesky, cholesky_inverse, cholesky_solve, cond, corrcoef, cov, det, eig, eigh, eigvals, eigvalsh,
    householder_product, lstsq, lu, lu_solve, lu_unpack, matrix_exp, matrix_norm,
    matrix_power, matrix_rank, matrix_transpose, multi_dot, norm, ormqr, pca_lowrank, pinv, qr, slogdet, solve, svd,
    svd_lowrank, svdvals, triangular_solve, vecdot, vector_norm)
from .tensor.math import cross, diagonal, matmul  # noqa: F401
from .tensor.math import inverse as inv  # noqa: F401

__all__ = [
    "cholesky", "cholesky_inverse", "norm", "matrix_norm", "vecdot", "vector_norm", "cond", "cov", "corrcoef",
    "cross", "inv", "eig", "eigvals", "multi_dot", "matrix_rank", "matrix_transpose", "matmul", "svd", "svdvals",
    "qr", "householder_product", "pca_lowrank", "svd_lowrank", "lu", "lu_solve", "lu_unpack", "matrix_exp",
    "matrix_power", "det", "slogdet", "eigh", "eigvalsh", "pinv", "solve", "cholesky_solve", "triangular_solve",
    "lstsq", "ormqr", "diagonal",
]
# fp8_fp8_half_gemm_fused (a CUDA fp8 kernel) is not provided.

__getattr__ = _report.module_getattr("paddle.linalg")
