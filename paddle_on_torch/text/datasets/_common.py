"""What the text datasets share: the file lookup (Paddle's cache, no download) and the mode check."""
from ...dataset.common import _check_exists_and_download  # noqa: F401


def check_mode(mode, allowed, message):
    assert mode.lower() in allowed, message
    return mode.lower()


def cached_file(data_file, download, url, md5, module, what="data_file"):
    """`data_file` when given, else the cached file of `url` (Paddle's download error without it)."""
    if data_file is not None:
        return data_file
    assert download, f"{what} is not set and downloading automatically is disabled"
    return _check_exists_and_download(data_file, url, md5, module, download)


def ranked_words(freq, cutoff):
    """{word: id} for the words seen more than `cutoff` times, most frequent first (ties by the word)."""
    kept = sorted(((w, n) for w, n in freq.items() if n > cutoff), key=lambda wn: (-wn[1], wn[0]))
    return {w: i for i, (w, _) in enumerate(kept)}
