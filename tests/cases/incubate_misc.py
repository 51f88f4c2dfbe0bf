"""paddle.incubate plain functions: graph ops under their 2.x names, softmax_mask_fuse, identity_loss, LookAhead."""
import numpy as np

from tests.cases import case, fill_parameters


def _t(paddle, shape, seed=0, grad=False):
    return paddle.to_tensor(np.random.default_rng(seed).normal(0, 1, shape).astype("float32"), stop_gradient=not grad)


@case
def incubate_segment_and_send_recv(paddle):
    x = _t(paddle, [5, 3])
    ids = paddle.to_tensor([0, 0, 1, 1, 3])
    I = paddle.incubate
    src, dst = paddle.to_tensor([0, 2, 4, 1]), paddle.to_tensor([1, 1, 0, 2])
    return [I.segment_sum(x, ids), I.segment_mean(x, ids), I.segment_max(x, ids), I.segment_min(x, ids),
            I.graph_send_recv(x, src, dst), I.graph_send_recv(x, src, dst, pool_type="max", out_size=3)]


@case
def incubate_graph_reindex_and_sample(paddle):
    I = paddle.incubate
    x = paddle.to_tensor([3, 0])
    out = list(I.graph_reindex(x, paddle.to_tensor([5, 0, 7, 3, 5]), paddle.to_tensor([2, 3], dtype="int32")))
    row = paddle.to_tensor([4, 6, 1, 8, 0, 5, 3, 8, 2, 8, 0, 8, 6])
    colptr = paddle.to_tensor([0, 3, 4, 5, 6, 8, 9, 11, 11, 13, 13])
    out += list(I.graph_sample_neighbors(row, colptr, paddle.to_tensor([0, 4, 9]), sample_size=4))
    return out


@case(rtol=1e-5, atol=1e-6)
def softmax_mask_fuse_values_and_grad(paddle):
    x = _t(paddle, [2, 2, 3, 5], grad=True)
    mask = paddle.to_tensor(np.where(np.random.default_rng(1).random([2, 1, 3, 5]) > 0.3, 0.0, -1e4).astype(
        "float32"))
    out = paddle.incubate.softmax_mask_fuse(x, mask)
    (out * _t(paddle, [2, 2, 3, 5], seed=2)).sum().backward()
    return [out, x.grad]


@case
def softmax_mask_fuse_upper_triangle_cpu(paddle):
    return paddle.incubate.softmax_mask_fuse_upper_triangle(_t(paddle, [1, 1, 4, 4]))


@case
def identity_loss_reductions(paddle):
    x = _t(paddle, [2, 3], grad=True)
    I = paddle.incubate
    outs = [I.identity_loss(x, "sum"), I.identity_loss(x, "MEAN"), I.identity_loss(x), I.identity_loss(x, 0),
            I.identity_loss(x, 1), I.identity_loss(x, 2)]
    outs[1].backward()
    return outs + [x.grad]


@case
def identity_loss_bad_reduction(paddle):
    return paddle.incubate.identity_loss(paddle.ones([2]), "max")


def _lookahead_run(paddle, make_inner, alpha, k, steps=7):
    net = fill_parameters(paddle.nn.Linear(4, 3), seed=3)
    opt = paddle.incubate.LookAhead(make_inner(net.parameters()), alpha=alpha, k=k)
    x, y = _t(paddle, [6, 4], seed=4), _t(paddle, [6, 3], seed=5)
    losses = []
    for _ in range(steps):
        loss = ((net(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses + [net.weight, net.bias]


@case(rtol=1e-5, atol=1e-6)
def lookahead_sgd(paddle):
    return _lookahead_run(paddle, lambda p: paddle.optimizer.SGD(learning_rate=0.1, parameters=p), 0.3, 3)


@case(rtol=1e-5, atol=1e-6)
def lookahead_adam_k1(paddle):
    out = _lookahead_run(paddle, lambda p: paddle.optimizer.Adam(learning_rate=0.05, parameters=p), 0.6, 1, 4)
    return out + _lookahead_run(paddle, lambda p: paddle.optimizer.Adam(learning_rate=0.05, parameters=p), 0.5, 2)


@case
def lookahead_bad_alpha(paddle):
    net = paddle.nn.Linear(2, 2)
    return paddle.incubate.LookAhead(paddle.optimizer.SGD(parameters=net.parameters()), alpha=1.5)


def _model_average_run(paddle, rate, min_w, max_w, steps):
    net = fill_parameters(paddle.nn.Linear(3, 2), seed=6)
    sgd = paddle.optimizer.SGD(learning_rate=0.2, parameters=net.parameters())
    avg = paddle.incubate.ModelAverage(rate, parameters=net.parameters(), min_average_window=min_w,
                                       max_average_window=max_w)
    x, y = _t(paddle, [5, 3], seed=7), _t(paddle, [5, 2], seed=8)
    for _ in range(steps):
        loss = ((net(x) - y) ** 2).mean()
        loss.backward()
        sgd.step()
        avg.step()
        sgd.clear_grad()
    out = []
    with avg.apply():
        out += [net.weight.clone(), net(x)]
    out += [net.weight.clone()]
    with avg.apply(need_restore=False):
        pass
    out += [net.weight.clone()]
    return out


@case(rtol=1e-5, atol=1e-6)
def model_average_windows(paddle):
    return _model_average_run(paddle, 0.15, 2, 4, 9) + _model_average_run(paddle, 0.5, 1, 100, 6) + \
        _model_average_run(paddle, 0.15, 20, 30, 5)


# sample sizes at least every degree: Paddle's sampling is then deterministic (its frontier quirks included:
# each hop samples only as many frontier nodes as there were input nodes)
@case
def graph_khop_sampler_two_hops(paddle):
    row = paddle.to_tensor([4, 6, 1, 8, 0, 5, 3, 8, 2, 8, 0, 8, 6])
    colptr = paddle.to_tensor([0, 3, 4, 5, 6, 8, 9, 11, 11, 13, 13])
    return list(paddle.incubate.graph_khop_sampler(row, colptr, paddle.to_tensor([0, 4]), [5, 5]))


@case
def graph_khop_sampler_three_hops_eids(paddle):
    row = paddle.to_tensor([4, 6, 1, 8, 0, 5, 3, 8, 2, 8, 0, 8, 6])
    colptr = paddle.to_tensor([0, 3, 4, 5, 6, 8, 9, 11, 11, 13, 13])
    eids = paddle.arange(13) * 3
    return list(paddle.incubate.graph_khop_sampler(row, colptr, paddle.to_tensor([4]), [4, 3, 2], sorted_eids=eids,
                                                   return_eids=True))


@case
def asp_calculate_density(paddle):
    a = np.array([[0.0, 1.5, 0.0, -2.0], [3.0, 0.0, 0.0, 0.0]])
    return [paddle.incubate.asp.calculate_density(a), paddle.incubate.asp.calculate_density(np.ones([3, 3]))]
