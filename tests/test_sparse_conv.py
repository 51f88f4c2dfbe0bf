"""paddle.sparse.nn convolution / pooling beyond the golden cases: larger random point sets checked
against torch's dense convolution (values and gradients), and the cases Paddle's CPU build cannot
record (implicit-GEMM kernels, SyncBatchNorm) or where we refuse on purpose."""
import numpy as np
import pytest
import torch

import paddle

F = paddle.sparse.nn.functional


def _input(shape, nnz, cin, seed=0):
    rng = np.random.default_rng(seed)
    dense = np.zeros(list(shape) + [cin], "float32")
    sites = rng.choice(int(np.prod(shape)), nnz, replace=False)
    dense[np.unravel_index(sites, shape)] = rng.standard_normal((nnz, cin)).astype("float32")
    xd = paddle.to_tensor(dense, stop_gradient=False)
    return dense, xd, xd.to_sparse_coo(len(shape))


def _dense_conv(dense, w, n, **kw):
    """torch's channel-first conv on the dense input; weights [k..., in, out] -> [out, in, k...]."""
    conv = torch.nn.functional.conv3d if n == 3 else torch.nn.functional.conv2d
    x = torch.tensor(dense).movedim(-1, 1).requires_grad_(True)
    wt = torch.tensor(w).movedim(-1, 0).movedim(-1, 1).requires_grad_(True)
    return x, wt, conv(x, wt, **kw).movedim(1, -1)


@pytest.mark.parametrize("n,shape,kernel,stride,padding,dilation", [
    (3, [2, 9, 10, 11], [3, 3, 3], 1, 1, 1),
    (3, [2, 9, 10, 11], [3, 3, 3], 2, 1, 1),
    (3, [1, 8, 8, 8], [2, 3, 4], [2, 1, 3], [0, 1, 2], [1, 2, 1]),
    (2, [3, 12, 13], [3, 3], 2, 0, 1),
])
def test_conv_matches_dense(n, shape, kernel, stride, padding, dilation):
    dense, xd, x = _input(shape, 120, 4)
    w = np.random.default_rng(1).standard_normal(kernel + [4, 5]).astype("float32")
    wp = paddle.to_tensor(w, stop_gradient=False)
    y = (F.conv3d if n == 3 else F.conv2d)(x, wp, stride=stride, padding=padding, dilation=dilation)
    xt, wt, ref = _dense_conv(dense, w, n, stride=stride, padding=padding, dilation=dilation)
    assert list(y.shape) == list(ref.shape)
    # every output site is reached by an input site: those where the dense conv of the 0/1 mask is non-zero
    mask = (np.abs(dense).sum(-1, keepdims=True) > 0).astype("float32")
    _, _, reach = _dense_conv(mask, np.ones(kernel + [1, 1], "float32"), n, stride=stride, padding=padding,
                              dilation=dilation)
    want = np.stack(np.nonzero(reach.detach().numpy()[..., 0] > 0))
    idx = y.indices().numpy()
    np.testing.assert_array_equal(idx, want)  # np.nonzero is row-major: Paddle's ascending order
    np.testing.assert_allclose(y.values().numpy(), ref.detach().numpy()[tuple(idx)], rtol=1e-5, atol=1e-5)
    g = np.random.default_rng(2).standard_normal(y.values().shape).astype("float32")
    (y.values() * paddle.to_tensor(g)).sum().backward()
    gd = torch.zeros_like(ref)
    gd[tuple(torch.tensor(idx))] = torch.tensor(g)
    (ref * gd).sum().backward()
    np.testing.assert_allclose(wp.grad.numpy(), wt.grad.movedim(0, -1).movedim(0, -2).numpy(), rtol=1e-4,
                               atol=1e-4)
    np.testing.assert_allclose(xd.grad.numpy(), xt.grad.movedim(1, -1).numpy() * mask, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("n", [2, 3])
def test_subm_keeps_input_sites_and_igemm_agrees(n):
    shape = [2, 10, 11, 12][: n + 1]
    dense, _, x = _input(shape, 150, 3, seed=3)
    k = [3] * n
    w = paddle.to_tensor(np.random.default_rng(4).standard_normal(k + [3, 6]).astype("float32"))
    y = (F.subm_conv3d if n == 3 else F.subm_conv2d)(x, w, padding=1, key="rb")
    yi = (F.subm_conv3d_igemm if n == 3 else F.subm_conv2d_igemm)(x, w, padding=1)
    np.testing.assert_array_equal(y.indices().numpy(), x.coalesce().indices().numpy())
    np.testing.assert_array_equal(y.values().numpy(), yi.values().numpy())
    _, _, ref = _dense_conv(dense, w.numpy(), n, padding=1)
    np.testing.assert_allclose(y.values().numpy(), ref.detach().numpy()[tuple(y.indices().numpy())],
                               rtol=1e-5, atol=1e-5)


def test_subm_layer_igemm_backend():
    _, _, x = _input([1, 6, 6, 6], 40, 2)
    a = paddle.sparse.nn.SubmConv3D(2, 3, 3, padding=1)
    b = paddle.sparse.nn.SubmConv3D(2, 3, 3, padding=1, backend="igemm")
    b.weight.set_value(a.weight)
    b.bias.set_value(a.bias)
    np.testing.assert_allclose(a(x).values().numpy(), b(x).values().numpy())


def test_max_pool_matches_dense_over_sites():
    dense, xd, x = _input([2, 9, 9, 9], 200, 3, seed=5)
    y = F.max_pool3d(x, 3, stride=2, padding=1)
    idx = tuple(y.indices().numpy())
    # the max over the stored neighbours only: pad the empty sites with -inf for the dense reference
    mask = np.abs(dense).sum(-1, keepdims=True) > 0
    t = torch.tensor(np.where(mask, dense, -np.inf)).movedim(-1, 1)
    ref = torch.nn.functional.max_pool3d(t, 3, 2, 1).movedim(1, -1).numpy()
    np.testing.assert_allclose(y.values().numpy(), ref[idx])
    y.values().sum().backward()
    assert float(xd.grad.sum()) == pytest.approx(float(np.prod(y.values().shape)))


def test_sync_batch_norm_single_process_equals_batch_norm():
    # Paddle 3.3.1's CPU build has no sparse sync_batch_norm kernel; on one process it is BatchNorm
    _, _, x = _input([2, 5, 5, 5], 50, 4, seed=6)
    bn = paddle.sparse.nn.BatchNorm(4)
    sync = paddle.sparse.nn.SyncBatchNorm.convert_sync_batchnorm(paddle.nn.Sequential(bn))[0]
    assert isinstance(sync, paddle.sparse.nn.SyncBatchNorm) and sync.weight is bn.weight
    ref = paddle.sparse.nn.BatchNorm(4)
    np.testing.assert_allclose(sync(x).values().numpy(), ref(x).values().numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(sync._mean.numpy(), ref._mean.numpy(), rtol=1e-6, atol=1e-6)


def test_refusals():
    _, _, x = _input([1, 6, 6, 6], 20, 2)
    w = paddle.ones([3, 3, 3, 2, 2])
    # Paddle would decode the output sites in another shape (scrambled indices)
    with pytest.raises(NotImplementedError):
        F.subm_conv3d(x, w, dilation=2)
    with pytest.raises(NotImplementedError):
        F.subm_conv3d(x, paddle.ones([2, 2, 2, 2, 2]))
    # Paddle's kernel would read the first three of the six pads as the per-dimension pads
    with pytest.raises(NotImplementedError):
        F.conv3d(x, w, padding=[1, 0, 1, 0, 1, 0])
    with pytest.raises(NotImplementedError):
        F.conv3d(x.to_dense(), w)
    with pytest.raises(AssertionError):
        F.conv3d(x, w, groups=2)


def test_empty_input():
    x = paddle.zeros([1, 4, 4, 4, 2]).to_sparse_coo(4)
    w = paddle.ones([3, 3, 3, 2, 5])
    y = F.conv3d(x, w, padding=1)
    assert y.shape == [1, 4, 4, 4, 5] and y.indices().shape == [4, 0] and y.values().shape == [0, 5]
    assert F.subm_conv3d(x, w).values().shape == [0, 5]
