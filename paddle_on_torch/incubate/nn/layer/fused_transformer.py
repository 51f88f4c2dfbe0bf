"""paddle.incubate.nn: FusedBiasDropoutResidualLayerNorm, FusedMultiHeadAttention, FusedFeedForward,
FusedTransformerEncoderLayer.  Parameter names, shapes and initialisers are Paddle 3.3.1's (so state_dicts
load both ways); the forward passes are the functional ops of paddle.incubate.nn.functional."""
from ....nn import Layer
from ....nn.initializer import Constant
from ....nn.layer.transformer import _convert_attention_mask, _convert_param_attr_to_list
from .. import functional as F
from ...._report import unsupported

__all__ = ["FusedBiasDropoutResidualLayerNorm", "FusedMultiHeadAttention", "FusedFeedForward",
           "FusedTransformerEncoderLayer"]


def _name(name):
    return f", name={name}" if name else ""


class FusedBiasDropoutResidualLayerNorm(Layer):
    def __init__(self, embed_dim, dropout_rate=0.5, weight_attr=None, bias_attr=None, epsilon=1e-5, name=None):
        super().__init__()
        assert embed_dim > 0, f"Expected embed_dim to be greater than 0, but received {embed_dim}"
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self.embed_dim = embed_dim
        self.linear_bias = self.create_parameter(shape=[embed_dim], attr=bias_attr, dtype=self._dtype, is_bias=True)
        self.ln_scale = self.create_parameter(attr=weight_attr, shape=[embed_dim],
                                              default_initializer=Constant(value=1.0))
        self.ln_bias = self.create_parameter(attr=bias_attr, shape=[embed_dim], is_bias=True)
        self.dropout_rate = dropout_rate
        self._epsilon = epsilon
        self.name = name

    def forward(self, x, residual):
        return F.fused_bias_dropout_residual_layer_norm(
            x=x, residual=residual, bias=self.linear_bias, ln_scale=self.ln_scale, ln_bias=self.ln_bias,
            dropout_rate=self.dropout_rate, ln_epsilon=self._epsilon, training=self.training,
            mode="upscale_in_train", name=self.name)

    def extra_repr(self):
        # Paddle's own extra_repr reads a missing `seq_len` attribute and raises; this one leaves it out
        return (f"embed_dim={self.embed_dim}, dropout_rate={self.dropout_rate}, epsilon={self._epsilon}, "
                f"dtype={self._dtype}" + _name(self.name))


class FusedMultiHeadAttention(Layer):
    def __init__(self, embed_dim, num_heads, dropout_rate=0.5, attn_dropout_rate=0.5, kdim=None, vdim=None,
                 normalize_before=False, need_weights=False, qkv_weight_attr=None, qkv_bias_attr=None,
                 linear_weight_attr=None, linear_bias_attr=None, pre_ln_scale_attr=None, pre_ln_bias_attr=None,
                 ln_scale_attr=None, ln_bias_attr=None, epsilon=1e-5, nranks=1, ring_id=-1,
                 transpose_qkv_wb=False, name=None):
        super().__init__()
        assert embed_dim > 0, f"Expected embed_dim to be greater than 0, but received {embed_dim}"
        assert num_heads > 0, f"Expected nhead to be greater than 0, but received {num_heads}"
        self.normalize_before = normalize_before
        self._epsilon, self._ring_id = epsilon, ring_id
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.kdim, self.vdim, self.need_weights = kdim, vdim, need_weights
        assert self.head_dim * num_heads == embed_dim, "embed_dim must be divisible by num_heads"
        assert need_weights is False, "Only support need_weight is False now."
        assert num_heads % nranks == 0
        if nranks > 1:
            raise unsupported("paddle.incubate.nn.FusedMultiHeadAttention",
                              " with nranks > 1 (tensor parallel inside the fused op)")
        self.num_heads = num_heads // nranks
        self.transpose_qkv_wb = transpose_qkv_wb
        width = self.num_heads * self.head_dim
        if transpose_qkv_wb:
            w_shape, b_shape = [embed_dim, 3 * width], [3 * width]
        else:
            w_shape, b_shape = [3, self.num_heads, self.head_dim, embed_dim], [3, self.num_heads, self.head_dim]
        self.qkv_weight = self.create_parameter(shape=w_shape, attr=qkv_weight_attr, dtype=self._dtype)
        self.qkv_bias = self.create_parameter(shape=b_shape, attr=qkv_bias_attr, dtype=self._dtype, is_bias=True)
        self.linear_weight = self.create_parameter(shape=[width, embed_dim], attr=linear_weight_attr,
                                                   dtype=self._dtype)
        self.linear_bias = self.create_parameter(shape=[embed_dim], attr=linear_bias_attr, dtype=self._dtype,
                                                 is_bias=True)
        if normalize_before:
            self.pre_ln_scale = self.create_parameter(attr=pre_ln_scale_attr, shape=[embed_dim],
                                                      default_initializer=Constant(value=1.0))
            self.pre_ln_bias = self.create_parameter(attr=pre_ln_bias_attr, shape=[embed_dim], is_bias=True)
            self.ln_scale = self.ln_bias = None
        else:
            self.pre_ln_scale = self.pre_ln_bias = None
            self.ln_scale = self.create_parameter(attr=ln_scale_attr, shape=[embed_dim],
                                                  default_initializer=Constant(value=1.0))
            self.ln_bias = self.create_parameter(attr=ln_bias_attr, shape=[embed_dim], is_bias=True)
        self.dropout_rate, self.attn_dropout_rate = dropout_rate, attn_dropout_rate
        self.name = name

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        if attn_mask is not None:
            attn_mask = _convert_attention_mask(attn_mask, query.dtype)
        return F.fused_multi_head_attention(
            x=query, qkv_weight=self.qkv_weight, linear_weight=self.linear_weight,
            pre_layer_norm=self.normalize_before, pre_ln_scale=self.pre_ln_scale, pre_ln_bias=self.pre_ln_bias,
            ln_scale=self.ln_scale, ln_bias=self.ln_bias, pre_ln_epsilon=self._epsilon, qkv_bias=self.qkv_bias,
            linear_bias=self.linear_bias, cache_kv=cache, attn_mask=attn_mask, dropout_rate=self.dropout_rate,
            attn_dropout_rate=self.attn_dropout_rate, ln_epsilon=self._epsilon, training=self.training,
            ring_id=self._ring_id, num_heads=self.num_heads, transpose_qkv_wb=self.transpose_qkv_wb,
            name=self.name)

    def extra_repr(self):
        return (f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout_rate={self.dropout_rate}, "
                f"attn_dropout_rate={self.attn_dropout_rate}, epsilon={self._epsilon}, kdim={self.kdim}, "
                f"vdim={self.vdim}, normalize_before={self.normalize_before}, need_weights={self.need_weights}, "
                f"dtype={self._dtype}" + _name(self.name))


class FusedFeedForward(Layer):
    def __init__(self, d_model, dim_feedforward, dropout_rate=0.1, epsilon=1e-05, activation="relu",
                 act_dropout_rate=None, normalize_before=False, linear1_weight_attr=None, linear1_bias_attr=None,
                 linear2_weight_attr=None, linear2_bias_attr=None, ln1_scale_attr=None, ln1_bias_attr=None,
                 ln2_scale_attr=None, ln2_bias_attr=None, nranks=1, ring_id=-1, name=None):
        super().__init__()
        assert d_model > 0, f"Expected d_model to be greater than 0, but received {d_model}"
        assert dim_feedforward > 0, f"Expected dim_feedforward to be greater than 0, but received {dim_feedforward}"
        assert dim_feedforward % nranks == 0
        if nranks > 1:
            raise unsupported("paddle.incubate.nn.FusedFeedForward",
                              " with nranks > 1 (tensor parallel inside the fused op)")
        self._d_model = d_model
        self._dim_feedforward = dim_feedforward = dim_feedforward // nranks
        self._dropout_rate = dropout_rate
        self._act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self._act_method, self._normalize_before = activation, normalize_before
        self._epsilon, self._ring_id = epsilon, ring_id
        self._linear1_weight = self.create_parameter(shape=[d_model, dim_feedforward], attr=linear1_weight_attr,
                                                     dtype=self._dtype)
        self._linear1_bias = self.create_parameter(shape=[dim_feedforward], attr=linear1_bias_attr,
                                                   dtype=self._dtype, is_bias=True)
        self._linear2_weight = self.create_parameter(shape=[dim_feedforward, d_model], attr=linear2_weight_attr,
                                                     dtype=self._dtype)
        self._linear2_bias = self.create_parameter(shape=[d_model], attr=linear2_bias_attr, dtype=self._dtype,
                                                   is_bias=True)
        ln = lambda attr: self.create_parameter(shape=[d_model], attr=attr, default_initializer=Constant(1.0))  # noqa
        if normalize_before:
            self._ln1_scale = ln(ln1_scale_attr)
            self._ln1_bias = self.create_parameter(shape=[d_model], attr=ln1_bias_attr, is_bias=True)
            self._ln2_scale = self._ln2_bias = None
        else:
            self._ln1_scale = self._ln1_bias = None
            self._ln2_scale = ln(ln2_scale_attr)
            self._ln2_bias = self.create_parameter(shape=[d_model], attr=ln2_bias_attr, is_bias=True)
        self.name = name

    def forward(self, src, cache=None):
        return F.fused_feedforward(
            src, self._linear1_weight, self._linear2_weight, self._linear1_bias, self._linear2_bias,
            self._ln1_scale, self._ln1_bias, self._ln2_scale, self._ln2_bias,
            dropout1_rate=self._act_dropout_rate, dropout2_rate=self._dropout_rate, activation=self._act_method,
            ln1_epsilon=self._epsilon, ln2_epsilon=self._epsilon, pre_layer_norm=self._normalize_before,
            training=self.training, ring_id=self._ring_id, name=self.name)

    def extra_repr(self):
        return (f"d_model={self._d_model}, dim_feedforward={self._dim_feedforward}, "
                f"dropout_rate={self._dropout_rate}, epsilon={self._epsilon}, activation={self._act_method}, "
                f"act_dropout_rate={self._act_dropout_rate}, normalize_before={self._normalize_before}, "
                f"dtype={self._dtype}" + _name(self.name))


class FusedTransformerEncoderLayer(Layer):
    def __init__(self, d_model, nhead, dim_feedforward, dropout_rate=0.1, activation="relu",
                 attn_dropout_rate=None, act_dropout_rate=None, normalize_before=False, weight_attr=None,
                 bias_attr=None):
        self._config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        assert d_model > 0, f"Expected d_model to be greater than 0, but received {d_model}"
        assert nhead > 0, f"Expected nhead to be greater than 0, but received {nhead}"
        assert dim_feedforward > 0, ("Expected dim_feedforward to be greater than 0, "
                                     f"but received {dim_feedforward}")
        attn_dropout_rate = dropout_rate if attn_dropout_rate is None else attn_dropout_rate
        act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self.normalize_before = normalize_before
        w = _convert_param_attr_to_list(weight_attr, 2)
        b = _convert_param_attr_to_list(bias_attr, 2)
        self.fused_attn = FusedMultiHeadAttention(
            d_model, nhead, dropout_rate=dropout_rate, attn_dropout_rate=attn_dropout_rate,
            normalize_before=normalize_before, qkv_weight_attr=w[0], qkv_bias_attr=b[0], linear_weight_attr=w[0],
            linear_bias_attr=b[0], pre_ln_scale_attr=w[0], pre_ln_bias_attr=b[0], ln_scale_attr=w[0],
            ln_bias_attr=b[0])
        self.ffn = FusedFeedForward(
            d_model, dim_feedforward, dropout_rate=dropout_rate, activation=activation,
            act_dropout_rate=act_dropout_rate, normalize_before=normalize_before, linear1_weight_attr=w[1],
            linear1_bias_attr=b[1], linear2_weight_attr=w[1], linear2_bias_attr=b[1])

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        if cache is None:
            return self.ffn(self.fused_attn(src, attn_mask=src_mask))
        attn_out, incremental_cache = self.fused_attn(src, attn_mask=src_mask, cache=cache)
        return self.ffn(attn_out), incremental_cache
