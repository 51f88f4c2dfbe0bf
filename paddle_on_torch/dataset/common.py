"""paddle.dataset.common: the dataset cache (~/.cache/paddle/dataset) and its helpers.  paddle_on_torch never
downloads: `download` returns a cached file whose md5 matches and otherwise raises RuntimeError saying where to put
it."""
import errno
import hashlib
import os

from .. import _report

HOME = os.path.expanduser("~")
DATA_HOME = os.path.join(HOME, ".cache", "paddle", "dataset")

__all__ = ["DATA_HOME", "HOME", "md5file", "must_mkdirs", "download"]


def must_mkdirs(path):
    try:
        os.makedirs(path)
    except OSError as e:
        if e.errno != errno.EEXIST:
            raise


def md5file(fname):
    """The md5 hex digest of a file's bytes."""
    h = hashlib.md5()
    with open(fname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def download(url, module_name, md5sum, save_name=None):
    """The cached file of `url` for dataset `module_name` (DATA_HOME/module_name/<file name>), md5-checked."""
    dirname = os.path.join(DATA_HOME, module_name)
    filename = os.path.join(dirname, url.split("/")[-1] if save_name is None else save_name)
    if os.path.exists(filename) and md5file(filename) == md5sum:
        return filename
    raise RuntimeError(f"Cannot download {url} within retry limit 3 (paddle_on_torch does not download datasets). "
                       "Fetch the file yourself "
                       f"and put it at {filename} (md5 {md5sum}).")


def _check_exists_and_download(path, url, md5, module_name, download=True):
    from ..vision.datasets._common import _check_exists_and_download as check

    return check(path, url, md5, module_name, download)


__getattr__ = _report.module_getattr("paddle.dataset.common")
