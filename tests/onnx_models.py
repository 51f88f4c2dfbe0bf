"""Models that tests/test_onnx.py exports with paddle.onnx.export beside the model zoo, written the Paddle way.

tools/record_onnx.py exports the same models under real Paddle (paddle2onnx) to record what Paddle writes.  Each
entry of MODELS is (build, input specs as (shape with None for a dynamic dim, dtype, name), make inputs(rng, batch)).
"""
import numpy as np
import paddle


class TaggedMLP(paddle.nn.Layer):
    """A to_static model with a dynamic batch: its InputSpec comes from the decorator."""

    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(6, 16)
        self.norm = paddle.nn.LayerNorm(16)
        self.fc2 = paddle.nn.Linear(16, 3)

    @paddle.jit.to_static(input_spec=[paddle.static.InputSpec([None, 6], "float32", "x")])
    def forward(self, x):
        h = paddle.nn.functional.gelu(self.norm(self.fc1(x)))
        return paddle.nn.functional.softmax(self.fc2(h), axis=-1)


class SmallTransformer(paddle.nn.Layer):
    """Token embedding + positions, a 2-layer pre-norm TransformerEncoder with a padding mask, a classifier."""

    def __init__(self, vocab=50, d_model=32, heads=4, layers=2, seq=12, classes=5):
        super().__init__()
        self.embed = paddle.nn.Embedding(vocab, d_model)
        self.pos = paddle.create_parameter([1, seq, d_model], "float32",
                                           default_initializer=paddle.nn.initializer.Normal(std=0.02))
        layer = paddle.nn.TransformerEncoderLayer(d_model, heads, 2 * d_model, dropout=0.0, normalize_before=True)
        self.encoder = paddle.nn.TransformerEncoder(layer, layers, norm=paddle.nn.LayerNorm(d_model))
        self.head = paddle.nn.Linear(d_model, classes)

    def forward(self, ids, mask):
        h = self.embed(ids) + self.pos
        # mask: [batch, seq] with 1 for tokens, 0 for padding -> an additive attention mask
        attn = (1.0 - mask.astype("float32").unsqueeze([1, 2])) * -1e4
        h = self.encoder(h, attn)
        return self.head(h[:, 0])


def _mlp_inputs(rng, batch):
    return [rng.standard_normal((batch, 6)).astype("float32")]


def _transformer_inputs(rng, batch):
    ids = rng.integers(0, 50, (batch, 12)).astype("int64")
    mask = np.ones((batch, 12), dtype="int64")
    mask[:, 9:] = 0
    return [ids, mask]


MODELS = {
    "tagged_mlp": (TaggedMLP, None, _mlp_inputs),
    "small_transformer": (SmallTransformer, [([None, 12], "int64", "ids"), ([None, 12], "int64", "mask")],
                          _transformer_inputs),
}


def build(name, seed=7):
    """The model with seeded weights (numpy's generator by parameter name, the same on both sides), eval mode."""
    cls, _, _ = MODELS[name]
    model = cls()
    rng = np.random.default_rng(seed)
    for _, p in sorted(model.named_parameters(), key=lambda kv: kv[0]):
        p.set_value((rng.standard_normal(list(p.shape)) * 0.3).astype("float32"))
    model.eval()
    return model


def input_spec(name):
    specs = MODELS[name][1]
    return None if specs is None else [paddle.static.InputSpec(s, d, n) for s, d, n in specs]


def inputs(name, batch, seed=3):
    return MODELS[name][2](np.random.default_rng(seed), batch)
