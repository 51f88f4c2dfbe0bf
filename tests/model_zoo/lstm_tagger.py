"""A sequence tagger: Embedding (with padding_idx) -> 2-layer LSTM -> Linear over tags."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class LSTMTagger(nn.Layer):
    def __init__(self, vocab=40, emb=16, hidden=24, tags=5):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2)
        self.fc = nn.Linear(hidden, tags)

    def forward(self, ids):
        out, (h, c) = self.lstm(self.embedding(ids))
        return self.fc(out), h, c


GRADS = ["embedding.weight", "lstm.weight_ih_l0", "lstm.weight_hh_l1", "fc.weight"]


def build():
    return LSTMTagger()


def inputs(rng):
    ids = rng.integers(1, 40, size=[3, 7]).astype("int64")
    ids[2, 5:] = 0  # padding
    return [ids]


def loss(out, inputs):
    logits = out[0]
    tags = paddle.to_tensor(inputs[0] % 5)
    return F.cross_entropy(logits.reshape([-1, 5]), tags.reshape([-1]))
