"""Paddle's metrics.

The metric classes keep their statistics in numpy on the host, as Paddle's do, so the values they
return have Paddle's Python/numpy types: `Accuracy.update` and `Accuracy.accumulate` give
numpy.float64 (a Python float divided by a numpy count), `Precision`/`Recall`/`Auc.accumulate` give
Python floats (numpy.float64 for Auc, whose statistics are numpy arrays).
"""
import abc

import numpy as np
import torch

from .._normalize import TensorLike, op
from ..tensor.tensor import Tensor

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]


def _host_array(v, what):
    """A Tensor or numpy value as a numpy array; anything else is Paddle's ValueError."""
    if isinstance(v, Tensor):
        return v.numpy()
    if isinstance(v, (np.ndarray, np.generic)):
        return v
    raise ValueError(f"The '{what}' must be a numpy ndarray or Tensor.")


class Metric(metaclass=abc.ABCMeta):
    """Base class of the metrics: `reset`, `update`, `accumulate` and `name` must be overridden.

    `compute` runs on the model outputs (as Tensors) before `update`; by default it passes its
    arguments through unchanged.
    """

    def __init__(self):
        pass

    @abc.abstractmethod
    def reset(self):
        raise NotImplementedError(f"function 'reset' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def update(self, *args):
        raise NotImplementedError(f"function 'update' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def accumulate(self):
        raise NotImplementedError(f"function 'accumulate' not implemented in {self.__class__.__name__}.")

    @abc.abstractmethod
    def name(self):
        raise NotImplementedError(f"function 'name' not implemented in {self.__class__.__name__}.")

    def compute(self, *args):
        return args


class Accuracy(Metric):
    """Top-k classification accuracy over the batches seen since the last `reset`."""

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.topk = topk
        self.maxk = max(topk)
        base = name or "acc"
        self._name = [f"{base}_top{k}" for k in topk] if self.maxk != 1 else [base]
        self.reset()

    def compute(self, pred, label, *args):
        """A float32 [batch..., maxk] Tensor: 1 where the j-th best prediction is the label."""
        return _topk_correct(pred, label, self.maxk)

    def update(self, correct, *args):
        if isinstance(correct, Tensor):
            correct = correct.numpy()
        num_samples = np.prod(np.array(correct.shape[:-1]))
        accs = []
        for i, k in enumerate(self.topk):
            hits = correct[..., :k].sum()
            accs.append(float(hits) / num_samples)
            self.total[i] += hits
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def name(self):
        return self._name


class Precision(Metric):
    """Binary precision tp / (tp + fp); predictions are rounded at 0.5."""

    def __init__(self, name="precision", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds, labels):
        preds = _host_array(preds, "preds")
        labels = _host_array(labels, "labels")
        preds = np.floor(preds + 0.5).astype("int32")
        for i in range(labels.shape[0]):
            if preds[i] == 1:
                if preds[i] == labels[i]:
                    self.tp += 1
                else:
                    self.fp += 1

    def reset(self):
        self.tp = 0
        self.fp = 0

    def accumulate(self):
        n = self.tp + self.fp
        return float(self.tp) / n if n != 0 else 0.0

    def name(self):
        return self._name


class Recall(Metric):
    """Binary recall tp / (tp + fn); predictions are rounded half to even."""

    def __init__(self, name="recall", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds, labels):
        preds = _host_array(preds, "preds")
        labels = _host_array(labels, "labels")
        preds = np.rint(preds).astype("int32")
        for i in range(labels.shape[0]):
            if labels[i] == 1:
                if preds[i] == labels[i]:
                    self.tp += 1
                else:
                    self.fn += 1

    def accumulate(self):
        n = self.tp + self.fn
        return float(self.tp) / n if n != 0 else 0.0

    def reset(self):
        self.tp = 0
        self.fn = 0

    def name(self):
        return self._name


class Auc(Metric):
    """Area under the ROC curve from bucketed positive/negative counts.

    `preds` is [N, 2] (the second column is the positive-class probability); it falls into one of
    `num_thresholds + 1` buckets.  Paddle accepts `curve` but always computes the ROC area.
    """

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds, labels):
        labels = _host_array(labels, "labels")
        preds = _host_array(preds, "preds")
        for i, lbl in enumerate(labels):
            bucket = int(preds[i, 1] * self._num_thresholds)
            assert bucket <= self._num_thresholds
            if lbl:
                self._stat_pos[bucket] += 1.0
            else:
                self._stat_neg[bucket] += 1.0

    @staticmethod
    def trapezoid_area(x1, x2, y1, y2):
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self):
        pos = neg = 0.0
        area = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            pos_prev, neg_prev = pos, neg
            pos += self._stat_pos[idx]
            neg += self._stat_neg[idx]
            area += self.trapezoid_area(neg, neg_prev, pos, pos_prev)
        return area / pos / neg if pos > 0.0 and neg > 0.0 else 0.0

    def reset(self):
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self):
        return self._name


@op
def _topk_correct(pred: TensorLike, label: TensorLike, maxk):
    order = torch.argsort(pred, dim=-1, descending=True, stable=True)[..., :maxk]
    if label.dim() == 1 or (label.dim() == 2 and label.shape[-1] == 1):
        label = label.reshape(-1, 1)
    elif label.shape[-1] != 1:  # one-hot or soft labels
        label = torch.argmax(label, dim=-1, keepdim=True)
    try:
        return (order == label.to(order.dtype)).to(torch.float32)
    except RuntimeError:
        raise ValueError(f"(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast together "
                         f"with the shape of X = {list(order.shape)} and the shape of Y = {list(label.shape)}."
                         ) from None


@op
def _accuracy(input: TensorLike, label: TensorLike, k=1):
    if label.dim() != 2:
        raise ValueError("(InvalidArgument) ShapeError: label's dimensions of AccuracyOp must be 2. But received "
                         f"label's dimensions = {label.dim()}, label's shape = {list(label.shape)}")
    if label.shape[1] != 1:
        raise ValueError("(InvalidArgument) ShapeError: label's second dimension of AccuracyOp must be 1. But received "
                         f"label's second dimension is = {label.shape[1]}, label's shape = {list(label.shape)}")
    if label.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"(InvalidArgument) The type of data we are trying to retrieve (int64) does not match the "
                         f"type of data ({str(label.dtype).replace('torch.', '')}) currently contained in the "
                         "container.")
    if label.shape[0] != input.shape[0]:
        raise ValueError("(InvalidArgument) ShapeError: the output's num_rows of AccuracyOp must be the same as "
                         f"label's num_rows. But received output's rows = {input.shape[0]}, label's rows = "
                         f"{label.shape[0]}.")
    if k > input.shape[-1]:
        raise ValueError(f"(InvalidArgument) The rank ({k}) of the input 'k' for topk op must be less than or equal to "
                         f"{input.shape[-1]}.")
    idx = torch.topk(input, k, dim=-1).indices.reshape(input.shape[0], -1)
    hits = (idx == label[:, :1].to(torch.int64)).any(dim=-1)
    correct = hits.sum().to(torch.int32)
    total = torch.tensor(input.shape[0], dtype=torch.int32, device=input.device)
    acc = correct.to(torch.float32) / max(input.shape[0], 1)
    return acc, correct, total


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """Top-k accuracy of a batch as a float32 0-D Tensor; `correct`/`total` receive the counts."""
    acc, c, t = _accuracy(input, label, k)
    if correct is not None:
        correct._t = c._t
    if total is not None:
        total._t = t._t
    return acc
