"""paddle.vision.datasets.Flowers: 102flowers.tgz with imagelabels.mat and setid.mat (needs scipy)."""
import importlib
import os
import tarfile

import numpy as np

from ...io import Dataset
from ._common import _backend, _check_exists_and_download, get_default_dtype

__all__ = []

DATA_URL = "http://paddlemodels.bj.bcebos.com/flowers/102flowers.tgz"
LABEL_URL = "http://paddlemodels.bj.bcebos.com/flowers/imagelabels.mat"
SETID_URL = "http://paddlemodels.bj.bcebos.com/flowers/setid.mat"
DATA_MD5 = "52808999861908f626f3c1f4e79d11fa"
LABEL_MD5 = "e0620be6f572b9609742df49c70aed4d"
SETID_MD5 = "a5357ecc9cb78c4bef273ce3793fc85c"
# Paddle's mapping (its train split is the dataset's larger 'tstid' set)
MODE_FLAG_MAP = {"train": "tstid", "test": "trnid", "valid": "valid"}


def _scipy_io():
    try:
        return importlib.import_module("scipy.io")
    except ImportError as e:
        raise ImportError("Failed importing scipy.io. This likely means that some paddle modules require additional "
                          "dependencies that have to be manually installed (usually with `pip install scipy`). ") from e


class Flowers(Dataset):
    """Oxford 102 Flowers; the .tgz is extracted next to itself on first use, as Paddle does."""

    def __init__(self, data_file=None, label_file=None, setid_file=None, mode="train", transform=None, download=True,
                 backend=None):
        assert mode.lower() in ["train", "valid", "test"], \
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        self.backend = _backend(backend)
        flag = MODE_FLAG_MAP[mode.lower()]
        if not data_file:
            assert download, "data_file is not set and downloading automatically is disabled"
            data_file = _check_exists_and_download(data_file, DATA_URL, DATA_MD5, "flowers", download)
        if not label_file:
            assert download, "label_file is not set and downloading automatically is disabled"
            label_file = _check_exists_and_download(label_file, LABEL_URL, LABEL_MD5, "flowers", download)
        if not setid_file:
            assert download, "setid_file is not set and downloading automatically is disabled"
            setid_file = _check_exists_and_download(setid_file, SETID_URL, SETID_MD5, "flowers", download)
        self.transform = transform
        self.data_path = data_file.replace(".tgz", "/")
        if not os.path.exists(self.data_path):
            os.mkdir(self.data_path)
        if not os.path.exists(os.path.join(self.data_path, "jpg")):
            with tarfile.open(data_file) as tar:
                tar.extractall(self.data_path)
        scio = _scipy_io()
        self.labels = scio.loadmat(label_file)["labels"][0]
        self.indexes = scio.loadmat(setid_file)[flag][0]

    def __getitem__(self, idx):
        from PIL import Image

        index = self.indexes[idx]
        label = np.array([self.labels[index - 1]])
        image = os.path.join(self.data_path, f"jpg/image_{index:05}.jpg")
        if self.backend == "pil":
            image = Image.open(image)
        else:
            image = np.array(Image.open(image))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(get_default_dtype()), label.astype("int64")

    def __len__(self):
        return len(self.indexes)
