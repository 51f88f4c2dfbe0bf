"""paddle.version: the Paddle release paddle_on_torch follows (3.3.1), CPU-only flavour."""
full_version = "3.3.1"
major, minor, patch, rc = "3", "3", "1", "0"
is_tagged = True
commit = "paddle_on_torch"
with_mkl = "OFF"
cuda_version = "False"
cudnn_version = "False"
xpu_xre_version = xpu_xccl_version = xpu_xhpc_version = "False"
istaged = True

__all__ = ["full_version", "major", "minor", "patch", "rc", "commit", "cuda", "cudnn", "show", "xpu", "nccl"]


def show():
    print(f"full_version: {full_version}\nmajor: {major}\nminor: {minor}\npatch: {patch}\nrc: {rc}\n"
          f"cuda: {cuda_version}\ncudnn: {cudnn_version}")


def cuda():
    return cuda_version


def cudnn():
    return cudnn_version


def xpu():
    return "False"


def nccl():
    return "0"
