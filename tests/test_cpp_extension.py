"""paddle.utils.cpp_extension's build entry points say that Paddle C++ ops cannot be built on torch."""
import pytest

from paddle.utils import cpp_extension


@pytest.mark.parametrize("api, call", [
    ("load", lambda: cpp_extension.load(name="relu_op", sources=["relu_op.cc"])),
    ("setup", lambda: cpp_extension.setup(name="relu_op", ext_modules=[])),
    ("CppExtension", lambda: cpp_extension.CppExtension(sources=["relu_op.cc"])),
    ("CUDAExtension", lambda: cpp_extension.CUDAExtension(sources=["relu_op.cu"])),
])
def test_build_apis_raise_not_implemented(api, call):
    with pytest.raises(NotImplementedError, match=f"torch.utils.cpp_extension.{api}"):
        call()
