"""Plain-torch twin of tests/model_zoo/gpt.py: 2 pre-norm blocks, dim 32, 4 heads, hand-written
causal attention (fused qkv, triangular mask), tanh-GELU MLP, LM head tied to the token embedding."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = torch.split(self.c_attn(x), c, dim=-1)
        q, k, v = [z.reshape(b, t, self.heads, c // self.heads).permute(0, 2, 1, 3) for z in (q, k, v)]
        att = torch.matmul(q, k.permute(0, 1, 3, 2)) / math.sqrt(c // self.heads)
        causal = torch.tril(torch.ones(t, t, dtype=torch.bool))
        att = torch.where(causal, att, torch.full_like(att, float("-inf")))
        y = torch.matmul(F.softmax(att, dim=-1), v)
        return self.c_proj(y.permute(0, 2, 1, 3).reshape(b, t, c))


class GPTBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln_1 = nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, heads)
        self.ln_2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab=50, dim=32, layers=2, heads=4, block=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(block, dim)
        self.h = nn.ModuleList([GPTBlock(dim, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(dim)

    def forward(self, ids):
        pos = torch.arange(0, ids.shape[1], dtype=torch.int64)
        x = self.wte(ids) + self.wpe(pos)
        for blk in self.h:
            x = blk(x)
        return torch.matmul(self.ln_f(x), self.wte.weight.t())


def build():
    return GPT()


def loss(out, inputs):
    ids = torch.from_numpy(inputs[0])
    return F.cross_entropy(out[:, :-1].reshape(-1, 50), ids[:, 1:].reshape(-1))
