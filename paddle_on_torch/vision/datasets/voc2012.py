"""paddle.vision.datasets.VOC2012: segmentation pairs read straight from VOCtrainval_11-May-2012.tar."""
import io
import tarfile

import numpy as np

from ...io import Dataset
from ._common import _backend, _check_exists_and_download, get_default_dtype

__all__ = []

VOC_URL = "https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar"
VOC_MD5 = "6cd6e144f989b92b3379bac3b3de84fd"
SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
CACHE_DIR = "voc2012"
MODE_FLAG_MAP = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    """VOC2012 segmentation: items are (image, label mask) read from the tar."""

    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
        assert mode.lower() in ["train", "valid", "test"], \
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        self.data_tar = None
        self.backend = _backend(backend)
        self.flag = MODE_FLAG_MAP[mode.lower()]
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically is disabled"
            self.data_file = _check_exists_and_download(data_file, VOC_URL, VOC_MD5, CACHE_DIR, download)
        self.transform = transform
        self._load_anno()
        self.dtype = get_default_dtype()

    def _load_anno(self):
        self.data_tar = tarfile.open(self.data_file)
        self.name2mem = {m.name: m for m in self.data_tar.getmembers()}
        sets = self.data_tar.extractfile(self.name2mem[SET_FILE.format(self.flag)])
        self.data, self.labels = [], []
        for line in sets:
            line = line.strip().decode("utf-8")
            self.data.append(DATA_FILE.format(line))
            self.labels.append(LABEL_FILE.format(line))

    def __getitem__(self, idx):
        from PIL import Image

        data = self.data_tar.extractfile(self.name2mem[self.data[idx]]).read()
        label = self.data_tar.extractfile(self.name2mem[self.labels[idx]]).read()
        data, label = Image.open(io.BytesIO(data)), Image.open(io.BytesIO(label))
        if self.backend == "cv2":
            data, label = np.array(data), np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return data.astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self):
        return len(self.data)

    def __del__(self):
        if getattr(self, "data_tar", None):
            self.data_tar.close()
