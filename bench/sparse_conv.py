"""Sparse conv / pool timing on a random point cloud (run under real Paddle or `python -m paddle_on_torch`).

    python bench/sparse_conv.py [nnz]      # default 10000 points in [2, 20, 200, 200], 16 -> 16 channels
"""
import sys
import time, numpy as np, paddle
F = paddle.sparse.nn.functional
rng = np.random.default_rng(0)
nnz = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
shape = [2, 20, 200, 200] if nnz <= 10000 else [2, 40, 400, 400]
cin = cout = 16
sites = rng.choice(int(np.prod(shape)), nnz, replace=False)
idx = np.stack(np.unravel_index(np.sort(sites), shape)).astype("int64")
vals = rng.standard_normal((nnz, cin)).astype("float32")
x = paddle.sparse.sparse_coo_tensor(idx, vals, shape + [cin])
w = paddle.to_tensor(rng.standard_normal([3, 3, 3, cin, cout]).astype("float32") * 0.1)
def t(f, r=3):
    f(); s = time.perf_counter()
    for _ in range(r): y = f()
    return (time.perf_counter() - s) / r * 1e3, y
for name, f in [("subm_conv3d", lambda: F.subm_conv3d(x, w)), ("conv3d s2", lambda: F.conv3d(x, w, stride=2, padding=1)),
                ("max_pool3d", lambda: F.max_pool3d(x, 3, 2, 1))]:
    ms, y = t(f)
    print(f"{name}: {ms:.1f} ms, out nnz {y.nnz()}, sum {float(y.values().sum()):.3f}")
