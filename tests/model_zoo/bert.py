"""A small BERT encoder: word + position + token-type embeddings, LayerNorm, nn.TransformerEncoder
(post-norm, GELU), a padding attention mask, and a tanh pooler on the first token."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class BertEmbeddings(nn.Layer):
    def __init__(self, vocab, hidden, max_pos, types):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.token_type_embeddings = nn.Embedding(types, hidden)
        self.layer_norm = nn.LayerNorm(hidden, epsilon=1e-12)
        self.dropout = nn.Dropout(0.0)

    def forward(self, ids, token_type_ids):
        pos = paddle.arange(ids.shape[1], dtype="int64").unsqueeze(0)
        x = self.word_embeddings(ids) + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids)
        return self.dropout(self.layer_norm(x))


class BertModel(nn.Layer):
    def __init__(self, vocab=60, hidden=32, layers=2, heads=4, ffn=64, max_pos=16, types=2):
        super().__init__()
        self.embeddings = BertEmbeddings(vocab, hidden, max_pos, types)
        layer = nn.TransformerEncoderLayer(hidden, heads, ffn, dropout=0.0, activation="gelu",
                                           attn_dropout=0.0, act_dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.pooler = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, 3)

    def forward(self, ids, token_type_ids):
        # additive mask [B, 1, 1, L]: 0 for tokens, a large negative number for padding
        mask = (ids == 0).astype("float32").unsqueeze([1, 2]) * -1e4
        seq = self.encoder(self.embeddings(ids, token_type_ids), src_mask=mask)
        pooled = F.tanh(self.pooler(seq[:, 0]))
        return seq, self.classifier(pooled)


GRADS = ["embeddings.word_embeddings.weight", "encoder.layers.0.self_attn.k_proj.weight",
         "encoder.layers.1.linear2.weight", "classifier.bias"]


def build():
    return BertModel()


def inputs(rng):
    ids = rng.integers(1, 60, size=[2, 9]).astype("int64")
    ids[1, 6:] = 0
    types = (rng.random([2, 9]) > 0.5).astype("int64")
    return [ids, types]


def loss(out, inputs):
    return F.cross_entropy(out[1], paddle.to_tensor([0, 2], dtype="int64")) + out[0].pow(2).mean() * 0.01
