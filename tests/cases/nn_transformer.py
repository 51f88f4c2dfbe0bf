"""paddle.nn MultiHeadAttention (masks, need_weights, Cache / StaticCache), Transformer encoder/decoder layers
and stacks, Transformer: values with shared weights, gradients, parameter names and reprs."""
import numpy as np

from tests.cases import case, data, fill_parameters


def _x(paddle, shape, seed):
    return paddle.to_tensor(data(shape, seed), stop_gradient=False)


@case
def mha_layout(paddle):
    m = paddle.nn.MultiHeadAttention(8, 2, kdim=6, vdim=4)
    return [[(n, list(p.shape)) for n, p in m.named_parameters()], repr(m)]


@case(rtol=1e-5, atol=1e-5)  # float32 summation order in the projections
def mha_masks_and_weights(paddle):
    m = fill_parameters(paddle.nn.MultiHeadAttention(8, 2, need_weights=True), 1)
    q = _x(paddle, [2, 3, 8], 2)
    kv = paddle.to_tensor(data([2, 4, 8], 3))
    out, w = m(q, kv, kv)
    bool_mask = paddle.to_tensor(np.array([[True, True, False, True]] * 3))
    out_b, w_b = m(q, kv, kv, attn_mask=bool_mask)
    add_mask = paddle.to_tensor(data([2, 1, 3, 4], 4))
    out_a, _ = m(q, kv, kv, attn_mask=add_mask)
    out_i, _ = m(q, kv, kv, attn_mask=bool_mask.astype("int64"))
    (out.sum() + out_b.sum()).backward()
    return [out, w, out_b, w_b, out_a, out_i, q.grad, m.q_proj.weight.grad, m.out_proj.bias.grad]


@case(rtol=1e-5, atol=1e-5)
def mha_caches(paddle):
    m = fill_parameters(paddle.nn.MultiHeadAttention(4, 2), 5)
    mem = paddle.to_tensor(data([1, 3, 4], 6))
    q = paddle.to_tensor(data([1, 1, 4], 7))
    cache = m.gen_cache(q, type=m.Cache)
    out1, cache = m(q, q, q, None, cache)
    out2, cache = m(q * 2, q * 2, q * 2, None, cache)
    static = m.gen_cache(mem, mem, type=m.StaticCache)
    out3, static2 = m(q, mem, mem, None, static)
    return [out1, out2, cache.k, cache.v, out3, static2.k, type(cache).__name__, type(static).__name__]


@case(rtol=1e-5, atol=1e-5)
def encoder_layer_post_and_pre_norm(paddle):
    outs = []
    for pre in (False, True):
        layer = fill_parameters(paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, normalize_before=pre,
                                                                  activation="gelu"), 8)
        x = _x(paddle, [2, 3, 8], 9)
        y = layer(x, paddle.to_tensor(np.tril(np.ones([3, 3], dtype=bool))))
        y.sum().backward()
        outs += [y, x.grad, layer.linear1.weight.grad]
    return outs


@case(rtol=1e-5, atol=1e-5)
def encoder_stack(paddle):
    layer = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    enc = fill_parameters(paddle.nn.TransformerEncoder(layer, 2, norm=paddle.nn.LayerNorm(8)), 10)
    x = paddle.to_tensor(data([2, 3, 8], 11))
    cache = enc.gen_cache(x)
    out_c, new_cache = enc(x, cache=cache)
    return [enc(x), [n for n, _ in enc.named_parameters()], out_c, new_cache[1].k]


@case(rtol=1e-5, atol=1e-5)
def decoder_layer_and_stack(paddle):
    layer = paddle.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True)
    dec = fill_parameters(paddle.nn.TransformerDecoder(layer, 2), 12)
    tgt = _x(paddle, [2, 3, 8], 13)
    mem = paddle.to_tensor(data([2, 4, 8], 14))
    mask = paddle.nn.Transformer.generate_square_subsequent_mask(None, 3)
    out = dec(tgt, mem, tgt_mask=mask)
    out.sum().backward()
    cache = dec.gen_cache(mem)
    out_c, _ = dec(tgt[:, :1], mem, cache=cache)
    return [out, tgt.grad, out_c, len(dec.gen_cache(mem, do_zip=True)), mask]


@case(rtol=1e-5, atol=1e-5)
def transformer_full(paddle):
    t = fill_parameters(paddle.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, bias_attr=[False, True]), 15)
    src = paddle.to_tensor(data([2, 4, 8], 16))
    tgt = paddle.to_tensor(data([2, 3, 8], 17))
    out = t(src, tgt, tgt_mask=t.generate_square_subsequent_mask(3))
    return [out, [n for n, _ in t.named_parameters()], repr(t.encoder.layers[0])]


@case
def transformer_errors(paddle):
    errs = []
    for f in (lambda: paddle.nn.MultiHeadAttention(6, 4), lambda: paddle.nn.TransformerEncoderLayer(8, 0, 16),
              lambda: paddle.nn.Transformer(8, 2, 1, 1, 16, weight_attr=[None] * 4)):
        try:
            f()
            errs.append("no error")
        except Exception as e:  # noqa: BLE001
            errs.append(type(e).__name__)
    return errs
