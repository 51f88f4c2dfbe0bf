// paddle_on_torch: paddle::experimental::IntArray, the shape / axis-list argument of the C++ API.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace paddle {
class Tensor;
namespace experimental {

class IntArray {
 public:
  IntArray() = default;
  IntArray(const std::vector<int64_t>& v) : data_(v) {}                               // NOLINT
  IntArray(const std::vector<int32_t>& v) : data_(v.begin(), v.end()) {}              // NOLINT
  IntArray(std::initializer_list<int64_t> v) : data_(v) {}                            // NOLINT
  IntArray(const int64_t* d, int64_t n) : data_(d, d + n) {}
  IntArray(const int32_t* d, int64_t n) : data_(d, d + n) {}
  IntArray(const Tensor& t);                                                          // NOLINT (tensor.h)
  IntArray(const std::vector<Tensor>& ts);                                            // NOLINT (tensor.h)

  size_t size() const { return data_.size(); }
  const std::vector<int64_t>& GetData() const { return data_; }
  bool FromTensor() const { return from_tensor_; }
  void SetFromTensor(bool v) { from_tensor_ = v; }
  bool operator==(const IntArray& o) const { return data_ == o.data_; }

 private:
  std::vector<int64_t> data_;
  bool from_tensor_ = false;
};
}  // namespace experimental
using IntArray = experimental::IntArray;
}  // namespace paddle

namespace phi {
using IntArray = paddle::experimental::IntArray;
}
