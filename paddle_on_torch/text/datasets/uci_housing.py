"""UCIHousing: Boston housing, 13 features normalised by each column's (x - mean) / (max - min); the first 80% of
the rows are 'train', the rest 'test'."""
import numpy as np

from ..._core.dtype import get_default_dtype
from ...io import Dataset
from ._common import cached_file, check_mode

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
MD5 = "d4accdce7a25600298819f8e28e8d593"
feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B", "LSTAT"]


class UCIHousing(Dataset):
    def __init__(self, data_file=None, mode="train", download=True):
        self.mode = check_mode(mode, ["train", "test"], f"mode should be 'train' or 'test', but got {mode}")
        self.data_file = cached_file(data_file, download, URL, MD5, "uci_housing")
        self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self, feature_num=14, ratio=0.8):
        rows = np.fromfile(self.data_file, sep=" ")
        rows = rows.reshape(rows.shape[0] // feature_num, feature_num)
        top, bottom, mean = rows.max(axis=0), rows.min(axis=0), rows.sum(axis=0) / rows.shape[0]
        for i in range(feature_num - 1):
            rows[:, i] = (rows[:, i] - mean[i]) / (top[i] - bottom[i])
        split = int(rows.shape[0] * ratio)
        self.data = rows[:split] if self.mode == "train" else rows[split:]

    def __getitem__(self, idx):
        row = self.data[idx]
        return np.array(row[:-1]).astype(self.dtype), np.array(row[-1:]).astype(self.dtype)

    def __len__(self):
        return len(self.data)
