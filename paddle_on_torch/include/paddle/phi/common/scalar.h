// paddle_on_torch: paddle::experimental::Scalar (a number argument of the C++ API: fill values, scales, clip
// bounds, axes) over c10::Scalar, remembering the DataType it was made from.
#pragma once

#include <c10/core/Scalar.h>

#include <cstdint>
#include <string>

#include "paddle/phi/common/data_type.h"

namespace paddle {
class Tensor;
namespace experimental {

class Scalar {
 public:
  Scalar() : Scalar(static_cast<float>(0)) {}
  Scalar(float v) : value_(static_cast<double>(v)), dtype_(DataType::FLOAT32) {}    // NOLINT
  Scalar(double v) : value_(v), dtype_(DataType::FLOAT64) {}                          // NOLINT
  Scalar(::phi::float16 v) : value_(static_cast<double>(static_cast<float>(v))), dtype_(DataType::FLOAT16) {}  // NOLINT
  Scalar(::phi::bfloat16 v) : value_(static_cast<double>(static_cast<float>(v))), dtype_(DataType::BFLOAT16) {}  // NOLINT
  Scalar(int8_t v) : value_(static_cast<int64_t>(v)), dtype_(DataType::INT8) {}      // NOLINT
  Scalar(int16_t v) : value_(static_cast<int64_t>(v)), dtype_(DataType::INT16) {}    // NOLINT
  Scalar(int32_t v) : value_(static_cast<int64_t>(v)), dtype_(DataType::INT32) {}    // NOLINT
  Scalar(int64_t v) : value_(v), dtype_(DataType::INT64) {}                           // NOLINT
  Scalar(uint8_t v) : value_(static_cast<int64_t>(v)), dtype_(DataType::UINT8) {}    // NOLINT
  Scalar(uint16_t v) : value_(static_cast<int64_t>(v)), dtype_(DataType::UINT16) {}  // NOLINT
  Scalar(uint32_t v) : value_(static_cast<int64_t>(v)), dtype_(DataType::UINT32) {}  // NOLINT
  Scalar(uint64_t v) : value_(static_cast<int64_t>(v)), dtype_(DataType::UINT64) {}  // NOLINT
  Scalar(bool v) : value_(v), dtype_(DataType::BOOL) {}                               // NOLINT
  Scalar(::phi::complex64 v) : value_(::c10::complex<double>(v.real(), v.imag())), dtype_(DataType::COMPLEX64) {}  // NOLINT
  Scalar(::phi::complex128 v) : value_(v), dtype_(DataType::COMPLEX128) {}            // NOLINT
  Scalar(const std::string& s) : value_(std::stod(s)), dtype_(DataType::FLOAT64) {}  // NOLINT
  Scalar(const Tensor& t);                                                            // NOLINT (tensor.h)

  template <typename T>
  T to() const {
    return value_.to<T>();
  }
  DataType dtype() const { return dtype_; }
  bool FromTensor() const { return from_tensor_; }
  std::string ToString() const { return value_.isComplex() ? "complex" : std::to_string(value_.toDouble()); }
  std::string ToRawString() const { return ToString(); }
  const ::c10::Scalar& aten() const { return value_; }
  bool operator==(const Scalar& o) const {
    if (dtype_ != o.dtype_) return false;
    return value_.isComplex() ? value_.toComplexDouble() == o.value_.toComplexDouble()
                              : value_.toDouble() == o.value_.toDouble();
  }
  bool operator!=(const Scalar& o) const { return !(*this == o); }

 private:
  ::c10::Scalar value_;
  DataType dtype_;
  bool from_tensor_ = false;
};
}  // namespace experimental
using Scalar = experimental::Scalar;
}  // namespace paddle

namespace phi {
using Scalar = paddle::experimental::Scalar;
}
