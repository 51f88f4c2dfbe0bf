"""WMT16 (Multi30k English-German): dictionaries <lang>_<size>.dict kept in Paddle's cache folder (built from
wmt16/train when missing or of another size: '<s>', '<e>', '<unk>', then the most frequent source-side words), and
the tab-separated pairs of wmt16/<mode>.  As in Paddle the cache folder must exist (downloading makes it): without it
building a dictionary is a FileNotFoundError.  (The ids of start, end and unknown words are the source dictionary's, as
in Paddle.)"""
import collections
import os
import tarfile

import numpy as np

from ...dataset import common
from ...io import Dataset
from ._common import cached_file, check_mode

DATA_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
DATA_MD5 = "0c38be43600334966403524a40dcd81e"
TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220
START_MARK, END_MARK, UNK_MARK = "<s>", "<e>", "<unk>"


class WMT16(Dataset):
    def __init__(self, data_file=None, mode="train", src_dict_size=-1, trg_dict_size=-1, lang="en", download=True):
        self.mode = check_mode(mode, ["train", "test", "val"],
                               f"mode should be 'train', 'test' or 'val', but got {mode}")
        self.data_file = cached_file(data_file, download, DATA_URL, DATA_MD5, "wmt16")
        self.lang = lang
        assert src_dict_size > 0, "dict_size should be set as positive number"
        assert trg_dict_size > 0, "dict_size should be set as positive number"
        self.src_dict_size = min(src_dict_size, TOTAL_EN_WORDS if lang == "en" else TOTAL_DE_WORDS)
        self.trg_dict_size = min(trg_dict_size, TOTAL_DE_WORDS if lang == "en" else TOTAL_EN_WORDS)
        self.src_dict = self._load_dict(lang, src_dict_size)
        self.trg_dict = self._load_dict("de" if lang == "en" else "en", trg_dict_size)
        self.data = self._load_data()

    @staticmethod
    def _dict_path(lang, dict_size):
        return os.path.join(common.DATA_HOME, f"wmt16/{lang}_{dict_size}.dict")

    def _load_dict(self, lang, dict_size, reverse=False):
        path = self._dict_path(lang, dict_size)
        found = False
        if os.path.exists(path):
            with open(path, "rb") as f:
                found = len(f.readlines()) == dict_size
        if not found:
            self._build_dict(path, dict_size, lang)
        with open(path, "rb") as f:
            words = [line.strip().decode() for line in f]
        return dict(enumerate(words)) if reverse else {w: i for i, w in enumerate(words)}

    def _build_dict(self, dict_path, dict_size, lang):
        freq = collections.defaultdict(int)
        with tarfile.open(self.data_file, mode="r") as tar:
            for line in tar.extractfile("wmt16/train"):
                pair = line.decode().strip().split("\t")
                if len(pair) != 2:
                    continue
                for w in (pair[0] if self.lang == "en" else pair[1]).split():  # (the source side, as Paddle)
                    freq[w] += 1
        with open(dict_path, "wb") as out:
            out.write(f"{START_MARK}\n{END_MARK}\n{UNK_MARK}\n".encode())
            for idx, (word, _) in enumerate(sorted(freq.items(), key=lambda wn: wn[1], reverse=True)):
                if idx + 3 == dict_size:
                    break
                out.write(word.encode() + b"\n")

    def _load_data(self):
        start, end, unk = self.src_dict[START_MARK], self.src_dict[END_MARK], self.src_dict[UNK_MARK]
        src_col = 0 if self.lang == "en" else 1
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            for line in tar.extractfile(f"wmt16/{self.mode}"):
                pair = line.decode().strip().split("\t")
                if len(pair) != 2:
                    continue
                src = [start] + [self.src_dict.get(w, unk) for w in pair[src_col].split()] + [end]
                trg = [self.trg_dict.get(w, unk) for w in pair[1 - src_col].split()]
                self.src_ids.append(src)
                self.trg_ids.append([start, *trg])
                self.trg_ids_next.append([*trg, end])

    def __getitem__(self, idx):
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self):
        return len(self.src_ids)

    def get_dict(self, lang, reverse=False):
        dict_size = self.src_dict_size if lang == self.lang else self.trg_dict_size
        assert os.path.exists(self._dict_path(lang, dict_size)), "Word dictionary does not exist. "
        return self._load_dict(lang, dict_size)
