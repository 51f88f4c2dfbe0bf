"""paddle.sysconfig: where the headers and libraries for building custom operators are.

Custom operators here compile against paddle_on_torch's implementation of Paddle's C++ API (paddle/extension.h
and the headers it includes, on ATen) and link against torch's libraries (see paddle.utils.cpp_extension)."""
import os

__all__ = ["get_include", "get_lib"]


def get_include():
    """The folder holding paddle/extension.h (paddle_on_torch's Paddle C++ API headers)."""
    from .utils.cpp_extension._build import INCLUDE_DIR

    return INCLUDE_DIR


def get_lib():
    """The folder of the libraries custom operators link against: torch's (libc10, libtorch_cpu, ...)."""
    import torch

    return os.path.join(os.path.dirname(torch.__file__), "lib")
