"""Paddle's CPU QR in Paddle's own arithmetic, for the Orthogonal initializer.

Paddle's CPU `qr` kernel runs Eigen's HouseholderQR on the row-major matrix and forms the reduced Q as
`householderQ() * Identity(m, n)` (a column-major result).  LAPACK (torch.linalg.qr) orders its sums otherwise, so
its Q is a few ulps from Paddle's.  Here is Eigen's unblocked path -- the only one Eigen takes while the matrix has
fewer than 48 columns -- with every sum in the order of Eigen's kernels as Paddle's wheel compiles them (AVX
packets, no fused multiply-add; checked bit for bit against Paddle 3.3.1):

* a reflector's tail norm and the one-column products are sequential sums;
* `essential^T * bottom` in the factorisation is Eigen's column-major matrix-vector product: per output a
  sequential sum from zero, in blocks of 16 terms added in turn once there are 128 terms or more;
* the same product when Q is formed is the row-major one: per output, lane-wise sums over packets of 8 floats
  (4 doubles), reduced as Eigen's `predux` pairs them, then the leftover terms one by one; the last output of an
  odd count (Eigen's one-row loop) first takes a half packet; for a square matrix Eigen starts from the identity
  and leaves its finished columns out, which changes which outputs fall in which group.

From 48 columns on Eigen switches to blocked products (its GEMM, whose blocking follows the cache sizes of the
machine), which are not reproduced: `supported` says when this applies.
"""
import numpy as np

_UNBLOCKED = 48  # Eigen's HouseholderQR and HouseholderSequence block size
_PACKET = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # AVX


def supported(rows, cols, dtype):
    """Whether qr of a rows x cols (rows >= cols) matrix of `dtype` is reproduced here."""
    return np.dtype(dtype) in _PACKET and 1 <= cols < _UNBLOCKED and rows >= cols


def _sequential(terms):
    """terms[0] + terms[1] + ... along axis 0, in order."""
    return np.cumsum(terms, axis=0, dtype=terms.dtype)[-1]


def _colmajor_products(e, bottom):
    """tmp = e^T * bottom as Eigen's column-major kernel sums it (one column: an inner product)."""
    zero = bottom.dtype.type(0)
    terms = e[:, None] * bottom
    if bottom.shape[1] == 1:
        return _sequential(terms) + zero
    step = 16 if terms.shape[0] >= 128 else terms.shape[0]
    res = np.zeros(bottom.shape[1], bottom.dtype)
    for s in range(0, terms.shape[0], step):
        block = np.concatenate([np.zeros((1, terms.shape[1]), terms.dtype), terms[s:s + step]])
        res = _sequential(block) + res
    return res


def _predux(lanes):
    """Eigen's horizontal sum of a packet (lanes along axis 0): halves added, then pairs."""
    while len(lanes) > 2:
        half = len(lanes) // 2
        lanes = lanes[:half] + lanes[half:]
        if len(lanes) == 4:  # a 128-bit packet: (l0 + l2) + (l1 + l3)
            return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
    return lanes[0] + lanes[1] if len(lanes) == 2 else lanes[0]


def _packet_sums(terms, packet, half):
    """Per column of terms: lane-wise sums over whole packets, reduced, then a half packet (if `half`), then the
    rest one by one."""
    rows, cols = terms.shape
    zero = np.zeros((1, packet, cols), terms.dtype)
    whole = packet * (rows // packet)
    if whole:
        lanes = _sequential(np.concatenate([zero, terms[:whole].reshape(-1, packet, cols)]))
        total = _predux(lanes)
    else:
        total = np.zeros(cols, terms.dtype)
    start = whole
    if half:
        hp = packet // 2
        end = whole + hp * ((rows - whole) // hp)
        if end > whole:
            lanes = _sequential(np.concatenate([zero[:, :hp], terms[whole:end].reshape(-1, hp, cols)]))
            total = total + _predux(lanes)
        start = end
    for s in range(start, rows):
        total = total + terms[s]
    return total


def _rowmajor_products(e, bottom):
    """tmp = e^T * bottom as Eigen's row-major kernel sums it when Q is formed: outputs in groups of 8, 4, 2,
    then one by one (the single ones take a half packet); one column: an inner product."""
    zero = bottom.dtype.type(0)
    terms = bottom * e[:, None]
    cols = bottom.shape[1]
    if cols == 1:
        return _sequential(terms) + zero
    packet = _PACKET[bottom.dtype]
    grouped = cols - (cols % 8)
    grouped += 4 if cols - grouped >= 4 else 0
    grouped += 2 if cols - grouped >= 2 else 0
    out = np.empty(cols, bottom.dtype)
    out[:grouped] = _packet_sums(terms[:, :grouped], packet, False) + zero
    if grouped < cols:
        out[grouped:] = _packet_sums(terms[:, grouped:], packet, True) + zero
    return out


def _reflect(block, e, tau, products):
    """block = H block, H = I - tau [1; e] [1; e]^T (Eigen's applyHouseholderOnTheLeft)."""
    one = block.dtype.type(1)
    if block.shape[0] == 1:
        block *= one - tau
        return
    if tau == 0:
        return
    bottom = block[1:]
    tmp = products(e, bottom) + block[0]
    block[0] = block[0] - tau * tmp
    bottom -= (tau * e)[:, None] * tmp[None, :]


def qr(a):
    """(Q, R) of a (rows x cols numpy array, rows >= cols, `supported`), reduced, as Paddle's CPU kernel gives."""
    m, n = a.shape
    A = np.array(a, copy=True)
    T = A.dtype.type
    tiny = np.finfo(A.dtype).tiny
    taus = np.zeros(n, A.dtype)
    for k in range(n):
        c0, tail = A[k, k], A[k + 1:, k].copy()
        norm2 = _sequential(tail * tail) if tail.size else T(0)
        if norm2 <= tiny:
            tau, beta, essential = T(0), c0, np.zeros_like(tail)
        else:
            beta = np.sqrt(c0 * c0 + norm2)
            beta = -beta if c0 >= 0 else beta
            essential = tail / (c0 - beta)
            tau = (beta - c0) / beta
        A[k + 1:, k], A[k, k], taus[k] = essential, beta, tau
        if k + 1 < n:
            _reflect(A[k:, k + 1:], essential, tau, _colmajor_products)
    q = np.eye(m, n, dtype=A.dtype)
    square = m == n  # Eigen knows the identity it starts from then, and leaves out its columns left of k
    for k in range(n - 1, -1, -1):
        _reflect(q[k:, k:] if square else q[k:], A[k + 1:, k], taus[k], _rowmajor_products)
    return q, np.triu(A[:n])
