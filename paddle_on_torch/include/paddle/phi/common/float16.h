// paddle_on_torch: Paddle's element types live in data_type.h (c10 types)
#pragma once
#include "paddle/phi/common/data_type.h"
