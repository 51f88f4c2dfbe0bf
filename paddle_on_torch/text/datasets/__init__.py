"""paddle.text.datasets: the classic NLP datasets, read from Paddle's cached files (~/.cache/paddle/dataset/...) or
from files given by path.  paddle_on_torch never downloads: without the file, the dataset raises Paddle's own
download error (a RuntimeError, "Cannot download <url> within retry limit 3", saying where to put the file)."""
from .conll05 import Conll05st
from .imdb import Imdb
from .imikolov import Imikolov
from .movielens import Movielens
from .uci_housing import UCIHousing
from .wmt14 import WMT14
from .wmt16 import WMT16

__all__ = []  # (as Paddle's: the classes are reached as paddle.text.X or paddle.text.datasets.X)
