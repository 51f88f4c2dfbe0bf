"""Where Paddle keeps downloaded datasets, and the offline replacement for its downloader."""
import hashlib
import os

from ..._core.dtype import get_default_dtype  # noqa: F401
from ..image import get_image_backend

DATA_HOME = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset")


def _md5(path):
    h = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _check_exists_and_download(path, url, md5, module_name, download=True):
    """Paddle's lookup: an existing `path`, else the file in Paddle's cache (~/.cache/paddle/dataset/<module>/);
    where Paddle would download, raise instead (paddle_on_torch never uses the network)."""
    if path and os.path.exists(path):
        return path
    if not download:
        raise ValueError(f"{path} not exists and auto download disabled")
    cached = os.path.join(DATA_HOME, module_name, url.split("/")[-1])
    if os.path.exists(cached) and _md5(cached) == md5:
        return cached
    raise RuntimeError(
        f"Cannot download {url} within retry limit 3 (paddle_on_torch does not download datasets). Fetch the file "
        "yourself and either "
        f"pass its path to the dataset or put it at {cached} (md5 {md5}).")


def _backend(backend):
    if backend is None:
        backend = get_image_backend()
    if backend not in ["pil", "cv2"]:
        raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
    return backend
