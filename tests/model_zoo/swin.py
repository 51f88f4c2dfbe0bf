"""Swin-style blocks: window attention with a relative position bias table, then a shifted-window
block (paddle.roll plus an attention mask), on a 8x8 token grid with 4x4 windows."""
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


def window_partition(x, ws):
    b, h, w, c = x.shape
    x = x.reshape([b, h // ws, ws, w // ws, ws, c])
    return x.transpose([0, 1, 3, 2, 4, 5]).reshape([-1, ws * ws, c])


def window_reverse(windows, ws, h, w):
    c = windows.shape[-1]
    x = windows.reshape([-1, h // ws, w // ws, ws, ws, c])
    return x.transpose([0, 1, 3, 2, 4, 5]).reshape([-1, h, w, c])


class WindowAttention(nn.Layer):
    def __init__(self, dim, ws, heads):
        super().__init__()
        self.ws, self.heads = ws, heads
        self.scale = (dim // heads) ** -0.5
        self.relative_position_bias_table = self.create_parameter(
            [(2 * ws - 1) * (2 * ws - 1), heads], default_initializer=nn.initializer.TruncatedNormal(std=0.02))
        coords = np.stack(np.meshgrid(np.arange(ws), np.arange(ws), indexing="ij")).reshape(2, -1)
        rel = (coords[:, :, None] - coords[:, None, :]).transpose(1, 2, 0) + (ws - 1)
        index = rel[:, :, 0] * (2 * ws - 1) + rel[:, :, 1]
        self.register_buffer("relative_position_index", paddle.to_tensor(index.reshape(-1), dtype="int64"),
                             persistable=False)
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        bw, n, c = x.shape
        qkv = self.qkv(x).reshape([bw, n, 3, self.heads, c // self.heads]).transpose([2, 0, 3, 1, 4])
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = paddle.matmul(q * self.scale, k, transpose_y=True)  # [bw, heads, n, n]
        bias = paddle.index_select(self.relative_position_bias_table, self.relative_position_index, axis=0)
        attn = attn + bias.reshape([n, n, self.heads]).transpose([2, 0, 1]).unsqueeze(0)
        if mask is not None:
            nw = mask.shape[0]
            attn = attn.reshape([bw // nw, nw, self.heads, n, n]) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.reshape([bw, self.heads, n, n])
        attn = F.softmax(attn, axis=-1)
        out = paddle.matmul(attn, v).transpose([0, 2, 1, 3]).reshape([bw, n, c])
        return self.proj(out)


class SwinBlock(nn.Layer):
    def __init__(self, dim, res, heads, ws=4, shift=0):
        super().__init__()
        self.res, self.ws, self.shift = res, ws, shift
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, ws, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        if shift:
            img = np.zeros([1, res, res, 1], "float32")
            cnt = 0
            for hs in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                for wsl in (slice(0, -ws), slice(-ws, -shift), slice(-shift, None)):
                    img[:, hs, wsl, :] = cnt
                    cnt += 1
            win = img.reshape(1, res // ws, ws, res // ws, ws, 1).transpose(0, 1, 3, 2, 4, 5).reshape(-1, ws * ws)
            mask = win[:, None, :] - win[:, :, None]
            mask = np.where(mask != 0, -100.0, 0.0).astype("float32")
            self.register_buffer("attn_mask", paddle.to_tensor(mask), persistable=False)
        else:
            self.attn_mask = None

    def forward(self, x):
        b, l, c = x.shape
        h = w = self.res
        shortcut = x
        x = self.norm1(x).reshape([b, h, w, c])
        if self.shift:
            x = paddle.roll(x, shifts=(-self.shift, -self.shift), axis=(1, 2))
        windows = self.attn(window_partition(x, self.ws), self.attn_mask)
        x = window_reverse(windows, self.ws, h, w)
        if self.shift:
            x = paddle.roll(x, shifts=(self.shift, self.shift), axis=(1, 2))
        x = shortcut + x.reshape([b, h * w, c])
        return x + self.mlp(self.norm2(x))


class SwinStage(nn.Layer):
    def __init__(self, dim=32, res=8, heads=4, num_classes=6):
        super().__init__()
        self.embed = nn.Linear(12, dim)
        self.blocks = nn.LayerList([SwinBlock(dim, res, heads, shift=0), SwinBlock(dim, res, heads, shift=2)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, tokens):
        x = self.embed(tokens)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x).mean(axis=1))


GRADS = ["blocks.1.attn.relative_position_bias_table", "blocks.0.attn.qkv.weight", "embed.weight"]


def build():
    return SwinStage()


def inputs(rng):
    return [rng.standard_normal([2, 64, 12]).astype("float32")]


def loss(out, inputs):
    return F.cross_entropy(out, paddle.to_tensor([1, 5], dtype="int64"))
