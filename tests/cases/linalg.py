"""paddle.linalg and the linalg functions Paddle keeps at top level (norm, dist, histogram, bincount, cdist, ...),
plus paddle.einsum.

Decompositions whose sign/phase is not unique are checked through reconstruction or absolute values.
"""
import numpy as np

from tests.cases import case

_A = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]]  # symmetric positive definite
_B = [[1.0, 2.0, 0.0], [3.0, -1.0, 2.0], [0.5, 4.0, 1.0]]   # general, non-singular


def _spd(paddle, dtype="float32"):
    return paddle.to_tensor(_A, dtype=dtype)


def _gen(paddle, dtype="float32"):
    return paddle.to_tensor(_B, dtype=dtype)


def _batch(paddle, dtype="float32"):
    return paddle.stack([paddle.to_tensor(_A, dtype=dtype), paddle.to_tensor(_B, dtype=dtype)])


# ---------------------------------------------------------------- norms


@case
def norm_default_and_p(paddle):
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    return [paddle.linalg.norm(x), paddle.linalg.norm(x, p=1), paddle.linalg.norm(x, p=3, axis=1),
            paddle.linalg.norm(x, p=float("inf")), paddle.linalg.norm(x, p=-float("inf"), axis=0),
            paddle.linalg.norm(x, p=0), paddle.linalg.norm(x, p=0.5, axis=-1, keepdim=True)]


@case
def norm_string_p(paddle):
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    return [paddle.linalg.norm(x, p="fro"), paddle.linalg.norm(x, p="fro", axis=1),
            paddle.linalg.norm(x, p="nuc"), paddle.linalg.norm(x, p="fro", axis=[0, 1], keepdim=True),
            paddle.norm(x, p="fro", keepdim=True)]


@case
def norm_matrix_orders(paddle):
    x = _batch(paddle, "float64")
    return [paddle.linalg.norm(x, p=p, axis=[-2, -1]) for p in (1, -1, 2, -2, float("inf"), -float("inf"), "nuc")]


@case
def norm_axis_list_of_three(paddle):
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    return [paddle.linalg.norm(x, p=2, axis=[0, 1, 2]), paddle.linalg.norm(x, p=float("inf"), axis=[0, 2]),
            paddle.linalg.norm(x, p=3, axis=(0, 1, 2)), paddle.linalg.vector_norm(x, p=3, axis=(0, 2)),
            paddle.linalg.vector_norm(x, p=float("inf"), axis=(0, 2)), paddle.linalg.vector_norm(x, p=0, axis=(0, 2))]


@case
def norm_two_axes_p0_is_matrix_norm_and_fails(paddle):
    return paddle.linalg.norm(paddle.ones([2, 3, 4]), p=0, axis=(1, 2))


@case
def norm_complex_gives_real(paddle):
    x = paddle.to_tensor([[1 + 1j, 2j], [3.0 + 0j, -1j]])
    return [paddle.linalg.norm(x), paddle.linalg.norm(x, p=1, axis=0), paddle.linalg.vector_norm(x, p=3)]


@case
def norm_int_input_fails(paddle):
    return paddle.linalg.norm(paddle.to_tensor([1, 2]))


@case
def norm_bad_matrix_p(paddle):
    return paddle.linalg.norm(paddle.ones([2, 2]), p=3, axis=[0, 1])


@case
def norm_method_and_dtype(paddle):
    x = paddle.to_tensor([3.0, 4.0])
    return [x.norm(), x.norm(p=1), paddle.linalg.norm(x, dtype="float64")]


@case
def vector_norm_cases(paddle):
    x = paddle.arange(12, dtype="float64").reshape([3, 4]) - 5
    return [paddle.linalg.vector_norm(x), paddle.linalg.vector_norm(x, p=1, axis=0),
            paddle.linalg.vector_norm(x, p=float("inf"), axis=[0, 1]), paddle.linalg.vector_norm(x, keepdim=True),
            paddle.linalg.vector_norm(x, p=0, axis=1, keepdim=True)]


@case
def vector_norm_string_p_fails(paddle):
    return paddle.linalg.vector_norm(paddle.ones([2]), p="fro")


@case
def matrix_norm_cases(paddle):
    x = paddle.arange(18, dtype="float32").reshape([2, 3, 3]) / 7 - 1
    return [paddle.linalg.matrix_norm(x), paddle.linalg.matrix_norm(x, p=1), paddle.linalg.matrix_norm(x, p="nuc"),
            paddle.linalg.matrix_norm(x, p=float("inf"), axis=[0, 2]),
            paddle.linalg.matrix_norm(x, p=2, keepdim=True)]


@case
def matrix_norm_bad_axis(paddle):
    return paddle.linalg.matrix_norm(paddle.ones([2, 2]), axis=[0])


@case
def dist_cases(paddle):
    x = paddle.to_tensor([[3.0, 3.0], [3.0, 3.0]])
    y = paddle.to_tensor([[3.0, 3.0], [3.0, 1.0]])
    z = paddle.to_tensor([1.0, 2.0])
    return [paddle.dist(x, y), paddle.dist(x, y, p=0), paddle.dist(x, z, p=float("inf")),
            paddle.dist(x, z, p=-float("inf")), paddle.dist(x, z, p=1.5), x.dist(z)]


@case
def dist_int_fails(paddle):
    return paddle.dist(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4]))


@case(rtol=1e-5)  # float32 SVD/inverse
def cond_cases(paddle):
    x = _gen(paddle)
    return [paddle.linalg.cond(x), paddle.linalg.cond(x, p="fro"), paddle.linalg.cond(x, p="nuc"),
            paddle.linalg.cond(x, p=1), paddle.linalg.cond(x, p=-1), paddle.linalg.cond(x, p=float("inf")),
            paddle.linalg.cond(x, p=-2), paddle.linalg.cond(_batch(paddle, "float64"))]


@case
def cond_rectangular_svd_only(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [0.0, 1.0, 4.0]])
    return paddle.linalg.cond(x)


@case
def cond_rectangular_fro_fails(paddle):
    return paddle.linalg.cond(paddle.ones([2, 3]), p="fro")


@case
def cond_bad_p_fails(paddle):
    return paddle.linalg.cond(paddle.eye(2), p=3)


@case
def cond_vector_fails(paddle):
    return paddle.linalg.cond(paddle.ones([3]))


# ---------------------------------------------------------------- determinants, inverses


@case(rtol=1e-5)
def det_and_slogdet(paddle):
    return [paddle.linalg.det(_gen(paddle)), paddle.linalg.det(_batch(paddle, "float64")),
            paddle.linalg.slogdet(_gen(paddle)), paddle.linalg.slogdet(_batch(paddle, "float64")),
            _batch(paddle).slogdet()]


@case(rtol=1e-5)
def det_complex(paddle):
    x = paddle.to_tensor([[1 + 1j, 2.0 + 0j], [0.5j, 3.0 - 1j]])
    return [paddle.linalg.det(x), paddle.linalg.slogdet(x.astype("complex128"))]


@case
def det_not_square_fails(paddle):
    return paddle.linalg.det(paddle.ones([2, 3]))


@case
def det_int_fails(paddle):
    return paddle.linalg.det(paddle.to_tensor([[1, 2], [3, 4]]))


@case(rtol=1e-5)
def inv_cases(paddle):
    return [paddle.linalg.inv(_gen(paddle)), paddle.inverse(_batch(paddle, "float64")), _spd(paddle).inverse()]


@case
def inv_singular_fails(paddle):
    return paddle.linalg.inv(paddle.to_tensor([[1.0, 2.0], [2.0, 4.0]]))


@case
def inv_not_square_fails(paddle):
    return paddle.linalg.inv(paddle.ones([2, 3]))


@case(rtol=1e-4, atol=1e-5)
def pinv_cases(paddle):
    r = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return [paddle.linalg.pinv(r), paddle.linalg.pinv(_spd(paddle, "float64"), hermitian=True),
            paddle.linalg.pinv(paddle.to_tensor([[1.0, 2.0], [2.0, 4.0]]), rcond=1e-5), r.pinv()]


@case(rtol=1e-4, atol=1e-5)
def pinv_rcond_forms(paddle):
    """rcond as a cutoff relative to the largest singular value: a float, a 0-D Tensor, one per batch matrix
    (broadcast as Paddle's), with hermitian=True; a complex matrix's result is the conjugate of the
    pseudo-inverse (Paddle transposes U and Vh without conjugating them), unless hermitian."""
    r = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    b = paddle.to_tensor(np.arange(12, dtype="float32").reshape(2, 3, 2) / 10 + 1)
    c = paddle.to_tensor([[1 + 1j, 2], [3, 4j]], "complex64")
    h = paddle.to_tensor([[2, 1 + 1j], [1 - 1j, 3]], "complex64")
    return [paddle.linalg.pinv(r, rcond=0.5), paddle.linalg.pinv(r, rcond=paddle.to_tensor(0.5)),
            paddle.linalg.pinv(r.astype("float64"), rcond=0.1),
            paddle.linalg.pinv(b, rcond=paddle.to_tensor([0.1, 0.5])),
            paddle.linalg.pinv(paddle.to_tensor([[2.0, 1.0], [1.0, 2.0]]), hermitian=True, rcond=0.5),
            paddle.linalg.pinv(c, rcond=0.1), paddle.linalg.pinv(c.astype("complex128")),
            paddle.linalg.pinv(h, hermitian=True)]


@case
def histogram_range_as_paddle(paddle):
    """min == max (any value) takes the data's range, NaN skipped; a range of one value is widened by 1; an integer
    input truncates min / max; the bins are computed in the input's type; an empty input gives float32 zeros."""
    h = paddle.to_tensor([0.5, 1, 1.5, 2, 2.5, 2.9, float("nan"), 7.0])
    ints = paddle.to_tensor([1, 5, 3, 9])
    return [paddle.histogram(h, bins=4), paddle.histogram(h, bins=3, min=1, max=2.5),
            paddle.histogram(h, bins=3, min=1, max=2.5, weight=paddle.to_tensor([1, 2, 3, 4, 5, 6, 7, float("inf")])),
            paddle.histogram(h, bins=3, min=1, max=2.5, density=True), paddle.histogram(paddle.full([3], 2.0), bins=3),
            paddle.histogram(ints, bins=4), paddle.histogram(ints, bins=4, min=2, max=2),
            paddle.histogram(ints, bins=4, min=1.9, max=8.5), paddle.histogram(ints, bins=4, weight=ints),
            paddle.histogram(paddle.to_tensor([[1.0, 5.0], [3.0, 9.0]], "float64"), bins=4, density=True),
            paddle.histogram(paddle.to_tensor([0.1, 0.2, 0.30000001, 0.4]), bins=3),
            paddle.histogram(paddle.zeros([0]), 3)]


@case(rtol=1e-5)
def matrix_power_cases(paddle):
    x = _gen(paddle)
    return [paddle.linalg.matrix_power(x, 0), paddle.linalg.matrix_power(x, 3), paddle.linalg.matrix_power(x, -2),
            _batch(paddle, "float64").matrix_power(2)]


@case
def matrix_power_not_square_fails(paddle):
    return paddle.linalg.matrix_power(paddle.ones([2, 3]), 2)


@case(rtol=1e-5)
def matrix_exp_cases(paddle):
    return [paddle.linalg.matrix_exp(_gen(paddle) / 4), paddle.linalg.matrix_exp(_batch(paddle, "float64")),
            paddle.linalg.matrix_exp(paddle.to_tensor(1.5)), paddle.linalg.matrix_exp(paddle.to_tensor([[0.5]]))]


@case
def matrix_exp_int_fails(paddle):
    return paddle.linalg.matrix_exp(paddle.to_tensor([[1, 2], [3, 4]]))


@case
def matrix_rank_cases(paddle):
    s = paddle.to_tensor([[1.0, 2.0], [2.0, 4.0]])
    return [paddle.linalg.matrix_rank(_gen(paddle)), paddle.linalg.matrix_rank(s),
            paddle.linalg.matrix_rank(_batch(paddle, "float64")), paddle.linalg.matrix_rank(_spd(paddle), tol=2.5),
            paddle.linalg.matrix_rank(_spd(paddle), hermitian=True),
            paddle.linalg.matrix_rank(_spd(paddle), atol=2.0, rtol=0.1)]


@case
def matrix_rank_tol_and_atol_fails(paddle):
    return paddle.linalg.matrix_rank(paddle.eye(2), tol=1.0, atol=1.0)


@case
def multi_dot_cases(paddle):
    a = paddle.arange(6, dtype="float32").reshape([2, 3])
    b = paddle.arange(12, dtype="float32").reshape([3, 4]) / 3
    c = paddle.ones([4])
    return [paddle.linalg.multi_dot([a, b]), paddle.linalg.multi_dot([a, b, c]),
            paddle.linalg.multi_dot([paddle.ones([3]), b, c])]


@case
def multi_dot_one_tensor_fails(paddle):
    return paddle.linalg.multi_dot([paddle.ones([2, 2])])


@case
def multi_dot_mixed_dtype_fails(paddle):
    return paddle.linalg.multi_dot([paddle.ones([2, 2]), paddle.ones([2, 2], dtype="float64")])


# ---------------------------------------------------------------- decompositions


@case(rtol=1e-5)
def cholesky_cases(paddle):
    return [paddle.linalg.cholesky(_spd(paddle)), paddle.linalg.cholesky(_spd(paddle, "float64"), upper=True),
            paddle.cholesky(paddle.stack([_spd(paddle), paddle.eye(3)]))]


@case
def cholesky_not_pd_fails(paddle):
    return paddle.linalg.cholesky(paddle.to_tensor([[1.0, 2.0], [2.0, 1.0]]))


@case
def cholesky_not_square_fails(paddle):
    return paddle.linalg.cholesky(paddle.ones([2, 3]))


@case(rtol=1e-4, atol=1e-5)
def cholesky_solve_and_inverse(paddle):
    l_ = paddle.linalg.cholesky(_spd(paddle))
    u = paddle.linalg.cholesky(_spd(paddle), upper=True)
    b = paddle.to_tensor([[1.0, 0.0], [2.0, 1.0], [0.5, -1.0]])
    return [paddle.linalg.cholesky_solve(b, l_), paddle.linalg.cholesky_solve(b, u, upper=True),
            paddle.linalg.cholesky_inverse(l_), paddle.linalg.cholesky_inverse(u, upper=True)]


@case
def cholesky_inverse_batch_fails(paddle):
    return paddle.linalg.cholesky_inverse(paddle.ones([2, 2, 2]))


@case(rtol=1e-4, atol=1e-5)
def svd_reconstruct_and_values(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]])
    u, s, vh = paddle.linalg.svd(x)
    uf, sf, vhf = paddle.linalg.svd(x, full_matrices=True)
    xb = _batch(paddle, "float64")
    ub, sb, vhb = paddle.linalg.svd(xb)
    return [s, u @ paddle.diag(s) @ vh, uf.shape, vhf.shape, (ub * sb.unsqueeze(-2)) @ vhb, sb,
            paddle.linalg.svdvals(x), u.abs(), vh.abs()]


@case
def svd_int_fails(paddle):
    return paddle.linalg.svd(paddle.to_tensor([[1, 2], [3, 4]]))


@case(rtol=1e-4, atol=1e-5)
def qr_modes(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.5]])
    q, r = paddle.linalg.qr(x)
    qc, rc = paddle.linalg.qr(x, mode="complete")
    qb, rb = _batch(paddle, "float64").qr()
    return [q @ r, q.shape, r.abs(), qc.shape, rc.shape, qc @ rc, paddle.linalg.qr(x, mode="r").abs(), qb @ rb]


@case
def qr_bad_mode_fails(paddle):
    return paddle.linalg.qr(paddle.eye(2), mode="x")


@case(rtol=1e-5)
def lu_and_unpack(paddle):
    lu, piv = paddle.linalg.lu(_gen(paddle))
    lu2, piv2, info = paddle.linalg.lu(_batch(paddle, "float64"), get_infos=True)
    p, l_, u = paddle.linalg.lu_unpack(lu, piv)
    pb, lb, ub = lu2.lu_unpack(piv2)
    return [lu, piv, lu2, piv2, info, p, l_, u, pb @ lb @ ub]


@case(rtol=1e-5)
def lu_rectangular(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
    lu, piv = paddle.linalg.lu(x)
    return [lu, piv, paddle.linalg.lu_unpack(lu, piv), paddle.linalg.lu(x.t())]


@case(rtol=1e-5)
def lu_unpack_partial(paddle):
    lu, piv = paddle.linalg.lu(_gen(paddle))
    # the parts not unpacked are uninitialised tensors in Paddle (reading them raises); compare the rest
    return [paddle.linalg.lu_unpack(lu, piv, unpack_ludata=False)[0],
            paddle.linalg.lu_unpack(lu, piv, unpack_pivots=False)[1:]]


@case(rtol=1e-4, atol=1e-5)
def lu_solve_cases(paddle):
    a = _gen(paddle)
    b = paddle.to_tensor([[1.0, 0.0], [2.0, 1.0], [0.5, -1.0]])
    lu, piv = paddle.linalg.lu(a)
    return [paddle.linalg.lu_solve(b, lu, piv), paddle.linalg.lu_solve(b, lu, piv, trans="T")]


@case
def lu_solve_bad_rows_fails(paddle):
    lu, piv = paddle.linalg.lu(paddle.eye(3))
    return paddle.linalg.lu_solve(paddle.ones([2, 1]), lu, piv)


@case(rtol=1e-4, atol=1e-5)
def eig_real_input_is_complex(paddle):
    x = paddle.to_tensor([[2.0, 0.0], [0.0, 3.0]])
    w, v = paddle.linalg.eig(x)
    wr = paddle.linalg.eigvals(paddle.to_tensor([[0.0, -1.0], [1.0, 0.0]], dtype="float64"))
    return [w, v, wr, paddle.linalg.eigvals(_batch(paddle)).abs().sort(axis=-1)]


@case(rtol=1e-4, atol=1e-5)
def eig_reconstruct(paddle):
    x = _gen(paddle, "float64")
    w, v = x.eig()
    return [w.dtype, v.dtype, v @ paddle.diag(w) @ paddle.linalg.inv(v)]


@case
def eigvals_not_square_fails(paddle):
    return paddle.linalg.eigvals(paddle.ones([2, 3]))


@case(rtol=1e-4, atol=1e-5)
def eigh_and_eigvalsh(paddle):
    w, v = paddle.linalg.eigh(_spd(paddle))
    wu, vu = paddle.linalg.eigh(_spd(paddle, "float64"), UPLO="U")
    h = paddle.to_tensor([[2.0 + 0j, 1j], [-1j, 3.0 + 0j]])
    wh, vh = paddle.linalg.eigh(h)
    return [w, v.abs(), wu, vu.abs(), wh, vh.abs(), paddle.linalg.eigvalsh(_batch(paddle)),
            paddle.eigvalsh(h, UPLO="U"), (v * w.unsqueeze(0)) @ v.t()]


@case
def eigh_bad_uplo_fails(paddle):
    return paddle.linalg.eigh(paddle.eye(2), UPLO="X")


@case(rtol=1e-4, atol=1e-5)
def householder_and_ormqr(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype="float64")
    tau = paddle.to_tensor([1.2, 1.5], dtype="float64")
    y = paddle.to_tensor([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]], dtype="float64")
    sq = paddle.to_tensor(_B, dtype="float64")
    tau3 = paddle.to_tensor([1.2, 1.5, 0.0], dtype="float64")
    return [paddle.linalg.householder_product(x, tau), paddle.linalg.ormqr(x, tau, y, transpose=True),
            paddle.linalg.ormqr(sq, tau3, y),
            paddle.linalg.ormqr(sq, tau3, y, left=False, transpose=True),
            paddle.linalg.householder_product(paddle.stack([x, x * 2]), paddle.stack([tau, tau / 2]))]


@case
def ormqr_right_side_thin_q_fails(paddle):
    # Paddle checks y's columns against x's but then multiplies y by the m x n Q
    x = paddle.ones([3, 2], dtype="float64")
    return paddle.linalg.ormqr(x, paddle.ones([2], dtype="float64"), paddle.ones([3, 2], dtype="float64"), left=False)


@case
def ormqr_thin_q_shape_fails(paddle):
    x = paddle.ones([3, 2], dtype="float64")
    return paddle.linalg.ormqr(x, paddle.ones([2], dtype="float64"), paddle.ones([3, 3], dtype="float64"))


@case(random=True)
def svd_lowrank_shapes(paddle):
    x = paddle.randn([5, 4], dtype="float64")
    u, s, v = paddle.linalg.svd_lowrank(x, q=3)
    return [u, s, v, paddle.linalg.svd_lowrank(x)]


@case(rtol=1e-4, atol=1e-5)
def svd_lowrank_full_rank_values(paddle):
    x = paddle.to_tensor(_B, dtype="float64")
    u, s, v = paddle.linalg.svd_lowrank(x, q=3)
    return [s, u @ paddle.diag(s) @ v.t()]


@case(random=True)
def pca_lowrank_shapes(paddle):
    x = paddle.randn([6, 4])
    return [paddle.linalg.pca_lowrank(x), paddle.linalg.pca_lowrank(x, q=2, center=False)]


@case
def svd_lowrank_bad_q_fails(paddle):
    return paddle.linalg.svd_lowrank(paddle.ones([3, 3]), q=5)


# ---------------------------------------------------------------- solvers


@case(rtol=1e-4, atol=1e-5)
def solve_cases(paddle):
    a = _gen(paddle)
    b = paddle.to_tensor([[1.0, 0.0], [2.0, 1.0], [0.5, -1.0]])
    return [paddle.linalg.solve(a, b), paddle.linalg.solve(a, paddle.ones([3])),
            paddle.linalg.solve(_batch(paddle, "float64"), paddle.ones([2, 3, 1], dtype="float64")),
            paddle.linalg.solve(a, b.t(), left=False), a.solve(b)]


@case
def solve_singular_fails(paddle):
    return paddle.linalg.solve(paddle.to_tensor([[1.0, 2.0], [2.0, 4.0]]), paddle.ones([2, 1]))


@case(rtol=1e-5)
def triangular_solve_cases(paddle):
    u = paddle.to_tensor([[2.0, 1.0, 3.0], [0.0, 4.0, 1.0], [0.0, 0.0, 5.0]])
    b = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return [paddle.linalg.triangular_solve(u, b), paddle.linalg.triangular_solve(u.t(), b, upper=False),
            paddle.linalg.triangular_solve(u, b, transpose=True),
            paddle.linalg.triangular_solve(u, b, unitriangular=True),
            paddle.linalg.triangular_solve(paddle.stack([u, u * 2]), b)]


@case
def triangular_solve_vector_fails(paddle):
    return paddle.linalg.triangular_solve(paddle.eye(2), paddle.ones([2]))


@case(rtol=1e-4, atol=1e-5)
def lstsq_drivers(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
    y = paddle.to_tensor([[1.0], [2.0], [2.5]])
    return [paddle.linalg.lstsq(x, y), paddle.linalg.lstsq(x, y, driver="gelsd"),
            paddle.linalg.lstsq(x, y, driver="gelss"), paddle.linalg.lstsq(x, y, driver="gels")]


@case(rtol=1e-4, atol=1e-5)
def lstsq_square_wide_batch(paddle):
    a = _gen(paddle, "float64")
    wide = paddle.to_tensor([[1.0, 2.0, 0.5], [3.0, 4.0, 1.0]], dtype="float64")
    return [paddle.linalg.lstsq(a, paddle.ones([3, 2], dtype="float64")),
            paddle.linalg.lstsq(wide, paddle.ones([2, 1], dtype="float64"), driver="gelsd"),
            paddle.linalg.lstsq(_batch(paddle), paddle.ones([2, 3, 1]), driver="gelsd")]


@case
def lstsq_dtype_mismatch_fails(paddle):
    return paddle.linalg.lstsq(paddle.eye(2), paddle.ones([2, 1], dtype="float64"))


@case
def lstsq_bad_driver_fails(paddle):
    return paddle.linalg.lstsq(paddle.eye(2), paddle.ones([2, 1]), driver="xyz")


# ---------------------------------------------------------------- statistics


@case(rtol=1e-5)
def cov_cases(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 1.0], [3.0, 3.0, 1.0, 0.0]])
    fw = paddle.to_tensor([1, 2, 1, 3])
    aw = paddle.to_tensor([0.5, 1.0, 2.0, 1.0])
    return [paddle.linalg.cov(x), paddle.linalg.cov(x, rowvar=False), paddle.linalg.cov(x, ddof=False),
            paddle.linalg.cov(x, fweights=fw), paddle.linalg.cov(x, aweights=aw),
            paddle.linalg.cov(x, fweights=fw, aweights=aw), paddle.linalg.cov(x[0]),
            x.astype("float64").cov()]


@case
def cov_3d_fails(paddle):
    return paddle.linalg.cov(paddle.ones([2, 2, 2]))


@case
def cov_negative_weights_fail(paddle):
    return paddle.linalg.cov(paddle.ones([2, 3]), aweights=paddle.to_tensor([1.0, -1.0, 1.0]))


@case(rtol=1e-5)
def corrcoef_cases(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 1.0], [3.0, 3.0, 1.0, 0.0]])
    return [paddle.linalg.corrcoef(x), paddle.linalg.corrcoef(x, rowvar=False), x.corrcoef(),
            paddle.linalg.corrcoef(x[0])]


@case
def histogram_cases(paddle):
    x = paddle.to_tensor([1.0, 2.0, 1.0, 4.0, 2.5, 9.0])
    return [paddle.histogram(x, bins=4), paddle.histogram(x, bins=3, min=1, max=4),
            paddle.histogram(paddle.to_tensor([3, 3, 3]), bins=3), x.histogram(bins=2, min=0, max=10),
            paddle.histogram(paddle.to_tensor([[1, 2], [3, 5]]), bins=2)]


@case
def histogram_weight_and_density(paddle):
    x = paddle.to_tensor([1.0, 2.0, 1.0, 4.0])
    return [paddle.histogram(x, bins=4, weight=paddle.to_tensor([1.0, 2.0, 0.5, 4.0])),
            paddle.histogram(x, bins=4, density=True),
            paddle.histogram(x.astype("float64"), bins=2, density=True),
            paddle.histogram(x, bins=2, weight=paddle.to_tensor([1.0, 2.0, 0.5, 4.0]), density=True)]


@case
def histogram_max_below_min_fails(paddle):
    return paddle.histogram(paddle.to_tensor([1.0, 2.0]), bins=2, min=3, max=1)


@case
def histogram_bin_edges_cases(paddle):
    x = paddle.to_tensor([1.0, 2.0, 5.0, 7.0])
    return [paddle.histogram_bin_edges(x, bins=3), paddle.histogram_bin_edges(x, bins=4, min=0, max=8),
            paddle.histogram_bin_edges(paddle.to_tensor([2, 2]), bins=2), x.histogram_bin_edges(bins=2)]


@case
def histogramdd_cases(paddle):
    x = paddle.to_tensor([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.5, 1.5]])
    w = paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 0.5])
    return [paddle.histogramdd(x, bins=2), paddle.histogramdd(x, bins=[2, 3], ranges=[0.0, 2.0, 0.0, 3.0]),
            paddle.histogramdd(x, bins=2, weights=w, density=True),
            paddle.histogramdd(x, bins=(paddle.to_tensor([0.0, 1.0, 2.0]), paddle.to_tensor([0.0, 2.0])))]


@case
def bincount_cases(paddle):
    x = paddle.to_tensor([1, 2, 1, 4, 0])
    return [paddle.bincount(x), paddle.bincount(x, minlength=7),
            paddle.bincount(x, weights=paddle.to_tensor([0.5, 1.0, 1.0, 2.0, 3.0])),
            paddle.bincount(x.astype("int32"), weights=paddle.to_tensor([1, 2, 1, 4, 0], dtype="int32")),
            paddle.bincount(x, weights=paddle.to_tensor([0.5, 1.0, 1.0, 2.0, 3.0], dtype="float64")),
            x.bincount()]


@case
def bincount_float_fails(paddle):
    return paddle.bincount(paddle.to_tensor([1.0, 2.0]))


@case
def bincount_negative_fails(paddle):
    return paddle.bincount(paddle.to_tensor([-1, 2]))


@case(rtol=1e-5)
def cdist_cases(paddle):
    x = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0], [4.0, -1.0]])
    y = paddle.to_tensor([[1.0, 1.0], [0.0, 0.0]])
    return [paddle.cdist(x, y), paddle.cdist(x, y, p=1), paddle.cdist(x, y, p=0),
            paddle.cdist(x, y, p=float("inf")), paddle.cdist(x.unsqueeze(0), y.unsqueeze(0), p=3),
            x.cdist(y, compute_mode="donot_use_mm_for_euclid_dist")]


@case
def cdist_last_dim_mismatch_fails(paddle):
    return paddle.cdist(paddle.ones([2, 2]), paddle.ones([2, 3]))


@case
def vecdot_and_matrix_transpose(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    c = paddle.to_tensor([1 + 1j, 2 - 1j])
    return [paddle.linalg.vecdot(x, x), paddle.linalg.vecdot(x, x, axis=0), paddle.vecdot(c, c),
            paddle.linalg.vecdot(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4])),
            paddle.matrix_transpose(paddle.arange(6).reshape([1, 2, 3])), x.matrix_transpose()]


@case
def matrix_transpose_vector_fails(paddle):
    return paddle.matrix_transpose(paddle.ones([3]))


@case
def linalg_namespace_aliases(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    return [paddle.linalg.matmul(x, x), paddle.linalg.cross(paddle.to_tensor([1.0, 0, 0]),
                                                            paddle.to_tensor([0.0, 1, 0])),
            paddle.linalg.diagonal(x)]


# ---------------------------------------------------------------- einsum


@case(rtol=1e-5)
def einsum_cases(paddle):
    a = paddle.arange(6, dtype="float32").reshape([2, 3])
    b = paddle.arange(12, dtype="float32").reshape([3, 4]) / 4
    v = paddle.to_tensor([1.0, 2.0, 3.0])
    bt = paddle.arange(24, dtype="float64").reshape([2, 3, 4])
    return [paddle.einsum("ij,jk->ik", a, b), paddle.einsum("i,i->", v, v), paddle.einsum("i,j->ij", v, v),
            paddle.einsum("ij->ji", a), paddle.einsum("ii->i", paddle.eye(3)), paddle.einsum("ij", a),
            paddle.einsum("bij,bjk->bik", bt, bt.transpose([0, 2, 1])), paddle.einsum("...j,j->...", a, v),
            paddle.einsum("ij,jk", a, b), paddle.einsum("i j , j k -> i k", a, b)]


@case
def einsum_complex(paddle):
    c = paddle.to_tensor([[1 + 1j, 2j], [1.0 + 0j, -1j]])
    return paddle.einsum("ij,jk->ik", c, c)


@case
def einsum_mixed_dtype_fails(paddle):
    return paddle.einsum("i,i->", paddle.ones([2]), paddle.ones([2], dtype="float64"))


@case
def einsum_label_size_mismatch_fails(paddle):
    return paddle.einsum("ij,jk->ik", paddle.ones([2, 3]), paddle.ones([2, 3]))


@case
def einsum_int_fails(paddle):
    return paddle.einsum("ij->ji", paddle.to_tensor([[1, 2]]))


@case
def linalg_grad_flows(paddle):
    x = paddle.to_tensor([[2.0, 1.0], [1.0, 3.0]], stop_gradient=False)
    y = paddle.linalg.det(x) + paddle.linalg.norm(x)
    y.backward()
    return [y.stop_gradient, x.grad, paddle.linalg.inv(x).stop_gradient]


# ---------------------------------------------------------------- keywords, out=, edge values


@case
def torch_style_keywords(paddle):
    x = paddle.to_tensor([[1.0, -2.0], [3.0, 4.0]])
    return [paddle.linalg.norm(input=x, ord=1, dim=0), paddle.linalg.norm(A=x, ord="fro"),
            paddle.linalg.solve(A=x, B=x), paddle.linalg.vector_norm(x, ord=1, dim=1)]


@case(rtol=1e-5)
def out_arguments(paddle):
    x = paddle.to_tensor([[1.0, -2.0], [3.0, 4.0]])
    o = (paddle.zeros([2, 2]), paddle.zeros([2]), paddle.zeros([2, 2]))
    paddle.linalg.svd(x, out=o)
    n = paddle.zeros([2])
    r = paddle.linalg.norm(x, axis=0, out=n)
    s = paddle.zeros([2, 2])
    paddle.linalg.solve(x, x, out=s)
    return [o[1], (o[0] * o[1].unsqueeze(0)) @ o[2], n, r, s]


@case
def singular_det_and_slogdet(paddle):
    s = paddle.to_tensor([[1.0, 2.0], [2.0, 4.0]])
    return [paddle.linalg.det(s).abs(), paddle.linalg.slogdet(s)[1], paddle.linalg.det(paddle.ones([0, 2, 2]))]


@case
def matrix_rank_tensor_tol(paddle):
    x = paddle.to_tensor([[1.0, -2.0], [3.0, 4.0]])
    return [paddle.linalg.matrix_rank(x, tol=paddle.to_tensor(3.0)),
            paddle.linalg.matrix_rank(paddle.ones([2, 3, 3]), tol=paddle.to_tensor([0.5, 5.0]))]


@case
def histogram_weight_dtype_mismatch_fails(paddle):
    return paddle.histogram(paddle.ones([4]), bins=2, weight=paddle.ones([4], dtype="float64"))


@case
def einsum_operand_count_fails(paddle):
    x = paddle.ones([2, 2])
    return paddle.einsum("ij,jk->ik", [x, x])


@case
def norm_float16_cpu_fails(paddle):
    return paddle.linalg.norm(paddle.ones([3], dtype="float16"))


@case
def cov_ddof_int(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 4.0], [0.5, -1.0, 2.0]])
    return [paddle.linalg.cov(x, ddof=0), paddle.linalg.cov(x, ddof=2)]
