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
