"""Plain-torch twin of tests/model_zoo/lstm_tagger.py: Embedding(40, 16, padding_idx=0) ->
2-layer LSTM(hidden 24, batch-first as Paddle's default time_major=False) -> Linear(24, 5)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMTagger(nn.Module):
    def __init__(self, vocab=40, emb=16, hidden=24, tags=5):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, num_layers=2, batch_first=True)
        self.fc = nn.Linear(hidden, tags)

    def forward(self, ids):
        out, (h, c) = self.lstm(self.embedding(ids))
        return self.fc(out), h, c


def ALIAS(key):  # Paddle's per-layer views of the same LSTM weights: lstm.<k>.cell.weight_ih, ...
    return key.startswith("lstm.") and ".cell." in key


def build():
    return LSTMTagger()


def loss(out, inputs):
    tags = torch.from_numpy(inputs[0] % 5)
    return F.cross_entropy(out[0].reshape(-1, 5), tags.reshape(-1))
