"""paddle.version: the Paddle release paddle_on_torch follows (3.3.1).

The toolkit versions (CUDA, cuDNN, NCCL, ROCm) are those of the torch build underneath, in
Paddle's spellings ('False' where absent), since that is what the program actually runs on.
"""
import torch

full_version = "3.3.1"
major, minor, patch, rc = "3", "3", "1", "0"
is_tagged = True
commit = "paddle_on_torch"
with_mkl = "ON" if torch.backends.mkl.is_available() else "OFF"
with_hml = ""
cuda_version = torch.version.cuda or "False"
cudnn_version = str(torch.backends.cudnn.version()) if torch.cuda.is_available() else "False"
nccl_version = ".".join(map(str, torch.cuda.nccl.version())) if torch.cuda.is_available() else "0"
hip_version = torch.version.hip
xpu_xre_version = xpu_xccl_version = xpu_xhpc_version = "False"
cinn_version = "False"
tensorrt_version = "None"
with_pip_cuda_libraries = "ON"
with_pip_tensorrt = "OFF"
compiled_cuda_archs = []

__all__ = ["cuda", "cudnn", "nccl", "show", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc", "tensorrt", "cuda_archs",
           "hip"]


def show():
    if is_tagged:
        print("full_version:", full_version)
        print("major:", major)
        print("minor:", minor)
        print("patch:", patch)
        print("rc:", rc)
    else:
        print("commit:", commit)
    for name, value in (("cuda", cuda_version), ("cudnn", cudnn_version), ("hip", hip_version),
                        ("nccl", nccl_version), ("xpu_xre", xpu_xre_version), ("xpu_xccl", xpu_xccl_version),
                        ("xpu_xhpc", xpu_xhpc_version), ("cinn", cinn_version),
                        ("tensorrt_version", tensorrt_version), ("cuda_archs", compiled_cuda_archs)):
        print(f"{name}:", value)


class CudaVersion(str):
    """Paddle's `paddle.version.cuda`: a string that can also be called (`cuda()`)."""

    def __call__(self):
        return str(self)


cuda = CudaVersion(cuda_version)


def cudnn():
    return cudnn_version


def nccl():
    return nccl_version


hip = hip_version  # a value, not a function, in Paddle (None without ROCm)


def mkl():
    return with_mkl


def hml():
    return with_hml


def cinn():
    return cinn_version


def xpu():
    return xpu_xre_version


def xpu_xre():
    return xpu_xre_version


def xpu_xccl():
    return xpu_xccl_version


def xpu_xhpc():
    return xpu_xhpc_version


def tensorrt():
    return tensorrt_version


def cuda_archs():
    return compiled_cuda_archs
