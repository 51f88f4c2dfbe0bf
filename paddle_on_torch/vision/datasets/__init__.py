"""paddle.vision.datasets: Paddle's datasets read from local files in Paddle's formats (never downloaded)."""
from ... import _report
from .cifar import Cifar10, Cifar100  # noqa: F401
from .flowers import Flowers  # noqa: F401
from .folder import DatasetFolder, ImageFolder  # noqa: F401
from .mnist import MNIST, FashionMNIST  # noqa: F401
from .voc2012 import VOC2012  # noqa: F401

__all__ = ["DatasetFolder", "ImageFolder", "MNIST", "FashionMNIST", "Flowers", "Cifar10", "Cifar100", "VOC2012"]

__getattr__ = _report.module_getattr("paddle.vision.datasets")
