"""paddle.text: Viterbi decoding and the classic NLP datasets (paddle.text.datasets: read from Paddle's cached
files or given paths; paddle_on_torch never downloads them)."""
from .. import _report
from . import datasets  # noqa: F401
from .datasets import Conll05st, Imdb, Imikolov, Movielens, UCIHousing, WMT14, WMT16
from .viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16", "ViterbiDecoder",
           "viterbi_decode"]

__getattr__ = _report.module_getattr("paddle.text")
