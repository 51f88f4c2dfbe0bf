"""A program that imports pip before setuptools (PaddleNLP does, at import) can still import setuptools afterwards
(torch's cpp_extension: inductor and the C++ kernels do), as under Paddle, whose own import loads setuptools."""
import subprocess
import sys

import pytest

pytestmark = pytest.mark.build

PROGRAM = """
import paddle_on_torch
paddle_on_torch.install()
import paddle
import pip  # setuptools' distutils hack switches itself off here
from distutils import dir_util  # noqa: F401  (what PaddleNLP imports next)
import torch.utils.cpp_extension  # imports setuptools: its assertion failed before
print("ok")
"""


def test_setuptools_imports_after_pip():
    pytest.importorskip("setuptools")
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().endswith("ok")
