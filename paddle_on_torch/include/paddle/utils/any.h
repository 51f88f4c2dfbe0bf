// paddle_on_torch: paddle::any (how custom-op attributes travel to the kernel) is std::any.
#pragma once

#include <any>

namespace paddle {
using any = std::any;
using bad_any_cast = std::bad_any_cast;
using std::any_cast;
}  // namespace paddle
