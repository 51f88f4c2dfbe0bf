"""paddle.compat: torch's signatures and return types on Paddle tensors."""
import numpy as np

from tests.cases import case, data


def _x(paddle, seed=0, shape=(3, 5)):
    return paddle.to_tensor(np.random.default_rng(seed).normal(size=shape).astype("float32"))


@case
def compat_min_max_forms(paddle):
    c = paddle.compat
    x = paddle.to_tensor([[3.0, 1.0, 1.0], [5.0, 5.0, 4.0]])
    y = paddle.to_tensor([[2.0, 2.0, 2.0], [2.0, 9.0, 2.0]])
    r = c.max(x, 1)
    return [c.min(x), c.max(x), list(c.min(x, 1)), list(c.max(x, dim=0, keepdim=True)), list(r), r._fields,
            c.min(x, y), c.max(x, other=y), list(c.min(paddle.to_tensor(2.5), 0))]


@case
def compat_min_max_bad_arguments(paddle):
    c = paddle.compat
    x = paddle.ones([2, 3])
    errors = []
    for call in (lambda: c.min(x, None), lambda: c.max(x, 1.5), lambda: c.min(x, 1, True, 3),
                 lambda: c.max(x, axis=1), lambda: c.min([1, 2])):
        try:
            call()
        except Exception as e:
            errors.append(type(e).__name__)
    return errors


@case
def compat_sort_split_unique(paddle):
    c = paddle.compat
    x = _x(paddle, 1, (4, 6))
    s = c.sort(x, dim=0, descending=True)
    return [list(s), s._fields, list(c.split(paddle.arange(10), 4)), list(c.split(x, [2, 4], dim=1)),
            list(c.unique(paddle.to_tensor([3, 1, 3, 2, 1]), return_inverse=True, return_counts=True))]


@case
def compat_split_bad_sizes(paddle):
    return paddle.compat.split(paddle.arange(6), [4, -1])


@case
def compat_equal_slogdet_median(paddle):
    c = paddle.compat
    m = paddle.to_tensor([[3, 1, 2], [5, 5, 4]])
    nan = paddle.to_tensor([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), 2.0]])
    sign, logdet = c.slogdet(paddle.to_tensor([[2.0, 1.0], [1.0, 3.0]]))
    return [c.equal(paddle.to_tensor([1, 2]), paddle.to_tensor([1.0, 2.0])),
            c.equal(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 3])), sign, logdet,
            c.median(m), list(c.median(m, 1)), c.nanmedian(nan), list(c.nanmedian(nan, 1))]


@case
def compat_out_arguments(paddle):
    c = paddle.compat
    x = _x(paddle, 2, (3, 4))
    vals, idx = paddle.zeros([3]), paddle.zeros([3], dtype="int64")
    r = c.max(x, 1, out=(vals, idx))
    return [vals, idx, list(r)]


@case
def compat_keyword_refusal(paddle):
    return paddle.compat.sort(paddle.ones([3]), axis=0)


@case
def compat_functional(paddle):
    F = paddle.compat.nn.functional
    x = _x(paddle, 3, (2, 3, 4))
    w, b = _x(paddle, 4, (5, 4)), _x(paddle, 5, (5,))
    img = _x(paddle, 6, (1, 2, 5, 5))
    q = _x(paddle, 7, (2, 2, 4, 8))
    return [F.pad(x, [1, 2]), F.pad(x, (1, 1, 2, 0), value=3.0), F.pad(img, [1, 1, 1, 1], mode="reflect"),
            F.softmax(x), F.softmax(x, dim=-1), F.linear(x, w, b), F.unfold(img, 3, padding=1),
            F.scaled_dot_product_attention(q, q, q, is_causal=True)]


@case
def compat_layers(paddle):
    nn = paddle.compat.nn
    lin = nn.Linear(4, 3)
    lin.weight.set_value(data((3, 4), 7))
    lin.bias.set_value(data((3,), 8))
    x = _x(paddle, 9, (2, 4))
    img = _x(paddle, 10, (1, 2, 6, 6))
    vol = _x(paddle, 11, (1, 1, 4, 4, 4))
    return [lin.weight.shape, lin(x), nn.Softmax(dim=0)(x), nn.AvgPool1D(2)(_x(paddle, 12, (1, 2, 7))),
            nn.AvgPool2D(3, stride=2, padding=1, count_include_pad=False)(img), nn.AvgPool3D(2)(vol),
            nn.Unfold(kernel_size=2, stride=2)(img), str(lin)]


@case
def compat_multihead_attention(paddle):
    mha = paddle.compat.nn.MultiheadAttention(8, 2, batch_first=True)
    for i, (name, p) in enumerate(mha.named_parameters()):
        p.set_value(data(p.shape, 20 + i, scale=0.3))
    x = _x(paddle, 13, (2, 5, 8))
    out, weights = mha(x, x, x)
    out2, w2 = mha(x, x, x, need_weights=False, is_causal=True,
                   attn_mask=paddle.triu(paddle.ones([5, 5], dtype="bool"), 1))
    return [[n for n, _ in mha.named_parameters()], out, weights, out2, w2]


@case(exact=True)
def compat_layers_initial_weights_on_paddles_stream(paddle):
    """torch's initialisation (kaiming_uniform_(a=sqrt(5)), a bias bound of 1/sqrt(fan_in)) drawn from Paddle's
    stream after create_parameter's own default draws, as Paddle's compat layers do."""
    nn = paddle.compat.nn
    paddle.seed(100)
    lin = nn.Linear(2, 4)
    paddle.seed(3)
    lin64 = nn.Linear(5, 3, dtype="float64")
    after = paddle.rand([2])
    paddle.seed(5)
    mha = nn.MultiheadAttention(4, 2, add_bias_kv=True)
    paddle.seed(6)
    mha_kv = nn.MultiheadAttention(4, 2, kdim=3, vdim=5)
    return [lin.weight, lin.bias, lin64.weight, lin64.bias, after,
            [(n, p) for n, p in mha.named_parameters()], [(n, p) for n, p in mha_kv.named_parameters()]]
