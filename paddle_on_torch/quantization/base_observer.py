"""BaseObserver: a quanter that only collects statistics and computes thresholds from them."""
import abc

from .base_quanter import BaseQuanter


class BaseObserver(BaseQuanter, metaclass=abc.ABCMeta):
    def __init__(self):
        super().__init__()

    @abc.abstractmethod
    def cal_thresholds(self):
        pass
