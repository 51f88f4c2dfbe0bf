"""WMT14 (the shrunk English-French set): src.dict / trg.dict (the first dict_size lines) and the tab-separated
pairs of <mode>/<mode>; sequences longer than 80 ids are skipped."""
import tarfile

import numpy as np

from ...io import Dataset
from ._common import cached_file, check_mode

URL_DEV_TEST = "http://www-lium.univ-lemans.fr/~schwenk/cslm_joint_paper/data/dev+test.tgz"
MD5_DEV_TEST = "7d7897317ddd8ba0ae5c5fa7248d3ff5"
URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
MD5_TRAIN = "0791583d57d5beb693b9414c5b36798c"
START, END, UNK = "<s>", "<e>", "<unk>"
UNK_IDX = 2


def _first_lines(f, size):
    out = {}
    for i, line in enumerate(f):
        if i >= size:
            break
        out[line.strip().decode()] = i
    return out


class WMT14(Dataset):
    def __init__(self, data_file=None, mode="train", dict_size=-1, download=True):
        self.mode = check_mode(mode, ["train", "test", "gen"],
                               f"mode should be 'train', 'test' or 'gen', but got {mode}")
        self.data_file = cached_file(data_file, download, URL_TRAIN, MD5_TRAIN, "wmt14")
        assert dict_size > 0, "dict_size should be set as positive number"
        self.dict_size = dict_size
        self._load_data()

    def _load_data(self):
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            def only(suffix):
                names = [m.name for m in tar if m.name.endswith(suffix)]
                assert len(names) == 1
                return tar.extractfile(names[0])

            self.src_dict = _first_lines(only("src.dict"), self.dict_size)
            self.trg_dict = _first_lines(only("trg.dict"), self.dict_size)
            for name in [m.name for m in tar if m.name.endswith(f"{self.mode}/{self.mode}")]:
                for line in tar.extractfile(name):
                    pair = line.decode().strip().split("\t")
                    if len(pair) != 2:
                        continue
                    src = [self.src_dict.get(w, UNK_IDX) for w in [START, *pair[0].split(), END]]
                    trg = [self.trg_dict.get(w, UNK_IDX) for w in pair[1].split()]
                    if len(src) > 80 or len(trg) > 80:
                        continue
                    self.src_ids.append(src)
                    self.trg_ids.append([self.trg_dict[START], *trg])
                    self.trg_ids_next.append([*trg, self.trg_dict[END]])

    def __getitem__(self, idx):
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self):
        return len(self.src_ids)

    def get_dict(self, reverse=False):
        src, trg = self.src_dict, self.trg_dict
        if reverse:
            src, trg = {v: k for k, v in src.items()}, {v: k for k, v in trg.items()}
        return src, trg
