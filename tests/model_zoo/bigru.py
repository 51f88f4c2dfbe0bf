"""A bidirectional GRU classifier with a SimpleRNN side branch: Embedding -> GRU(direction='bidirect',
2 layers) -> masked mean over time -> Linear, plus a tanh SimpleRNN whose last state is added."""
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class BiGRUClassifier(nn.Layer):
    def __init__(self, vocab=30, emb=12, hidden=16, classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hidden, num_layers=2, direction="bidirect")
        self.rnn = nn.SimpleRNN(emb, 2 * hidden)
        self.fc = nn.Linear(2 * hidden, classes)

    def forward(self, ids, mask):
        x = self.embedding(ids)
        out, h = self.gru(x)  # out [B, T, 2H], h [num_layers * 2, B, H]
        m = mask.unsqueeze(-1)
        pooled = (out * m).sum(axis=1) / m.sum(axis=1)
        _, h_rnn = self.rnn(x)
        return self.fc(pooled + h_rnn[0]), h


GRADS = ["embedding.weight", "gru.weight_ih_l0_reverse", "gru.bias_hh_l1", "rnn.weight_hh_l0", "fc.weight"]


def build():
    return BiGRUClassifier()


def inputs(rng):
    ids = rng.integers(0, 30, size=[3, 6]).astype("int64")
    mask = (rng.random([3, 6]) > 0.3).astype("float32")
    mask[:, 0] = 1
    return [ids, mask]


def loss(out, inputs):
    return F.cross_entropy(out[0], paddle.to_tensor([0, 3, 1], dtype="int64")) + out[1].abs().mean()
