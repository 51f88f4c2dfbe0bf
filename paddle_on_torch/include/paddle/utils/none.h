// paddle_on_torch: paddle::none, the empty value of paddle::optional.
#pragma once

namespace paddle {
struct none_t {
  constexpr explicit none_t(int) {}
};
inline constexpr none_t none{0};
}  // namespace paddle
