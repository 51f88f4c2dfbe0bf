"""Imikolov: the PTB text of simple-examples.tgz as n-grams (NGRAM, window_size words) or (source, target)
sequences (SEQ).  The vocabulary counts ptb.train and ptb.valid words (bytes) with '<s>' / '<e>' once per line,
keeps those seen more than min_word_freq times, then '<unk>'."""
import collections
import tarfile

import numpy as np

from ...io import Dataset
from ._common import cached_file, check_mode, ranked_words

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
MD5 = "30177ea32e27c525793142b6bf2c8e2d"


class Imikolov(Dataset):
    def __init__(self, data_file=None, data_type="NGRAM", window_size=-1, mode="train", min_word_freq=50,
                 download=True):
        assert data_type.upper() in ["NGRAM", "SEQ"], f"data type should be 'NGRAM', 'SEQ', but got {data_type}"
        self.data_type = data_type.upper()
        self.mode = check_mode(mode, ["train", "test"], f"mode should be 'train', 'test', but got {mode}")
        self.window_size, self.min_word_freq = window_size, min_word_freq
        if data_file is None:
            assert download, "data_file is not set and downloading automatically disabled"
        self.data_file = cached_file(data_file, download, URL, MD5, "imikolov")
        self.word_idx = self._build_work_dict(min_word_freq)
        self._load_anno()

    def word_count(self, f, word_freq=None):
        word_freq = collections.defaultdict(int) if word_freq is None else word_freq
        for line in f:
            for w in line.strip().split():
                word_freq[w] += 1
            word_freq["<s>"] += 1
            word_freq["<e>"] += 1
        return word_freq

    def _build_work_dict(self, cutoff):
        with tarfile.open(self.data_file) as tar:
            freq = self.word_count(tar.extractfile("./simple-examples/data/ptb.train.txt"))
            freq = self.word_count(tar.extractfile("./simple-examples/data/ptb.valid.txt"), freq)
        freq.pop("<unk>", None)
        word_idx = ranked_words(freq, self.min_word_freq)
        word_idx["<unk>"] = len(word_idx)
        return word_idx

    def _load_anno(self):
        self.data = []
        unk = self.word_idx["<unk>"]
        with tarfile.open(self.data_file) as tar:
            for line in tar.extractfile(f"./simple-examples/data/ptb.{self.mode}.txt"):
                if self.data_type == "NGRAM":
                    assert self.window_size > -1, "Invalid gram length"
                    words = ["<s>", *line.strip().split(), "<e>"]
                    if len(words) >= self.window_size:
                        ids = [self.word_idx.get(w, unk) for w in words]
                        n = self.window_size
                        self.data.extend(tuple(ids[i - n:i]) for i in range(n, len(ids) + 1))
                else:
                    ids = [self.word_idx.get(w, unk) for w in line.strip().split()]
                    src, trg = [self.word_idx["<s>"], *ids], [*ids, self.word_idx["<e>"]]
                    if self.window_size > 0 and len(src) > self.window_size:
                        continue
                    self.data.append((src, trg))

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self):
        return len(self.data)
