// paddle_on_torch's paddle/extension.h: Paddle's C++ custom-operator API (paddle::Tensor, PD_BUILD_OP and its
// grad ops, attributes, in-place maps, PD_CHECK, the PD_DISPATCH_* macros, DataType / Place, the
// paddle::experimental functions) implemented on ATen, for operators built by paddle.utils.cpp_extension on
// PyTorch.  See docs/custom_ops.md for what is covered and what is refused.
#pragma once

#include "paddle/phi/api/all.h"
