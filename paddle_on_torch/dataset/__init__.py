"""paddle.dataset: Paddle's legacy dataset readers.  `paddle.dataset.common` (the download cache helpers that
libraries import) is here; the reader modules raise UnsupportedAPIError (use paddle.vision.datasets /
paddle.text.datasets)."""
import importlib

from .. import _report

_missing = _report.module_getattr("paddle.dataset")


def __getattr__(name):
    if name == "common":
        return importlib.import_module(f"{__name__}.common")
    if name in ("cifar", "conll05", "flowers", "image", "imdb", "imikolov", "mnist", "movielens", "uci_housing",
                "voc2012", "wmt14", "wmt16"):
        raise _report.unsupported(f"paddle.dataset.{name}", ": use paddle.vision.datasets / paddle.text.datasets")
    return _missing(name)
