"""A small ViT: conv patch embedding, class token, learned positions, pre-norm blocks with
nn.MultiHeadAttention and a GELU MLP, final LayerNorm and a linear head on the class token."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class PatchEmbed(nn.Layer):
    def __init__(self, img=16, patch=4, cin=3, dim=32):
        super().__init__()
        self.num_patches = (img // patch) ** 2
        self.proj = nn.Conv2D(cin, dim, kernel_size=patch, stride=patch)

    def forward(self, x):
        x = self.proj(x)  # [B, D, H/p, W/p]
        return x.flatten(2).transpose([0, 2, 1])  # [B, N, D]


class Mlp(nn.Layer):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Block(nn.Layer):
    def __init__(self, dim, heads, mlp_ratio=2.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, epsilon=1e-6)
        self.attn = nn.MultiHeadAttention(dim, heads)
        self.norm2 = nn.LayerNorm(dim, epsilon=1e-6)
        self.mlp = Mlp(dim, int(dim * mlp_ratio))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h)
        return x + self.mlp(self.norm2(x))


class VisionTransformer(nn.Layer):
    def __init__(self, img=16, patch=4, dim=32, depth=2, heads=4, num_classes=10):
        super().__init__()
        self.patch_embed = PatchEmbed(img, patch, 3, dim)
        n = self.patch_embed.num_patches
        init = nn.initializer.TruncatedNormal(std=0.02)
        self.cls_token = self.create_parameter([1, 1, dim], default_initializer=init)
        self.pos_embed = self.create_parameter([1, n + 1, dim], default_initializer=init)
        self.blocks = nn.LayerList([Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim, epsilon=1e-6)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x)
        cls = self.cls_token.expand([x.shape[0], -1, -1])
        x = paddle.concat([cls, x], axis=1) + self.pos_embed
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x)[:, 0])


GRADS = ["cls_token", "pos_embed", "blocks.0.attn.q_proj.weight", "head.weight"]


def build():
    return VisionTransformer()


def inputs(rng):
    return [rng.standard_normal([2, 3, 16, 16]).astype("float32")]


def loss(out, inputs):
    return F.cross_entropy(out, paddle.to_tensor([[3], [8]], dtype="int64"))
