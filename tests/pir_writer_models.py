"""Models for the PIR writer (paddle_on_torch/jit/pir_writer.py), run on both sides: real Paddle 3.3.1 (the
recorders in tools/) and paddle_on_torch (tests/test_pir_writer.py, tests/test_pir_roundtrip.py).

`STRUCTURE`: small models whose programs real Paddle's own jit.save wrote (tools/record_pir_programs.py), to
compare the writer's program with op by op.  `ROUNDTRIP`: what tools/record_pir_roundtrip.py saves with
paddle_on_torch and loads with real Paddle (the model-zoo architectures at tiny widths, the control-flow
Layers of tests/cases/jit_control_flow.py, a LLaMA-style decoder block).

Each entry: name -> (factory, input specs, inputs(rng)); `build(name)` makes the Layer with the same weights on
both sides (numpy's generator over the state dict, by name), in eval mode.
"""
import importlib
import math

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.static import InputSpec

SEED = 2024


# ----------------------------------------------------------------- small models, structure against Paddle's
class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class SmallCNN(nn.Layer):
    """conv + batch_norm + relu + max pool, a strided conv without bias, avg pool, global pool, linear."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2D(3, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2D(4)
        self.pool = nn.MaxPool2D(2)
        self.conv2 = nn.Conv2D(4, 6, 3, stride=2, padding=1, bias_attr=False)
        self.bn2 = nn.BatchNorm2D(6)
        self.avg = nn.AvgPool2D(2)
        self.gap = nn.AdaptiveAvgPool2D(1)
        self.fc = nn.Linear(6, 2)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.avg(F.relu(self.bn2(self.conv2(x))))
        return self.fc(paddle.flatten(self.gap(x), 1))


class TransformerBlock(nn.Layer):
    """A pre-norm block: LayerNorm, nn.MultiHeadAttention, residual, LayerNorm, GELU MLP, residual."""

    def __init__(self, dim=8, heads=2):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = nn.MultiHeadAttention(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Branchy(nn.Layer):
    """A data-dependent `if` and a `while` on a Tensor: Paddle's to_static writes pd_op.if and pd_op.while."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x, n):
        y = self.fc(x)
        if y.mean() > 0:
            y = y * 2.0 + x
        else:
            y = y - 1.0
        i = paddle.zeros([1], "int64")
        while i < n:
            y = F.relu(y) + 0.5 * y
            i = i + 1
        return y, i


# ----------------------------------------------------------------- a LLaMA-style decoder block
class RMSNorm(nn.Layer):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = self.create_parameter([dim], default_initializer=nn.initializer.Constant(1.0))
        self.eps = eps

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return x * paddle.rsqrt(var + self.eps) * self.weight


def _rotate_half(x):
    half = x.shape[-1] // 2
    return paddle.concat([-x[..., half:], x[..., :half]], axis=-1)


class LlamaBlock(nn.Layer):
    """RMSNorm, rotary position embedding, causal attention with grouped key/value heads, SwiGLU MLP."""

    def __init__(self, dim=16, heads=4, kv_heads=2, seq=6, vocab=32):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, dim // heads
        self.embed = nn.Embedding(vocab, dim)
        self.norm1 = RMSNorm(dim)
        self.q = nn.Linear(dim, heads * self.hd, bias_attr=False)
        self.k = nn.Linear(dim, kv_heads * self.hd, bias_attr=False)
        self.v = nn.Linear(dim, kv_heads * self.hd, bias_attr=False)
        self.o = nn.Linear(heads * self.hd, dim, bias_attr=False)
        self.norm2 = RMSNorm(dim)
        self.gate = nn.Linear(dim, 2 * dim, bias_attr=False)
        self.up = nn.Linear(dim, 2 * dim, bias_attr=False)
        self.down = nn.Linear(2 * dim, dim, bias_attr=False)
        self.norm = RMSNorm(dim)
        self.head = nn.Linear(dim, vocab, bias_attr=False)
        inv = 1.0 / (10000 ** (np.arange(0, self.hd, 2, dtype="float32") / self.hd))
        freqs = np.outer(np.arange(seq, dtype="float32"), inv)
        emb = np.concatenate([freqs, freqs], axis=-1)
        self.register_buffer("cos", paddle.to_tensor(np.cos(emb)[None, :, None, :]), persistable=False)
        self.register_buffer("sin", paddle.to_tensor(np.sin(emb)[None, :, None, :]), persistable=False)

    def forward(self, ids):
        x = self.embed(ids)
        b, s = ids.shape[0], ids.shape[1]
        h = self.norm1(x)
        q = self.q(h).reshape([b, s, self.heads, self.hd])
        k = self.k(h).reshape([b, s, self.kv_heads, self.hd])
        v = self.v(h).reshape([b, s, self.kv_heads, self.hd])
        cos, sin = self.cos[:, :s], self.sin[:, :s]
        q = q * cos + _rotate_half(q) * sin
        k = k * cos + _rotate_half(k) * sin
        rep = self.heads // self.kv_heads
        k = paddle.repeat_interleave(k, rep, axis=2)
        v = paddle.repeat_interleave(v, rep, axis=2)
        q, k, v = (t.transpose([0, 2, 1, 3]) for t in (q, k, v))
        att = paddle.matmul(q, k, transpose_y=True) / math.sqrt(self.hd)
        mask = paddle.tril(paddle.ones([s, s], dtype="bool"))
        att = paddle.where(mask, att, paddle.full_like(att, -1e9))
        y = paddle.matmul(F.softmax(att, axis=-1), v).transpose([0, 2, 1, 3]).reshape([b, s, -1])
        x = x + self.o(y)
        h = self.norm2(x)
        x = x + self.down(F.silu(self.gate(h)) * self.up(h))
        return self.head(self.norm(x))


# ----------------------------------------------------------------- the tables
def _f(rng, shape):
    return rng.standard_normal(shape).astype("float32")


def _ids(rng, shape, hi):
    return rng.integers(0, hi, size=shape).astype("int64")


STRUCTURE = {
    "mlp": (MLP, [InputSpec([None, 4], "float32", "x")], lambda r: [_f(r, [3, 4])]),
    "cnn": (SmallCNN, [InputSpec([None, 3, 16, 16], "float32", "x")], lambda r: [_f(r, [2, 3, 16, 16])]),
    "block": (TransformerBlock, [InputSpec([None, 5, 8], "float32", "x")], lambda r: [_f(r, [2, 5, 8])]),
    "branchy": (Branchy, [InputSpec([None, 4], "float32", "x"), InputSpec([1], "int64", "n")],
                lambda r: [_f(r, [3, 4]), np.array([3], dtype="int64")]),
}


def _zoo(name, **kwargs):
    def make():
        mod = importlib.import_module(f"tests.model_zoo.{name}")
        if not kwargs:
            return mod.build()
        return {"resnet": lambda: mod.ResNet, "vit": lambda: mod.VisionTransformer}[name]()(**kwargs)
    return make


def _control(name):
    def make():
        from tests.cases.jit_control_flow import _build

        return _build(paddle)[name]()
    return make


ROUNDTRIP = {
    **STRUCTURE,
    "resnet": (_zoo("resnet", width=4, layers=(1, 1, 1, 1)), [InputSpec([None, 3, 32, 32], "float32", "x")],
               lambda r: [_f(r, [2, 3, 32, 32])]),
    "mobilenetv3": (_zoo("mobilenetv3"), [InputSpec([None, 3, 48, 48], "float32", "x")],
                    lambda r: [_f(r, [2, 3, 48, 48])]),
    "vit": (_zoo("vit", dim=16, depth=1, heads=2), [InputSpec([None, 3, 16, 16], "float32", "x")],
            lambda r: [_f(r, [2, 3, 16, 16])]),
    "swin": (_zoo("swin"), [InputSpec([None, 64, 12], "float32", "x")], lambda r: [_f(r, [2, 64, 12])]),
    "lstm_tagger": (_zoo("lstm_tagger"), [InputSpec([None, 7], "int64", "ids")], lambda r: [_ids(r, [3, 7], 40)]),
    "bert": (_zoo("bert"), [InputSpec([None, 9], "int64", "ids"), InputSpec([None, 9], "int64", "types")],
             lambda r: [_ids(r, [2, 9], 60), _ids(r, [2, 9], 2)]),
    "gpt": (_zoo("gpt"), [InputSpec([None, 10], "int64", "ids")], lambda r: [_ids(r, [2, 10], 50)]),
    "unet": (_zoo("unet"), [InputSpec([None, 3, 24, 24], "float32", "x")], lambda r: [_f(r, [2, 3, 24, 24])]),
    "densenet": (_zoo("densenet"), [InputSpec([None, 3, 32, 32], "float32", "x")],
                 lambda r: [_f(r, [2, 3, 32, 32])]),
    "bigru": (_zoo("bigru"), [InputSpec([None, 6], "int64", "ids"), InputSpec([None, 6], "float32", "mask")],
              lambda r: [_ids(r, [3, 6], 30), (r.random([3, 6]) > 0.3).astype("float32")]),
    "vgg": (_zoo("vgg"), [InputSpec([None, 3, 16, 16], "float32", "x")], lambda r: [_f(r, [2, 3, 16, 16])]),
    "llama_block": (LlamaBlock, [InputSpec([None, 6], "int64", "ids")], lambda r: [_ids(r, [2, 6], 32)]),
    "cf_elif_chain": (_control("ElifChain"), [InputSpec([None, 3], "float32", "x")],
                      lambda r: [np.full([2, 3], 0.4, "float32")]),
    "cf_early_return": (_control("EarlyReturn"), [InputSpec([None, 3], "float32", "x")],
                        lambda r: [np.full([2, 3], -0.5, "float32")]),
    "cf_while_carry": (_control("WhileCarry"), [InputSpec([2, 3], "float32", "x")],
                       lambda r: [np.full([2, 3], 1.0, "float32")]),
    "cf_for_range": (_control("ForTensorRange"), [InputSpec([2, 3], "float32", "x"), InputSpec([], "int64", "n")],
                     lambda r: [np.ones([2, 3], "float32"), np.array(4, "int64")]),
    "cf_break_continue": (_control("BreakContinue"), [InputSpec([2, 3], "float32", "x")],
                          lambda r: [np.full([2, 3], 0.5, "float32")]),
    "cf_logic": (_control("Logic"), [InputSpec([2, 2], "float32", "x"), InputSpec([2], "float32", "y")],
                 lambda r: [np.full([2, 2], -1.0, "float32"), np.full([2], 1.0, "float32")]),
    "cf_nested": (_control("Nested"), [InputSpec([None, 2], "float32", "x")],
                  lambda r: [np.full([3, 2], -1.0, "float32")]),
    "cf_sublayer": (_control("SublayerBranches"), [InputSpec([None, 4], "float32", "x")],
                    lambda r: [np.full([2, 4], -1.0, "float32")]),
}

# Inputs that take the other branch / loop count of a control-flow model (checked too)
OTHER_INPUTS = {
    "branchy": lambda: [-10.0 * np.ones([3, 4], "float32"), np.array([0], dtype="int64")],
    "cf_elif_chain": lambda: [np.full([2, 3], -4.0, "float32")],
    "cf_early_return": lambda: [np.full([2, 3], 2.0, "float32")],
    "cf_while_carry": lambda: [np.full([2, 3], 40.0, "float32")],
    "cf_for_range": lambda: [np.ones([2, 3], "float32"), np.array(0, "int64")],
    "cf_break_continue": lambda: [np.full([2, 3], 3.0, "float32")],
    "cf_logic": lambda: [np.full([2, 2], 1.0, "float32"), np.full([2], 1.0, "float32")],
    "cf_nested": lambda: [np.full([3, 2], 3.0, "float32")],
    "cf_sublayer": lambda: [np.full([2, 4], 1.0, "float32")],
}


def inputs(name):
    arrays = ROUNDTRIP[name][2](np.random.default_rng(SEED + 7))
    if name == "bigru":
        arrays[1][:, 0] = 1.0
    return arrays


def build(name):
    """The Layer `name`, its weights set from numpy's generator (the same on both sides), in eval mode."""
    paddle.seed(SEED)
    with paddle.utils.unique_name.guard():
        model = ROUNDTRIP[name][0]()
    rng = np.random.default_rng(SEED)
    for key, t in sorted(model.state_dict().items(), key=lambda kv: kv[0]):
        a = t.numpy()
        if a.dtype.kind != "f":
            continue
        if key.endswith("_variance"):
            value = np.abs(rng.normal(1.0, 0.2, a.shape))
        elif key.endswith("_mean"):
            value = rng.normal(0, 0.1, a.shape)
        else:
            value = rng.normal(0, 0.3, a.shape)
        t.set_value(value.astype(a.dtype))
    model.eval()
    return model


# ----------------------------------------------------------------- sizes read from the input (issue 25 item 1)
# Each is saved with a dynamic batch (and sequence length where there is one) and run by real Paddle at other
# sizes than the trace's: a size written as the trace-time constant fails or computes something else there.
class LeViTLike(nn.Layer):
    """PaddleClas LeViT: `reshape(bn(x.flatten(0, 1)), x.shape)`, `B, N, C = x.shape` into reshapes, a strided
    subsample, `reshape([B, -1, C])`."""

    def __init__(self, dim=8, res=4):
        super().__init__()
        self.res = res
        self.fc = nn.Linear(dim, dim)
        self.bn = nn.BatchNorm1D(dim)

    def forward(self, x):  # [B, C, H, W]
        x = x.flatten(2).transpose([0, 2, 1])
        y = self.fc(x)
        y = paddle.reshape(self.bn(y.flatten(0, 1)), y.shape)
        B, N, C = y.shape
        y = paddle.reshape(y, [B, self.res, self.res, C])[:, ::2, ::2]
        return paddle.reshape(y, [B, -1, C])


class MobileViTLike(nn.Layer):
    """PaddleClas MobileViT: unfold into patches and back with -1 batches, attention whose reshape reads
    `qkv.shape[-1] // heads // 3`, `x.reshape(x.shape[:2])` after pooling."""

    def __init__(self, ch=8, heads=2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(ch, 3 * ch)
        self.conv = nn.Conv2D(ch, ch, 1)
        self.pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, x):  # [B, 8, 4, 4], patches 2x2
        _, c, h, w = x.shape
        p = x.reshape([-1, 2, w // 2, 2]).transpose([0, 2, 1, 3]).reshape([-1, c, (h // 2) * (w // 2), 4])
        t = p.transpose([0, 3, 2, 1]).reshape([-1, (h // 2) * (w // 2), c])
        b, n, _ = t.shape
        qkv = self.qkv(t)
        qkv = qkv.reshape([b, n, 3, self.heads, qkv.shape[-1] // self.heads // 3]).transpose([2, 0, 3, 1, 4])
        att = F.softmax(paddle.matmul(qkv[0], qkv[1], transpose_y=True), axis=-1)
        t = paddle.matmul(att, qkv[2]).transpose([0, 2, 1, 3]).reshape([b, n, -1])
        y = t.reshape([-1, 4, (h // 2) * (w // 2), c]).transpose([0, 3, 2, 1])
        y = y.reshape([-1, w // 2, 2, 2]).transpose([0, 2, 1, 3]).reshape([-1, c, h, w])
        y = self.pool(self.conv(y))
        return y.reshape(y.shape[:2])


class CSWinLike(nn.Layer):
    """PaddleClas CSWinTransformer: `paddle.to_tensor` of a size (windows back to images), used in a reshape."""

    def forward(self, x):  # [B * 4, 2, 2, C]: four windows per image
        B = paddle.to_tensor(x.shape[0] // 4, dtype="int64")
        img = x.reshape([B, 2, 2, 2, 2, x.shape[-1]]).transpose([0, 1, 3, 2, 4, 5])
        return img.reshape([B, 4, 4, x.shape[-1]])


class HRFuse(nn.Layer):
    """PaddleClas HRNet's FuseLayers: a counter advanced in the branches of an if / elif inside loops picks the
    sublayer (the converted branches must hand the counter on)."""

    def __init__(self):
        super().__init__()
        self.stem = nn.LayerList([nn.Conv2D(3, 4, 3, padding=1), nn.Conv2D(3, 8, 3, stride=2, padding=1)])
        self.fuse = nn.LayerList([nn.Conv2D(8, 4, 1), nn.Conv2D(4, 8, 3, stride=2, padding=1)])

    def forward(self, x):
        xs = [self.stem[0](x), self.stem[1](x)]
        out, idx = [], 0
        for i in range(2):
            residual = xs[i]
            for j in range(2):
                if j > i:
                    h = self.fuse[idx](xs[j])
                    idx += 1
                    residual = residual + F.upsample(h, scale_factor=2, mode="nearest")
                elif j < i:
                    h = xs[j]
                    for _ in range(i - j):
                        h = self.fuse[idx](h)
                        idx += 1
                    residual = residual + h
            out.append(F.relu(residual))
        return out


class ShapeOps(nn.Layer):
    """Every way a size read from the input reaches an op: reshape / expand / arange / ones of `x.shape[i]`,
    a slice bound, arithmetic on sizes, a size as a number in a product."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)

    def forward(self, x):  # [B, L, 6]
        b, l = x.shape[0], x.shape[1]
        y = self.fc(x).reshape([x.shape[0], -1, 3])
        z = x + paddle.arange(l, dtype="float32").unsqueeze(-1)
        z = paddle.concat([z, paddle.ones([b, 1, 6])], axis=1)[:, : l // 2 + 1]
        e = x.mean(1, keepdim=True).expand([b, l, 6])
        return y, z, e * l


class TensorShapeOps(nn.Layer):
    """Older Paddle code's sizes: `paddle.shape(x)` (a Tensor) indexed into a reshape and a zeros, `numel()`, a
    size as full's fill value."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)

    def forward(self, x):  # [B, L, 6]
        s = paddle.shape(x)
        y = self.fc(x).reshape([s[0], -1, 3])
        z = paddle.zeros([s[0], s[1]]) + x.sum(-1) / x.numel().astype("float32")
        return y, z, paddle.full([x.shape[0]], x.shape[1], dtype="int64")


class CountedLoop(nn.Layer):
    """A tensor-dependent `if` and a `while` counted by `i = paddle.to_tensor(0)` made inside forward."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() > 0:
            h = h * 2.0
        else:
            h = h - 1.0
        i = paddle.to_tensor(0)
        while i < 3:
            h = F.relu(h) + 0.5 * h
            i += 1
        return h, i


class LlamaSeq(LlamaBlock):
    """The LLaMA block with a dynamic sequence length too: the rotary tables sliced to `ids.shape[1]`, the causal
    mask built as `ones([s, s])`."""


class DropBN(nn.Layer):
    """Dropout and batch norm: saved in train mode, Paddle's jit.save writes the inference program (is_test)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 6)
        self.bn = nn.BatchNorm1D(6)
        self.drop = nn.Dropout(0.5)
        self.out = nn.Linear(6, 2)

    def forward(self, x):
        return self.out(self.drop(F.relu(self.bn(self.fc(x)))))


class DropDownscale(DropBN):
    """DropBN with `downscale_in_infer` dropout (test time scales by 1 - p) as F.dropout in the forward."""

    def forward(self, x):
        h = F.relu(self.bn(self.fc(x)))
        return self.out(F.dropout(h, 0.1, training=self.training, mode="downscale_in_infer"))


SYMBOLIC = {
    "levit_like": (LeViTLike, [InputSpec([None, 8, 4, 4], "float32", "x")], lambda r: [_f(r, [2, 8, 4, 4])]),
    "mobilevit_like": (MobileViTLike, [InputSpec([None, 8, 4, 4], "float32", "x")],
                       lambda r: [_f(r, [2, 8, 4, 4])]),
    "cswin_like": (CSWinLike, [InputSpec([None, 2, 2, 3], "float32", "x")], lambda r: [_f(r, [8, 2, 2, 3])]),
    "hrnet_fuse": (HRFuse, [InputSpec([None, 3, 8, 8], "float32", "x")], lambda r: [_f(r, [2, 3, 8, 8])]),
    "shape_ops": (ShapeOps, [InputSpec([None, None, 6], "float32", "x")], lambda r: [_f(r, [2, 5, 6])]),
    "tensor_shape_ops": (TensorShapeOps, [InputSpec([None, None, 6], "float32", "x")], lambda r: [_f(r, [2, 4, 6])]),
    "counted_loop": (CountedLoop, [InputSpec([None, 4], "float32", "x")], lambda r: [np.full([2, 4], 0.5, "float32")]),
    "llama_seq": (LlamaSeq, [InputSpec([None, None], "int64", "ids")], lambda r: [_ids(r, [2, 6], 32)]),
}
ROUNDTRIP.update(SYMBOLIC)
OTHER_INPUTS["counted_loop"] = lambda: [np.full([3, 4], -0.5, "float32")]

# Saved in train mode (issue 25 item 5): Paddle's jit.save writes the inference program all the same, so real
# Paddle's outputs are the eval-mode forward's
TRAIN_MODE = {
    "dropbn_train": (DropBN, [InputSpec([None, 4], "float32", "x")], lambda r: [_f(r, [3, 4])]),
    "llama_train": (LlamaBlock, [InputSpec([None, 6], "int64", "ids")], lambda r: [_ids(r, [2, 6], 32)]),
    "dropdown_train": (DropDownscale, [InputSpec([None, 4], "float32", "x")], lambda r: [_f(r, [3, 4])]),
}
ROUNDTRIP.update(TRAIN_MODE)
# The same dropout models saved in eval mode: Paddle writes the same `dropout` op (is_test) and its batch_norm_
# says use_global_stats=True
EVAL_DROPOUT = {
    "dropbn_eval": (DropBN, [InputSpec([None, 4], "float32", "x")], lambda r: [_f(r, [3, 4])]),
    "dropdown_eval": (DropDownscale, [InputSpec([None, 4], "float32", "x")], lambda r: [_f(r, [3, 4])]),
}
ROUNDTRIP.update(EVAL_DROPOUT)
# Test-time dropout in both modes, saved in train and in eval mode: written op for op as Paddle writes them
DROPOUT_STRUCTURE = ["dropbn_train", "dropdown_train", "dropbn_eval", "dropdown_eval"]


# Compared with the programs real Paddle's own jit.save writes (tools/record_pir_programs.py), up to repeated
# size reads (tests/pir_structure.py: Paddle reads `x.shape` anew at each use, torch's graph once)
SHAPE_STRUCTURE = ["shape_ops", "dropbn_train"]


def mode_for_save(name, model):
    """The model as it is saved: in train mode for TRAIN_MODE (the rest stay in eval mode)."""
    if name in TRAIN_MODE:
        model.train()
    return model

# The sizes each model is also run at (real Paddle and the PIR reader): batch 1, 3 and 7 where the batch is
# dynamic (CSWin's input holds 4 windows per image), and a second sequence length for the sequence models
BATCHES = (1, 3, 7)
WINDOWS = {"cswin_like": 4}
SEQUENCES = {"shape_ops": (5, 3), "tensor_shape_ops": (4, 3), "llama_seq": (6, 4)}


def sized_inputs(name):
    """[(tag, arrays)]: the model's inputs at each batch size (tag 'n<b>') and sequence length ('n<b>s<l>'),
    rows drawn from its recorded inputs (ids stay ids, masks stay masks), floats perturbed a little."""
    specs = ROUNDTRIP[name][1]
    if not any(s.shape and s.shape[0] in (None, -1) for s in specs):
        return []
    base = inputs(name)
    rng = np.random.default_rng(SEED + 25)
    out = []
    for b in BATCHES:
        for seq in SEQUENCES.get(name, (None,)):
            arrays = []
            for s, a in zip(specs, base):
                n = b * WINDOWS.get(name, 1)
                rows = a[rng.integers(0, a.shape[0], n)] if s.shape[0] in (None, -1) else a
                if seq is not None and len(s.shape) > 1 and s.shape[1] in (None, -1):
                    rows = np.concatenate([rows] * (seq // rows.shape[1] + 1), axis=1)[:, :seq]
                if rows.dtype.kind == "f" and not set(np.unique(rows)) <= {0.0, 1.0}:
                    rows = (rows + 0.1 * rng.standard_normal(rows.shape)).astype(rows.dtype)
                arrays.append(np.ascontiguousarray(rows))
            out.append((f"n{b}" + (f"s{seq}" if seq is not None else ""), arrays))
    return out
