"""paddle.geometric sampling where Paddle 3.3.1's CPU kernel aborts (sample_size=-1 or below a degree):
the documented semantics, checked by property."""
import numpy as np

import paddle

ROW = [4, 6, 1, 8, 0, 5, 3, 8, 2, 8, 0, 8, 6]
COLPTR = [0, 3, 4, 5, 6, 8, 9, 11, 11, 13, 13]


def _graph():
    return paddle.to_tensor(ROW), paddle.to_tensor(COLPTR)


def test_sample_all_neighbors_with_minus_one():
    row, colptr = _graph()
    out, cnt = paddle.geometric.sample_neighbors(row, colptr, paddle.to_tensor([0, 7, 4]))
    assert out.numpy().tolist() == [4, 6, 1, 3, 8] and cnt.numpy().tolist() == [3, 0, 2]
    assert cnt.dtype == paddle.int32 and out.dtype == paddle.int64


def test_sample_below_degree_draws_distinct_neighbours():
    row, colptr = _graph()
    paddle.seed(1)
    nodes = [0, 4, 8, 1]
    out, cnt, eids = paddle.geometric.sample_neighbors(row, colptr, paddle.to_tensor(nodes), sample_size=2,
                                                       eids=paddle.arange(13) * 10, return_eids=True)
    assert cnt.numpy().tolist() == [2, 2, 2, 1]
    start = 0
    for node, c in zip(nodes, cnt.numpy()):
        got_e = eids.numpy()[start:start + c] // 10
        assert len(set(got_e)) == c and all(COLPTR[node] <= e < COLPTR[node + 1] for e in got_e)
        assert (out.numpy()[start:start + c] == np.array(ROW)[got_e]).all()
        start += c


def test_weighted_sampling_prefers_heavy_edges():
    row, colptr = _graph()
    w = np.full(13, 1e-6, "float32")
    w[1] = 1.0  # node 0's neighbour 6
    paddle.seed(3)
    out, cnt = paddle.geometric.weighted_sample_neighbors(row, colptr, paddle.to_tensor(w), paddle.to_tensor([0]),
                                                          sample_size=1)
    assert out.numpy().tolist() == [6] and cnt.numpy().tolist() == [1]
