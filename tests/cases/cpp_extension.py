"""paddle.utils.cpp_extension.get_build_directory: Paddle's default and $PADDLE_EXTENSION_DIR."""
import contextlib
import os
import tempfile

from tests.cases import case


@contextlib.contextmanager
def _env(value):
    old = os.environ.pop("PADDLE_EXTENSION_DIR", None)
    if value is not None:
        os.environ["PADDLE_EXTENSION_DIR"] = value
    try:
        yield
    finally:
        os.environ.pop("PADDLE_EXTENSION_DIR", None)
        if old is not None:
            os.environ["PADDLE_EXTENSION_DIR"] = old


@case
def build_directory_default(paddle):
    from paddle.utils.cpp_extension import get_build_directory

    with _env(None):
        d = get_build_directory()
        return [d == os.path.join(os.path.expanduser("~"), ".cache", "paddle_extensions"), os.path.isdir(d)]


@case
def build_directory_from_environment_is_created(paddle):
    with tempfile.TemporaryDirectory() as tmp, _env(os.path.join(tmp, "a", "b")):
        d = paddle.utils.cpp_extension.get_build_directory(verbose=True)
        return [d == os.path.join(tmp, "a", "b"), os.path.isdir(d)]


@case
def cpp_extension_names(paddle):
    return sorted(paddle.utils.cpp_extension.__all__)
