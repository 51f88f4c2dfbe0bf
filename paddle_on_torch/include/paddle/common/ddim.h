// paddle_on_torch: Paddle's DDim (a tensor's dimensions) as a small value type over a vector of int64.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

#include "paddle/common/exception.h"

namespace common {

class DDim {
 public:
  DDim() = default;
  DDim(std::initializer_list<int64_t> dims) : dims_(dims) {}  // NOLINT
  explicit DDim(const std::vector<int64_t>& dims) : dims_(dims) {}
  DDim(const int64_t* d, int n) : dims_(d, d + n) {}
  DDim(const int* d, int n) : dims_(d, d + n) {}

  int size() const { return static_cast<int>(dims_.size()); }
  int64_t& operator[](int idx) { return dims_[idx]; }
  int64_t operator[](int idx) const { return dims_[idx]; }
  int64_t& at(int idx) {
    PD_CHECK(idx >= 0 && idx < size(), "Invalid DDim index to be accessed: ", idx, " (size ", size(), ")");
    return dims_[idx];
  }
  int64_t at(int idx) const {
    PD_CHECK(idx >= 0 && idx < size(), "Invalid DDim index to be accessed: ", idx, " (size ", size(), ")");
    return dims_[idx];
  }
  const int64_t* Get() const { return dims_.data(); }
  int64_t* GetMutable() { return dims_.data(); }
  bool operator==(const DDim& o) const { return dims_ == o.dims_; }
  bool operator!=(const DDim& o) const { return dims_ != o.dims_; }
  std::string to_str() const {
    std::string s;
    for (size_t i = 0; i < dims_.size(); ++i) s += (i ? ", " : "") + std::to_string(dims_[i]);
    return s;
  }
  std::vector<int64_t>::const_iterator begin() const { return dims_.begin(); }
  std::vector<int64_t>::const_iterator end() const { return dims_.end(); }
  const std::vector<int64_t>& vec() const { return dims_; }

 private:
  std::vector<int64_t> dims_;
};

inline std::ostream& operator<<(std::ostream& os, const DDim& d) { return os << d.to_str(); }
inline DDim make_ddim(const std::vector<int64_t>& dims) { return DDim(dims); }
inline DDim make_ddim(const std::vector<int>& dims) { return DDim(std::vector<int64_t>(dims.begin(), dims.end())); }
inline DDim make_ddim(std::initializer_list<int64_t> dims) { return DDim(std::vector<int64_t>(dims)); }
inline std::vector<int64_t> vectorize(const DDim& d) { return d.vec(); }
template <typename T>
std::vector<T> vectorize(const DDim& d) {
  return std::vector<T>(d.begin(), d.end());
}
inline int64_t product(const DDim& d) {
  int64_t p = 1;
  for (int64_t v : d) p *= v;
  return p;
}
inline int arity(const DDim& d) { return d.size(); }
inline DDim slice_ddim(const DDim& d, int begin, int end) {
  return DDim(std::vector<int64_t>(d.begin() + begin, d.begin() + end));
}
inline DDim flatten_to_2d(const DDim& d, int num_col_dims) {
  return DDim({product(slice_ddim(d, 0, num_col_dims)), product(slice_ddim(d, num_col_dims, d.size()))});
}
inline DDim flatten_to_1d(const DDim& d) { return DDim({product(d)}); }
}  // namespace common

namespace phi {
using DDim = common::DDim;
using common::flatten_to_1d;
using common::flatten_to_2d;
using common::make_ddim;
using common::product;
using common::slice_ddim;
using common::vectorize;
}  // namespace phi
