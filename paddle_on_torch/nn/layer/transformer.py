"""paddle.nn layers: MultiHeadAttention (with Cache / StaticCache), Transformer encoder/decoder layers and stacks,
and Transformer, following Paddle 3.3.1 (q/k/v/out Linear projections, bool/int masks become additive
(mask - 1) * 1e9, post- or pre-norm residual blocks, sublayer copies built from the first layer's config)."""
import collections
import copy

import torch

from ..._normalize import to_torch, wrap
from ..._core import dtype as _dtypes
from ...framework.param_attr import ParamAttr
from .. import functional as F
from .common import Dropout, Linear
from .container import LayerList
from .layers import Layer
from .norm import LayerNorm

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
           "TransformerDecoder", "Transformer"]


def _convert_param_attr_to_list(param_attr, n):
    if isinstance(param_attr, (list, tuple)):
        assert len(param_attr) == n, f"length of param_attr should be {n} when it is a list/tuple"
        return [(ParamAttr._to_attr(None) if a else False) if isinstance(a, bool) else ParamAttr._to_attr(a)
                for a in param_attr]
    if isinstance(param_attr, bool):
        return [ParamAttr._to_attr(None) for _ in range(n)] if param_attr else [False] * n
    attr = ParamAttr._to_attr(param_attr)
    out = []
    for i in range(n):
        a = copy.deepcopy(attr)
        if attr.name:
            a.name = a.name + "_" + str(i)
        out.append(a)
    return out


def _convert_attention_mask(attn_mask, dtype):
    if attn_mask is None:
        return None
    m = to_torch(attn_mask)
    tdt = _dtypes.to_torch_dtype(dtype)
    if m.dtype == tdt:
        return attn_mask
    if m.dtype == torch.bool or not (m.is_floating_point() or m.is_complex()):
        return wrap((m.to(tdt) - 1.0) * 1e9)
    return wrap(m.to(tdt))


def _heads(x, n, d):
    t = x._t
    return wrap(t.reshape(t.shape[0], t.shape[1], n, d).permute(0, 2, 1, 3))


class MultiHeadAttention(Layer):
    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None, need_weights=False,
                 weight_attr=None, bias_attr=None):
        super().__init__()
        assert embed_dim > 0, f"Expected embed_dim to be greater than 0, but received {embed_dim}"
        assert num_heads > 0, f"Expected num_heads to be greater than 0, but received {num_heads}"
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads, self.dropout, self.need_weights = num_heads, dropout, need_weights
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == self.embed_dim, "embed_dim must be divisible by num_heads"
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _prepare_qkv(self, query, key, value, cache=None):
        q = _heads(self.q_proj(query), self.num_heads, self.head_dim)
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k = wrap(torch.cat([to_torch(cache.k), k._t], dim=2))
            v = wrap(torch.cat([to_torch(cache.v), v._t], dim=2))
            cache = self.Cache(k, v)
        return (q, k, v) if cache is None else (q, k, v, cache)

    def compute_kv(self, key, value):
        k = _heads(self.k_proj(key), self.num_heads, self.head_dim)
        v = _heads(self.v_proj(value), self.num_heads, self.head_dim)
        return k, v

    def gen_cache(self, key, value=None, type=Cache):
        if type == MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            k = to_torch(key)
            z = torch.zeros([k.shape[0], self.num_heads, 0, self.head_dim], dtype=k.dtype, device=k.device)
            return self.Cache(wrap(z), wrap(z.clone()))
        return self.Cache(key, value)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        if cache is None:
            q, k, v = self._prepare_qkv(query, key, value, cache)
        else:
            q, k, v, cache = self._prepare_qkv(query, key, value, cache)
        product = torch.matmul(q._t * self.head_dim ** (-0.5), to_torch(k).transpose(-1, -2))
        if attn_mask is not None:
            product = product + to_torch(_convert_attention_mask(attn_mask, product.dtype))
        weights = wrap(torch.softmax(product, dim=-1))
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training, mode="upscale_in_train")
        out = torch.matmul(weights._t, to_torch(v)).permute(0, 2, 1, 3)
        out = self.out_proj(wrap(out.reshape(out.shape[0], out.shape[1], out.shape[2] * out.shape[3])))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)


def _check_sizes(d_model, nhead, dim_feedforward):
    assert d_model > 0, f"Expected d_model to be greater than 0, but received {d_model}"
    assert nhead > 0, f"Expected nhead to be greater than 0, but received {nhead}"
    assert dim_feedforward > 0, f"Expected dim_feedforward to be greater than 0, but received {dim_feedforward}"


def _block_begin(layer, config, n_attrs):
    """The shared start of an encoder / decoder layer's __init__: keep its arguments (TransformerEncoder
    clones layers from them), check sizes, and split weight_attr / bias_attr into n_attrs entries."""
    config.pop("self")
    config.pop("__class__", None)
    layer._config = config
    _check_sizes(config["d_model"], config["nhead"], config["dim_feedforward"])
    dropout = config["dropout"]
    layer._attn_dropout = dropout if config["attn_dropout"] is None else config["attn_dropout"]
    layer.normalize_before = config["normalize_before"]
    return (_convert_param_attr_to_list(config["weight_attr"], n_attrs),
            _convert_param_attr_to_list(config["bias_attr"], n_attrs))


def _block_end(layer, n_norms, weight_attr, bias_attr):
    """The feed-forward part, norm1..n and dropout1..n, created in Paddle's order (parameter names count)."""
    c = layer._config
    d_model, dropout = c["d_model"], c["dropout"]
    act_dropout = dropout if c["act_dropout"] is None else c["act_dropout"]
    layer.linear1 = Linear(d_model, c["dim_feedforward"], weight_attr, bias_attr=bias_attr)
    layer.dropout = Dropout(act_dropout, mode="upscale_in_train")
    layer.linear2 = Linear(c["dim_feedforward"], d_model, weight_attr, bias_attr=bias_attr)
    for i in range(1, n_norms + 1):
        setattr(layer, f"norm{i}", LayerNorm(d_model, c["layer_norm_eps"]))
    for i in range(1, n_norms + 1):
        setattr(layer, f"dropout{i}", Dropout(dropout, mode="upscale_in_train"))
    layer.activation = getattr(F, c["activation"])


class TransformerEncoderLayer(Layer):
    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None, layer_norm_eps=1e-5):
        config = dict(locals())
        super().__init__()
        w, b = _block_begin(self, config, 2)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=self._attn_dropout, weight_attr=w[0],
                                            bias_attr=b[0])
        _block_end(self, 2, w[1], b[1])

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, incremental_cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(src)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = residual + self.dropout2(src)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, incremental_cache)

    def gen_cache(self, src):
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = LayerList([encoder_layer if i == 0 else type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        output, new_caches = src, []
        for i, mod in enumerate(self.layers):
            if cache is None:
                output = mod(output, src_mask=src_mask)
            else:
                output, new_cache = mod(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None, layer_norm_eps=1e-5):
        config = dict(locals())
        super().__init__()
        w, b = _block_begin(self, config, 3)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=self._attn_dropout, weight_attr=w[0],
                                            bias_attr=b[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=self._attn_dropout, weight_attr=w[1],
                                             bias_attr=b[1])
        _block_end(self, 3, w[2], b[2])

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, incremental_cache = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = residual + self.dropout1(tgt)
        if not self.normalize_before:
            tgt = self.norm1(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static_cache = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = residual + self.dropout2(tgt)
        if not self.normalize_before:
            tgt = self.norm2(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        tgt = residual + self.dropout3(tgt)
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (incremental_cache, static_cache))

    def gen_cache(self, memory):
        return (self.self_attn.gen_cache(memory, type=self.self_attn.Cache),
                self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache))


class TransformerDecoder(Layer):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = LayerList([decoder_layer if i == 0 else type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        output, new_caches = tgt, []
        for i, mod in enumerate(self.layers):
            if cache is None:
                output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=None)
            else:
                output, new_cache = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attr(attr):
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return attr, [attr[0], attr[0], attr[-1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], attr
    raise AssertionError("length of bias_attr should be 1 or 2 or 3 when it is a list/tuple")


class Transformer(Layer):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", attn_dropout=None, act_dropout=None, normalize_before=False,
                 weight_attr=None, bias_attr=None, custom_encoder=None, custom_decoder=None):
        super().__init__()
        _check_sizes(d_model, nhead, dim_feedforward)
        enc_b, dec_b = _split_attr(bias_attr)
        enc_w, dec_w = _split_attr(weight_attr)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                                            act_dropout, normalize_before, enc_w, enc_b)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, attn_dropout,
                                            act_dropout, normalize_before, dec_w, dec_b)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model, self.nhead = d_model, nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        n = int(to_torch(length).item()) if not isinstance(length, int) else length
        full = torch.full([n, n], float("-inf"), dtype=_dtypes.default_float_torch())
        return wrap(torch.triu(full, 1))
