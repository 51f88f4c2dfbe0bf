"""paddle.nn.PairwiseDistance."""
from .. import functional as F
from .layers import Layer

__all__ = ["PairwiseDistance"]


class PairwiseDistance(Layer):
    def __init__(self, p=2.0, epsilon=1e-6, keepdim=False, name=None):
        super().__init__()
        self.p, self.epsilon, self.keepdim, self.name = p, epsilon, keepdim, name

    def forward(self, x, y):
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self):
        s = f"p={self.p}"
        if self.epsilon != 1e-6:
            s += f", epsilon={self.epsilon}"
        if self.keepdim:
            s += ", keepdim=True"
        if self.name is not None:
            s += f", name={self.name}"
        return s
