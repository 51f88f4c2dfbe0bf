"""paddle.sysconfig: where Paddle's C++ headers and libraries are, for building custom operators against them.
The headers are paddle_on_torch/include (Paddle's custom-operator API on ATen); there is no Paddle C++ library
(operators link against torch's)."""
import os

from . import _report

__all__ = ["get_include", "get_lib"]


def get_include():
    """The directory of the C++ headers custom operators include (paddle/extension.h)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")


def get_lib():
    raise _report.unsupported("paddle.sysconfig.get_lib", ": there is no Paddle C++ library on torch (custom "
                                                          "operators link against torch's libraries)")
