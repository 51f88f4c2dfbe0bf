"""paddle.sysconfig: where Paddle's C++ headers and libraries are, for building custom operators against them.
There are none here (custom operators are torch.library ops; see paddle.utils.cpp_extension)."""
from . import _report

__all__ = ["get_include", "get_lib"]


def get_include():
    raise _report.unsupported("paddle.sysconfig.get_include", ": there are no Paddle C++ headers on torch")


def get_lib():
    raise _report.unsupported("paddle.sysconfig.get_lib", ": there is no Paddle C++ library on torch")
