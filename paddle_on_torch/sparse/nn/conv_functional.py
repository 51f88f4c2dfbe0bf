"""paddle.sparse.nn.functional convolutions and max_pool3d (the work is in conv.py)."""
from .conv import max_pool, sparse_conv

__all__ = ["conv2d", "conv3d", "subm_conv2d", "subm_conv2d_igemm", "subm_conv3d", "subm_conv3d_igemm", "max_pool3d"]


def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC", name=None):
    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, False, None, data_format, 3, "conv3d")


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC", name=None):
    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, False, None, data_format, 2, "conv2d")


def subm_conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC", key=None,
                name=None):
    # `key` names a cached rulebook in Paddle; rebuilding it gives the same result
    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, True, key, data_format, 3, "subm_conv3d")


def subm_conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC", key=None,
                name=None):
    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, True, key, data_format, 2, "subm_conv2d")


# the implicit-GEMM kernels compute the same submanifold convolution
def subm_conv3d_igemm(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC",
                      key=None, name=None):
    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, True, key, data_format, 3,
                       "subm_conv3d_igemm")


def subm_conv2d_igemm(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC",
                      key=None, name=None):
    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, True, key, data_format, 2,
                       "subm_conv2d_igemm")


def max_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NDHWC", name=None):
    return max_pool(x, kernel_size, stride, padding, ceil_mode, data_format)
