"""Plain-torch twin of tests/model_zoo/vgg.py: 3x3 conv + BatchNorm + ReLU stacks with max-pooling,
then Linear -> BatchNorm1d -> ReLU -> Dropout(0) -> Linear."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CFG = [8, "M", 16, 16, "M", 32, 32, "M"]


class VGG(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        layers, c = [], 3
        for v in CFG:
            if v == "M":
                layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
            else:
                layers += [nn.Conv2d(c, v, kernel_size=3, padding=1), nn.BatchNorm2d(v), nn.ReLU()]
                c = v
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Sequential(nn.Linear(c * 2 * 2, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.0),
                                        nn.Linear(64, classes))

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def build():
    return VGG()


def loss(out, inputs):
    return F.cross_entropy(out, torch.tensor([1, 2, 3, 4], dtype=torch.int64))
