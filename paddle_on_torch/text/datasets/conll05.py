"""Conll05st: the WSJ test section of conll05st-tests.tar.gz for semantic role labelling.  Each (sentence,
predicate) pair is an item: word ids, the ids of the words two before to two after the predicate (each repeated
over the sentence; 'bos' / 'eos' past its ends), the predicate id, the mark of that five-word window and the
labels as B-/I-/O ids.  (Label ids follow a Python set's order, as in Paddle: they depend on the process's string
hash seed.)"""
import gzip
import tarfile

import numpy as np

from ...io import Dataset
from ._common import cached_file

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
DATA_MD5 = "387719152ae52d60422c016e92a742fc"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
WORDDICT_MD5 = "ea7fb7d4c75cc6254716f0177a506baa"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
VERBDICT_MD5 = "0d2977293bbb6cbefab5b0f97db1e77c"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
TRGDICT_MD5 = "d8c7f03ceb5fc2e5a0fa7503a4353751"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"
EMB_MD5 = "bf436eb0faa1f6f9103017f8be57cdb7"
UNK_IDX = 0


def _bio(column):
    """One predicate's bracketed column ('(A0*', '*', '*)', '(V*)') as B-/I-/O tags."""
    tags, tag, inside = [], "O", False
    for cell in column:
        if cell == "*":
            tags.append("I-" + tag if inside else "O")
        elif cell == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in cell:
            tag = cell[1:cell.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in cell
        else:
            raise RuntimeError(f"Unexpected label: {cell}")
    return tags


class Conll05st(Dataset):
    def __init__(self, data_file=None, word_dict_file=None, verb_dict_file=None, target_dict_file=None,
                 emb_file=None, download=True):
        m = "conll05st"
        self.data_file = cached_file(data_file, download, DATA_URL, DATA_MD5, m)
        self.word_dict_file = cached_file(word_dict_file, download, WORDDICT_URL, WORDDICT_MD5, m, "word_dict_file")
        self.verb_dict_file = cached_file(verb_dict_file, download, VERBDICT_URL, VERBDICT_MD5, m, "verb_dict_file")
        self.target_dict_file = cached_file(target_dict_file, download, TRGDICT_URL, TRGDICT_MD5, m,
                                            "target_dict_file")
        self.emb_file = cached_file(emb_file, download, EMB_URL, EMB_MD5, m, "emb_file")
        self.word_dict = self._load_dict(self.word_dict_file)
        self.predicate_dict = self._load_dict(self.verb_dict_file)
        self.label_dict = self._load_label_dict(self.target_dict_file)
        self._load_anno()

    def _load_label_dict(self, filename):
        tags = set()
        with open(filename) as f:
            for line in f:
                line = line.strip()
                if line.startswith(("B-", "I-")):
                    tags.add(line[2:])
        out = {}
        for tag in tags:
            out["B-" + tag] = len(out)
            out["I-" + tag] = len(out)
        out["O"] = len(out)
        return out

    def _load_dict(self, filename):
        with open(filename) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    def _load_anno(self):
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as tar:
            words = tar.extractfile("conll05st-release/test.wsj/words/test.wsj.words.gz")
            props = tar.extractfile("conll05st-release/test.wsj/props/test.wsj.props.gz")
            with gzip.GzipFile(fileobj=words) as wf, gzip.GzipFile(fileobj=props) as pf:
                sentence, rows = [], []
                for word, prop in zip(wf, pf):
                    word, prop = word.strip().decode(), prop.strip().decode().split()
                    if prop:
                        sentence.append(word)
                        rows.append(prop)
                        continue
                    # a sentence ends: column 0 names the predicates, column k + 1 is predicate k's arguments
                    columns = [[row[i] for row in rows] for i in range(len(rows[0]))] if rows else []
                    if columns:
                        verbs = [v for v in columns[0] if v != "-"]
                        for k, column in enumerate(columns[1:]):
                            self.sentences.append(sentence)
                            self.predicates.append(verbs[k])
                            self.labels.append(_bio(column))
                    sentence, rows = [], []

    def __getitem__(self, idx):
        sentence, predicate, labels = self.sentences[idx], self.predicates[idx], self.labels[idx]
        n = len(sentence)
        v = labels.index("B-V")
        mark = [0] * len(labels)
        context = []
        for off in (-2, -1, 0, 1, 2):
            i = v + off
            inside = 0 <= i < len(labels)
            if inside:
                mark[i] = 1
            context.append(sentence[i] if inside else ("bos" if off < 0 else "eos"))
        ids = [self.word_dict.get(w, UNK_IDX) for w in sentence]
        ctx = [np.array([self.word_dict.get(w, UNK_IDX)] * n) for w in context]
        return (np.array(ids), *ctx, np.array([self.predicate_dict.get(predicate)] * n), np.array(mark),
                np.array([self.label_dict.get(w) for w in labels]))

    def __len__(self):
        return len(self.sentences)

    def get_dict(self):
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self):
        return self.emb_file
