// paddle_on_torch: the C++ API headers paddle/extension.h brings in.
#pragma once

#include "paddle/common/ddim.h"
#include "paddle/common/exception.h"
#include "paddle/common/layout.h"
#include "paddle/phi/api/ext/dispatch.h"
#include "paddle/phi/api/ext/op_meta_info.h"
#include "paddle/phi/api/ext/tensor_compat.h"
#include "paddle/phi/api/include/api.h"
#include "paddle/phi/api/include/tensor.h"
#include "paddle/phi/common/data_type.h"
#include "paddle/phi/common/int_array.h"
#include "paddle/phi/common/place.h"
#include "paddle/phi/common/scalar.h"
