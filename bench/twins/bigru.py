"""Plain-torch twin of tests/model_zoo/bigru.py: Embedding -> 2-layer bidirectional GRU -> masked
mean over time -> Linear, plus a tanh RNN whose last state is added (batch-first, as Paddle's
default time_major=False)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BiGRUClassifier(nn.Module):
    def __init__(self, vocab=30, emb=12, hidden=16, classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hidden, num_layers=2, bidirectional=True, batch_first=True)
        self.rnn = nn.RNN(emb, 2 * hidden, batch_first=True)
        self.fc = nn.Linear(2 * hidden, classes)

    def forward(self, ids, mask):
        x = self.embedding(ids)
        out, h = self.gru(x)
        m = mask.unsqueeze(-1)
        pooled = (out * m).sum(dim=1) / m.sum(dim=1)
        _, h_rnn = self.rnn(x)
        return self.fc(pooled + h_rnn[0]), h


def ALIAS(key):  # Paddle's per-layer views of the same weights: gru.<k>.cell_fw.weight_ih, rnn.0.cell...
    return ".cell" in key


def build():
    return BiGRUClassifier()


def loss(out, inputs):
    return F.cross_entropy(out[0], torch.tensor([0, 3, 1], dtype=torch.int64)) + out[1].abs().mean()
