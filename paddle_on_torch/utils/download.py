"""paddle.utils.download: where Paddle keeps downloaded weights and files, and its cache lookup.

paddle_on_torch never uses the network (as for the datasets and pretrained models): get_path_from_url and
get_weights_path_from_url return the file when it is already in place (md5-checked, archives unpacked as Paddle
unpacks them) and otherwise raise RuntimeError saying where to put it.
"""
import hashlib
import logging
import os
import os.path as osp
import tarfile
import zipfile

from .. import _report

__all__ = ["get_weights_path_from_url"]

logger = logging.getLogger(__name__)

WEIGHTS_HOME = osp.expanduser("~/.cache/paddle/hapi/weights")
DOWNLOAD_RETRY_LIMIT = 3


def is_url(path):
    """Whether `path` is an http(s) URL."""
    return path.startswith("http://") or path.startswith("https://")


def get_weights_path_from_url(url, md5sum=None):
    """The local file of `url` under WEIGHTS_HOME (~/.cache/paddle/hapi/weights)."""
    return get_path_from_url(url, WEIGHTS_HOME, md5sum)


def _map_path(url, root_dir):
    return osp.join(root_dir, osp.split(url)[-1])


def _get_unique_endpoints(trainer_endpoints):
    """One endpoint per host (the one that downloads for the others): the first of each IP in sorted order."""
    trainer_endpoints.sort()
    ips, unique = set(), set()
    for endpoint in trainer_endpoints:
        ip = endpoint.split(":")[0]
        if ip not in ips:
            ips.add(ip)
            unique.add(endpoint)
    logger.info(f"unique_endpoints {unique}")
    return unique


def get_path_from_url(url, root_dir, md5sum=None, check_exist=True, decompress=True, method="get"):
    """The local path of `url` under `root_dir` (unpacked when it is a zip or tar archive and `decompress`)."""
    assert is_url(url), f"downloading from {url} not a url"
    fullpath = _map_path(url, root_dir)
    if not (osp.exists(fullpath) and _md5check(fullpath, md5sum)):
        raise RuntimeError(f"Cannot download {url}: paddle_on_torch does not download files. Fetch it yourself and "
                           f"put it at {fullpath}" + (f" (md5 {md5sum})." if md5sum else "."))
    logger.info(f"Found {fullpath}")
    if decompress and (tarfile.is_tarfile(fullpath) or zipfile.is_zipfile(fullpath)):
        fullpath = _decompress(fullpath)
    return fullpath


def _md5check(fullname, md5sum=None):
    if md5sum is None:
        return True
    md5 = hashlib.md5()
    with open(fullname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            md5.update(chunk)
    if md5.hexdigest() != md5sum:
        logger.info(f"File {fullname} md5 check failed, {md5.hexdigest()}(calc) != {md5sum}(base)")
        return False
    return True


def _is_a_single_file(names):
    return len(names) == 1 and os.sep not in names[0]


def _is_a_single_dir(names):
    tops = {n.replace("\\", "/").split("/")[0] for n in names}
    return len(tops) == 1


def _target(archive, names):
    """Where Paddle unpacks an archive, and the path it returns: a lone file or a lone top folder beside the archive,
    anything else into a folder named after the archive."""
    file_dir = osp.dirname(archive)
    if _is_a_single_file(names):
        return file_dir, osp.join(file_dir, names[0])
    if _is_a_single_dir(names):
        root = osp.splitext(names[0].strip(os.sep))[0].split(os.sep)[-1]
        return file_dir, osp.join(file_dir, root)
    root = osp.join(file_dir, osp.splitext(archive)[0].split(os.sep)[-1])
    os.makedirs(root, exist_ok=True)
    return root, root


def _decompress(fname):
    """Unpack a zip or tar archive next to it (no absolute paths, no '..', no links) and return the result's path."""
    logger.info(f"Decompressing {fname}...")
    if tarfile.is_tarfile(fname):
        with tarfile.open(fname, "r:*") as tar:
            names = tar.getnames()
            for n in names:
                if osp.isabs(n) or ".." in n.replace("\\", "/").split("/"):
                    raise ValueError(f"Unsafe path in tar: {n}")
            where, path = _target(fname, names)
            tar.extractall(where, filter="data")
        return path
    if zipfile.is_zipfile(fname):
        with zipfile.ZipFile(fname) as z:
            names = [n.replace("../", "") for n in z.namelist()]
            where, path = _target(fname, names)
            z.extractall(where)
        return path
    raise TypeError(f"Unsupported compress file type {fname}")


__getattr__ = _report.module_getattr("paddle.utils.download")
