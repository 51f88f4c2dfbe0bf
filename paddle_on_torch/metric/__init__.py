"""paddle.metric: streaming evaluation metrics (Accuracy, Precision, Recall, Auc) and the accuracy op."""
from .. import _report
from .metrics import Accuracy, Auc, Metric, Precision, Recall, accuracy  # noqa: F401

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]

__getattr__ = _report.module_getattr("paddle.metric")
