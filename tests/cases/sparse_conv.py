"""paddle.sparse.nn convolution, pooling and batch norm on random point sets (numpy-seeded).

Sparse results are returned as indices / values / shape (real Paddle cannot numpy() a sparse tensor).
Input gradients are read from a dense leaf turned into COO with to_sparse_coo (a sparse tensor built
by sparse_coo_tensor gets no .grad in Paddle).
"""
import numpy as np

from tests.cases import case, fill_parameters

TOL = dict(rtol=1e-5, atol=1e-5)  # float32 sums in another order than Paddle's kernels


def _points(shape, nnz, seed, channels, shuffle=True):
    """A dense array with `nnz` random non-zero sites (all channels set) in [N, *spatial, C]."""
    rng = np.random.default_rng(seed)
    sites = rng.choice(int(np.prod(shape)), nnz, replace=False)
    dense = np.zeros(list(shape) + [channels], "float32")
    idx = np.unravel_index(sites, shape)
    dense[idx] = rng.standard_normal((nnz, channels)).astype("float32")
    return dense, np.stack(idx)


def _sparse_input(paddle, shape, nnz, seed, channels):
    dense, _ = _points(shape, nnz, seed, channels)
    xd = paddle.to_tensor(dense, stop_gradient=False)
    return xd, xd.to_sparse_coo(len(shape))


def _weight(paddle, shape, seed=1):
    return paddle.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype("float32"),
                            stop_gradient=False)


def _out(y):
    return [y.indices(), y.values(), y.shape, y.dtype, y.stop_gradient, y.is_coalesced()]


def _conv_case(paddle, fn, n, shape, nnz, cin, cout, kernel, grad=True, **kw):
    xd, x = _sparse_input(paddle, shape, nnz, 3, cin)
    w = _weight(paddle, list(kernel) + [cin, cout])
    b = _weight(paddle, [cout], seed=2)
    y = fn(x, w, b, **kw)
    res = _out(y)
    if grad:
        (y.values() * y.values()).sum().backward()
        res += [xd.grad, w.grad, b.grad]
    return res


F = lambda paddle: paddle.sparse.nn.functional  # noqa: E731


@case(**TOL)
def subm_conv3d_k3(paddle):
    return _conv_case(paddle, F(paddle).subm_conv3d, 3, [2, 5, 6, 7], 30, 4, 5, [3, 3, 3], padding=1)


@case(**TOL)
def subm_conv3d_padding_ignored(paddle):
    # Paddle re-centres a submanifold kernel: padding 0 gives the same as padding 1
    return _conv_case(paddle, F(paddle).subm_conv3d, 3, [1, 4, 4, 4], 12, 2, 3, [3, 3, 3], padding=0)


@case(**TOL)
def subm_conv3d_key(paddle):
    return _conv_case(paddle, F(paddle).subm_conv3d, 3, [2, 6, 6, 6], 40, 3, 2, [3, 3, 3], padding=2,
                      key="subm1")


@case(**TOL)
def subm_conv3d_k5_stride_ignored(paddle):
    return _conv_case(paddle, F(paddle).subm_conv3d, 3, [1, 5, 5, 5], 20, 2, 2, [5, 3, 1], stride=2)


@case(**TOL)
def conv3d_k3_pad1(paddle):
    return _conv_case(paddle, F(paddle).conv3d, 3, [2, 5, 6, 7], 30, 4, 5, [3, 3, 3], padding=1)


@case(**TOL)
def conv3d_stride2(paddle):
    return _conv_case(paddle, F(paddle).conv3d, 3, [2, 7, 8, 9], 50, 3, 4, [3, 3, 3], stride=2, padding=1)


@case(**TOL)
def conv3d_anisotropic(paddle):
    return _conv_case(paddle, F(paddle).conv3d, 3, [1, 6, 7, 8], 25, 2, 3, [2, 3, 1], stride=[1, 2, 2],
                      padding=[0, 1, 0], dilation=[2, 1, 1])


@case(**TOL)
def conv3d_no_padding(paddle):
    return _conv_case(paddle, F(paddle).conv3d, 3, [2, 4, 4, 4], 10, 3, 2, [3, 3, 3])


@case(**TOL)
def conv3d_same_padding_string(paddle):
    return _conv_case(paddle, F(paddle).conv3d, 3, [1, 5, 5, 5], 15, 2, 2, [3, 3, 3], padding="same")


@case(**TOL)
def conv3d_padding_pairs(paddle):
    return _conv_case(paddle, F(paddle).conv3d, 3, [1, 5, 5, 5], 15, 2, 2, [3, 3, 3],
                      padding=[[0, 0], [1, 1], [1, 1], [1, 1], [0, 0]])


@case(**TOL)
def subm_conv2d_k3(paddle):
    return _conv_case(paddle, F(paddle).subm_conv2d, 2, [2, 7, 9], 20, 3, 4, [3, 3], padding=1)


@case(**TOL)
def conv2d_stride2(paddle):
    return _conv_case(paddle, F(paddle).conv2d, 2, [2, 7, 9], 20, 3, 4, [3, 3], stride=2, padding=1)


@case(**TOL)
def conv3d_no_bias(paddle):
    xd, x = _sparse_input(paddle, [1, 4, 4, 4], 8, 5, 2)
    w = _weight(paddle, [2, 2, 2, 2, 3])
    y = F(paddle).conv3d(x, w, stride=2)
    y.values().sum().backward()
    return _out(y) + [xd.grad, w.grad]


@case(**TOL)
def conv3d_float64(paddle):
    xd, x = _sparse_input(paddle, [1, 4, 4, 4], 8, 5, 2)
    x = paddle.sparse.cast(x, value_dtype="float64")
    w = _weight(paddle, [3, 3, 3, 2, 3]).astype("float64")
    return _out(F(paddle).subm_conv3d(x, w)) + _out(F(paddle).conv3d(x, w, padding=1))


@case(**TOL)
def conv3d_unsorted_input_indices(paddle):
    # indices given in a shuffled order: the output comes sorted all the same
    dense, idx = _points([2, 4, 5, 5], 12, 7, 3)
    vals = dense[tuple(idx)]
    x = paddle.sparse.sparse_coo_tensor(idx, vals, [2, 4, 5, 5, 3])
    w = _weight(paddle, [3, 3, 3, 3, 2])
    return _out(F(paddle).subm_conv3d(x, w, padding=1)) + _out(F(paddle).conv3d(x, w, stride=2, padding=1))


@case(**TOL)
def max_pool3d_k3s2(paddle):
    xd, x = _sparse_input(paddle, [2, 6, 7, 8], 40, 9, 3)
    y = F(paddle).max_pool3d(x, 3, stride=2, padding=1)
    y.values().sum().backward()
    return _out(y) + [xd.grad]


@case(**TOL)
def max_pool3d_default_stride(paddle):
    xd, x = _sparse_input(paddle, [1, 6, 6, 6], 30, 11, 2)
    y = F(paddle).max_pool3d(x, [2, 2, 2])
    (y.values() * 3.0).sum().backward()
    return _out(y) + [xd.grad]


@case(**TOL)
def max_pool3d_layer(paddle):
    xd, x = _sparse_input(paddle, [1, 5, 5, 5], 20, 12, 2)
    pool = paddle.sparse.nn.MaxPool3D(kernel_size=3, stride=1, padding=1)
    return _out(pool(x)) + [repr(pool)]


def _layer_case(paddle, layer, shape, nnz, cin):
    fill_parameters(layer, seed=4)
    xd, x = _sparse_input(paddle, shape, nnz, 6, cin)
    y = layer(x)
    (y.values() * y.values()).sum().backward()
    return _out(y) + [xd.grad, layer.weight.grad, layer.bias.grad, layer.weight.shape, repr(layer)]


@case(**TOL)
def layer_subm_conv3d(paddle):
    return _layer_case(paddle, paddle.sparse.nn.SubmConv3D(3, 4, 3, padding=1, key="k"), [1, 5, 5, 5], 20, 3)


@case(**TOL)
def layer_conv3d(paddle):
    return _layer_case(paddle, paddle.sparse.nn.Conv3D(3, 4, [3, 3, 3], stride=2, padding=1), [2, 6, 6, 6], 30, 3)


@case(**TOL)
def layer_subm_conv2d(paddle):
    return _layer_case(paddle, paddle.sparse.nn.SubmConv2D(2, 3, 3, padding=1), [2, 6, 6], 15, 2)


@case(**TOL)
def layer_conv2d(paddle):
    return _layer_case(paddle, paddle.sparse.nn.Conv2D(2, 3, 3, stride=2), [2, 6, 6], 15, 2)


@case(random=True)
def layer_conv3d_default_init(paddle):
    conv = paddle.sparse.nn.Conv3D(4, 8, 3)
    return [conv.weight, conv.bias, conv.weight.stop_gradient]


@case
def layer_conv3d_param_names_and_shapes(paddle):
    conv = paddle.sparse.nn.SubmConv3D(4, 8, [1, 3, 5])
    return [[(n, p.shape) for n, p in conv.named_parameters()]]


@case(**TOL)
def small_backbone_train_step(paddle):
    # a Paddle3D-style block: subm conv -> BN -> ReLU -> strided conv -> pool
    nn = paddle.sparse.nn
    model = paddle.nn.Sequential(nn.SubmConv3D(3, 8, 3, padding=1, bias_attr=False), nn.BatchNorm(8), nn.ReLU(),
                                 nn.Conv3D(8, 4, 3, stride=2, padding=1), nn.MaxPool3D(2))
    fill_parameters(model, seed=8)
    xd, x = _sparse_input(paddle, [2, 8, 8, 8], 60, 13, 3)
    y = model(x)
    loss = (y.values() ** 2).mean()
    loss.backward()
    bn = model[1]
    # the statistics as arrays: Paddle's in-place sparse batch_norm_ leaves _mean with stop_gradient=False
    return _out(y) + [loss, xd.grad, model[0].weight.grad, bn.weight.grad, bn._mean.numpy(), bn._variance.numpy()]


@case(**TOL)
def batch_norm_eval(paddle):
    bn = paddle.sparse.nn.BatchNorm(3)
    fill_parameters(bn, seed=2)
    bn.eval()
    _, x = _sparse_input(paddle, [1, 4, 4, 4], 10, 14, 3)
    return _out(bn(x))


@case
def convert_sync_batchnorm(paddle):
    nn = paddle.sparse.nn
    model = paddle.nn.Sequential(nn.Conv3D(3, 5, 3), nn.BatchNorm(5), paddle.nn.BatchNorm1D(4))
    sync = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    return [type(sync[0]).__name__, isinstance(sync[1], nn.SyncBatchNorm), isinstance(sync[2], nn.SyncBatchNorm),
            isinstance(sync[2], paddle.nn.SyncBatchNorm), sync[1].weight is model[1].weight, sync[1]._data_format,
            sync[2]._data_format]


@case
def error_wrong_rank(paddle):
    _, x = _sparse_input(paddle, [1, 4, 4], 5, 1, 2)
    return F(paddle).conv3d(x, _weight(paddle, [3, 3, 3, 2, 2]))


@case
def error_data_format(paddle):
    _, x = _sparse_input(paddle, [1, 4, 4, 4], 5, 1, 2)
    return F(paddle).conv3d(x, _weight(paddle, [3, 3, 3, 2, 2]), data_format="NCDHW")


@case
def error_layer_data_format(paddle):
    return paddle.sparse.nn.Conv3D(2, 2, 3, data_format="NCDHW")


@case
def error_bad_padding_string(paddle):
    _, x = _sparse_input(paddle, [1, 4, 4, 4], 5, 1, 2)
    return F(paddle).conv3d(x, _weight(paddle, [3, 3, 3, 2, 2]), padding="full")
