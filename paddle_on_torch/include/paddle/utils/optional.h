// paddle_on_torch: paddle::optional, the type of optional custom-op inputs (paddle::Optional("Y")), on
// std::optional with the boost-style accessors Paddle's has (get, get_ptr, is_initialized, paddle::none).
#pragma once

#include <optional>
#include <utility>

#include "paddle/utils/none.h"

namespace paddle {

template <typename T>
class optional : public std::optional<T> {
 public:
  using base = std::optional<T>;
  using value_type = T;

  optional() = default;
  optional(none_t) {}                                  // NOLINT
  optional(const T& v) : base(v) {}                    // NOLINT
  optional(T&& v) : base(std::move(v)) {}              // NOLINT
  optional(bool cond, const T& v) {
    if (cond) base::emplace(v);
  }
  optional& operator=(none_t) {
    base::reset();
    return *this;
  }

  bool is_initialized() const { return base::has_value(); }
  const T& get() const { return base::value(); }
  T& get() { return base::value(); }
  const T* get_ptr() const { return base::has_value() ? &**this : nullptr; }
  T* get_ptr() { return base::has_value() ? &**this : nullptr; }
  const T& get_value_or(const T& v) const { return base::has_value() ? **this : v; }
};

template <typename T>
optional<T> make_optional(const T& v) {
  return optional<T>(v);
}
template <typename T>
optional<T> make_optional(bool cond, const T& v) {
  return optional<T>(cond, v);
}
}  // namespace paddle
