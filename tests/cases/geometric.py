"""paddle.geometric: segment reductions, message passing (values and gradients), sampling, reindexing."""
import numpy as np

from tests.cases import case


def _feat(paddle, shape, seed=0, dtype="float32", grad=True):
    # distinct values: no ties for max/min
    n = int(np.prod(shape))
    v = np.random.default_rng(seed).permutation(n).reshape(shape) / n - 0.5
    return paddle.to_tensor(v.astype(dtype), stop_gradient=not grad)


def _with_grad(paddle, x, out):
    w = paddle.to_tensor(np.random.default_rng(9).normal(0, 1, out.shape).astype("float32"))
    (out * w).sum().backward()
    return [out, x.grad]


@case
def segment_reductions(paddle):
    x = _feat(paddle, [7, 3])
    ids = paddle.to_tensor([0, 0, 1, 3, 3, 3, 4])
    G = paddle.geometric
    outs = []
    for f in (G.segment_sum, G.segment_mean, G.segment_max, G.segment_min):
        xx = _feat(paddle, [7, 3])
        out = f(xx, ids)
        out.sum().backward() if f is G.segment_sum else (out * out).sum().backward()
        outs += [out, xx.grad]
    return outs


@case
def segment_int_and_int32_ids(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4], [5, 6], [7, 8]], dtype="int64")
    ids = paddle.to_tensor([0, 1, 1, 2], dtype="int32")
    G = paddle.geometric
    return [G.segment_sum(x, ids), G.segment_max(x, ids), G.segment_min(x, ids),
            G.segment_sum(paddle.to_tensor([1.0, 2.0, 3.0]), paddle.to_tensor([0, 0, 2]))]


@case
def segment_float64_3d(paddle):
    x = _feat(paddle, [5, 2, 3], dtype="float64")
    ids = paddle.to_tensor([0, 1, 1, 1, 2])
    return [paddle.geometric.segment_mean(x, ids), paddle.geometric.segment_max(x, ids)]


@case
def send_u_recv_reduces(paddle):
    src = paddle.to_tensor([0, 1, 2, 0, 3, 1])
    dst = paddle.to_tensor([1, 2, 1, 0, 1, 2])
    outs = []
    for op in ("sum", "mean", "max", "min"):
        x = _feat(paddle, [4, 3], seed=1)
        outs += _with_grad(paddle, x, paddle.geometric.send_u_recv(x, src, dst, reduce_op=op))
    return outs


@case
def send_u_recv_out_size(paddle):
    x = _feat(paddle, [4, 2], grad=False)
    src = paddle.to_tensor([0, 1, 2], dtype="int32")
    dst = paddle.to_tensor([1, 0, 1], dtype="int32")
    G = paddle.geometric
    return [G.send_u_recv(x, src, dst, out_size=2), G.send_u_recv(x, src, dst, "max", out_size=6),
            G.send_u_recv(x, src, dst, out_size=0)]


@case
def send_u_recv_bad_reduce(paddle):
    x = _feat(paddle, [4, 2])
    return paddle.geometric.send_u_recv(x, paddle.to_tensor([0]), paddle.to_tensor([1]), reduce_op="prod")


@case(rtol=1e-5, atol=1e-6)
def send_ue_recv_ops(paddle):
    src = paddle.to_tensor([0, 1, 2, 0, 3])
    dst = paddle.to_tensor([1, 2, 1, 0, 1])
    outs = []
    for mop, rop in (("add", "sum"), ("sub", "mean"), ("mul", "max"), ("div", "min"), ("mul", "sum")):
        x = _feat(paddle, [4, 3], seed=2)
        y = paddle.to_tensor(np.random.default_rng(3).uniform(0.5, 2, [5, 3]).astype("float32"), stop_gradient=False)
        out = paddle.geometric.send_ue_recv(x, y, src, dst, message_op=mop, reduce_op=rop)
        (out * out).sum().backward()
        outs += [out, x.grad, y.grad]
    return outs


@case(rtol=1e-5, atol=1e-6)
def send_ue_recv_broadcast(paddle):
    x = _feat(paddle, [4, 2, 3], grad=False)
    y = paddle.to_tensor(np.arange(1, 6, dtype="float32"))
    src = paddle.to_tensor([0, 1, 2, 0, 3])
    dst = paddle.to_tensor([1, 2, 1, 0, 1])
    G = paddle.geometric
    return [G.send_ue_recv(x, y, src, dst, "mul", "sum"), G.send_ue_recv(x, y, src, dst, "add", "max", out_size=5),
            G.send_ue_recv(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]), y, src, dst)]


@case(rtol=1e-5, atol=1e-6)
def send_uv_ops(paddle):
    src = paddle.to_tensor([0, 1, 2, 3])
    dst = paddle.to_tensor([1, 2, 0, 0])
    outs = []
    for mop in ("add", "sub", "mul", "div"):
        x = _feat(paddle, [4, 3], seed=4)
        y = paddle.to_tensor(np.random.default_rng(5).uniform(0.5, 2, [3, 3]).astype("float32"), stop_gradient=False)
        out = paddle.geometric.send_uv(x, y, src, dst, message_op=mop)
        (out * out).sum().backward()
        outs += [out, x.grad, y.grad]
    return outs


@case
def send_uv_bad_op(paddle):
    x = _feat(paddle, [4, 3])
    return paddle.geometric.send_uv(x, x, paddle.to_tensor([0]), paddle.to_tensor([1]), message_op="pow")


def _csc(paddle):
    row = paddle.to_tensor([4, 6, 1, 8, 0, 5, 3, 8, 2, 8, 0, 8, 6])
    colptr = paddle.to_tensor([0, 3, 4, 5, 6, 8, 9, 11, 11, 13, 13])
    return row, colptr


# Paddle 3.3.1's CPU kernel aborts the process for sample_size=-1 and for sample_size below a node's degree,
# so only sample_size >= every degree is recorded here (tests/test_geometric.py covers the rest)
@case
def sample_neighbors_all(paddle):
    row, colptr = _csc(paddle)
    nodes = paddle.to_tensor([0, 8, 1, 4, 7])
    eids = paddle.arange(13) * 10
    G = paddle.geometric
    return [*G.sample_neighbors(row, colptr, nodes, sample_size=5),
            *G.sample_neighbors(row, colptr, nodes, sample_size=3, eids=eids, return_eids=True)]


@case
def sample_neighbors_eids_missing(paddle):
    row, colptr = _csc(paddle)
    return paddle.geometric.sample_neighbors(row, colptr, paddle.to_tensor([0]), return_eids=True)


@case
def weighted_sample_neighbors_all(paddle):
    row, colptr = _csc(paddle)
    w = paddle.to_tensor(np.linspace(0.1, 1.3, 13).astype("float32"))
    nodes = paddle.to_tensor([0, 8, 5])
    return list(paddle.geometric.weighted_sample_neighbors(row, colptr, w, nodes, sample_size=3,
                                                           eids=paddle.arange(13), return_eids=True))


@case
def reindex_graph_basic(paddle):
    x = paddle.to_tensor([0, 1, 2])
    neighbors = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7])
    count = paddle.to_tensor([2, 3, 2], dtype="int32")
    return list(paddle.geometric.reindex_graph(x, neighbors, count))


@case
def reindex_graph_int32_duplicates(paddle):
    x = paddle.to_tensor([5, 3], dtype="int32")
    neighbors = paddle.to_tensor([3, 10, 10, 5, 11], dtype="int32")
    count = paddle.to_tensor([3, 2], dtype="int32")
    return list(paddle.geometric.reindex_graph(x, neighbors, count))


@case
def reindex_heter_graph_basic(paddle):
    x = paddle.to_tensor([0, 1, 2])
    n1 = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7])
    c1 = paddle.to_tensor([2, 3, 2], dtype="int32")
    n2 = paddle.to_tensor([0, 2, 3, 5, 1])
    c2 = paddle.to_tensor([1, 3, 1], dtype="int32")
    return list(paddle.geometric.reindex_heter_graph(x, [n1, n2], [c1, c2]))
