"""Imdb: aclImdb_v1.tar.gz reviews as word ids (label 0 positive, 1 negative).  The vocabulary holds the words of
every train and test review seen more than `cutoff` times, as bytes (the archive's), then '<unk>'."""
import collections
import re
import string
import tarfile

import numpy as np

from ...io import Dataset
from ._common import cached_file, check_mode, ranked_words

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
MD5 = "7c2ac02c03563afcf9b574c7e56c153a"
_PUNCTUATION = string.punctuation.encode("latin-1")


class Imdb(Dataset):
    def __init__(self, data_file=None, mode="train", cutoff=150, download=True):
        self.mode = check_mode(mode, ["train", "test"], f"mode should be 'train', 'test', but got {mode}")
        self.data_file = cached_file(data_file, download, URL, MD5, "imdb")
        self.word_idx = self._build_work_dict(cutoff)
        self._load_anno()

    def _tokenize(self, pattern):
        """The reviews whose member name matches, in archive order: lower-case bytes words, punctuation dropped."""
        docs = []
        with tarfile.open(self.data_file) as tar:
            for member in iter(tar.next, None):
                if pattern.match(member.name):
                    text = tar.extractfile(member).read().rstrip(b"\n\r")
                    docs.append(text.translate(None, _PUNCTUATION).lower().split())
        return docs

    def _build_work_dict(self, cutoff):
        freq = collections.Counter()
        for doc in self._tokenize(re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")):
            freq.update(doc)
        word_idx = ranked_words(freq, cutoff)
        word_idx["<unk>"] = len(word_idx)
        return word_idx

    def _load_anno(self):
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, kind in ((0, "pos"), (1, "neg")):
            for doc in self._tokenize(re.compile(rf"aclImdb/{self.mode}/{kind}/.*\.txt$")):
                self.docs.append([self.word_idx.get(w, unk) for w in doc])
                self.labels.append(label)

    def __getitem__(self, idx):
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self):
        return len(self.docs)
