"""A small GPT: token + position embeddings, pre-norm blocks with hand-written causal attention
(fused qkv, triangular mask), GELU MLP, final LayerNorm and an LM head tied to the embedding."""
import math

import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class CausalSelfAttention(nn.Layer):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = paddle.split(self.c_attn(x), 3, axis=-1)
        q, k, v = [z.reshape([b, t, self.heads, c // self.heads]).transpose([0, 2, 1, 3]) for z in (q, k, v)]
        att = paddle.matmul(q, k.transpose([0, 1, 3, 2])) / math.sqrt(c // self.heads)
        causal = paddle.tril(paddle.ones([t, t], dtype="bool"))
        att = paddle.where(causal, att, paddle.full_like(att, float("-inf")))
        y = paddle.matmul(F.softmax(att, axis=-1), v)
        return self.c_proj(y.transpose([0, 2, 1, 3]).reshape([b, t, c]))


class GPTBlock(nn.Layer):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln_1 = nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, heads)
        self.ln_2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate=True), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Layer):
    def __init__(self, vocab=50, dim=32, layers=2, heads=4, block=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(block, dim)
        self.h = nn.LayerList([GPTBlock(dim, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(dim)

    def forward(self, ids):
        pos = paddle.arange(0, ids.shape[1], dtype="int64")
        x = self.wte(ids) + self.wpe(pos)
        for blk in self.h:
            x = blk(x)
        return paddle.matmul(self.ln_f(x), self.wte.weight, transpose_y=True)


GRADS = ["wte.weight", "wpe.weight", "h.0.attn.c_attn.weight", "h.1.mlp.2.weight"]


def build():
    return GPT()


def inputs(rng):
    return [rng.integers(0, 50, size=[2, 10]).astype("int64")]


def loss(out, inputs):
    ids = paddle.to_tensor(inputs[0])
    return F.cross_entropy(out[:, :-1].reshape([-1, 50]), ids[:, 1:].reshape([-1]))
