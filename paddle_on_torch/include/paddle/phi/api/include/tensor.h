// paddle_on_torch: paddle::Tensor, the tensor type of Paddle's custom-operator API, as a handle to an ATen tensor.
//
// Like Paddle's, copies of a Tensor share one implementation: reshape() / mutable_data() through one copy are
// seen by all.  A Tensor may be defined but not yet allocated (Tensor(place), Tensor(place, shape), reshape() on
// an empty one): mutable_data<T>() then allocates it with T's dtype.  Data pointers are those of the ATen tensor
// (inputs reach kernels contiguous).
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/core/TensorOptions.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "paddle/common/ddim.h"
#include "paddle/common/exception.h"
#include "paddle/common/layout.h"
#include "paddle/common/macros.h"
#include "paddle/phi/common/data_type.h"
#include "paddle/phi/common/int_array.h"
#include "paddle/phi/common/place.h"
#include "paddle/phi/common/scalar.h"
#include "paddle/utils/any.h"
#include "paddle/utils/optional.h"

#if defined(PADDLE_WITH_CUDA)
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
using gpuStream_t = cudaStream_t;
#endif

namespace paddle_on_torch {

// torch device <-> Paddle place
inline phi::Place PlaceOf(const ::c10::Device& d, bool pinned = false) {
  switch (d.type()) {
    case ::c10::DeviceType::CPU:
      return pinned ? phi::Place(phi::AllocationType::GPUPINNED) : phi::Place(phi::AllocationType::CPU);
    case ::c10::DeviceType::CUDA:
      return phi::Place(phi::AllocationType::GPU, static_cast<int8_t>(d.has_index() ? d.index() : 0));
    case ::c10::DeviceType::PrivateUse1:
      return phi::Place(phi::AllocationType::CUSTOM, static_cast<int8_t>(d.has_index() ? d.index() : 0),
                        ::c10::get_privateuse1_backend());
    default:
      PD_THROW("paddle_on_torch: torch device ", d.str(), " has no Paddle place");
  }
}

inline ::c10::Device DeviceOf(const phi::Place& p) {
  switch (p.GetType()) {
    case phi::AllocationType::UNDEFINED:
    case phi::AllocationType::CPU:
    case phi::AllocationType::GPUPINNED:
      return ::c10::Device(::c10::DeviceType::CPU);
    case phi::AllocationType::GPU:
      return ::c10::Device(::c10::DeviceType::CUDA, p.GetDeviceId());
    case phi::AllocationType::CUSTOM:
      return ::c10::Device(::c10::DeviceType::PrivateUse1, p.GetDeviceId());
    default:
      PD_THROW("paddle_on_torch: ", p.DebugString(), " has no torch device");
  }
}
}  // namespace paddle_on_torch

namespace paddle {

using Scalar = experimental::Scalar;
using IntArray = experimental::IntArray;

class AbstractAutogradMeta {
 public:
  virtual ~AbstractAutogradMeta() = default;
};

class Tensor final {
 public:
  /* Construction */
  Tensor() = default;
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  explicit Tensor(const Place& place) : impl_(std::make_shared<Impl>()) { impl_->place = place; }
  Tensor(const Place& place, const std::vector<int64_t>& shape) : impl_(std::make_shared<Impl>()) {
    impl_->place = place;
    impl_->dims = common::make_ddim(shape);
  }
  explicit Tensor(const std::string& name) : name_(name) {}
  // paddle_on_torch: a Tensor over an ATen tensor (sharing its storage)
  explicit Tensor(at::Tensor t) {
    if (t.defined()) {
      impl_ = std::make_shared<Impl>();
      impl_->set(std::move(t));
    }
  }

  /* Dimension, DataType and DataLayout */
  int64_t numel() const { return allocated() ? impl_->t.numel() : (impl_ ? common::product(impl_->dims) : 0); }
  int64_t size() const { return numel(); }
  const common::DDim& dims() const { return impl_ ? impl_->dims : EmptyDims(); }
  std::vector<int64_t> shape() const { return common::vectorize(dims()); }
  const common::DDim& strides() const { return impl_ ? impl_->strides : EmptyDims(); }
  // Paddle's reshape of a custom-op Tensor sets its dims (for a later mutable_data / copy_to); on an allocated
  // tensor with as many elements it is a view with the new dims
  void reshape(const std::vector<int64_t>& shape) {
    if (!impl_) impl_ = std::make_shared<Impl>();
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    if (allocated() && n == impl_->t.numel()) {
      impl_->set(impl_->t.reshape(shape));
    } else {
      if (allocated()) impl_->place = Place(paddle_on_torch::PlaceOf(impl_->t.device()));
      impl_->t = at::Tensor();
      impl_->dims = common::make_ddim(shape);
      impl_->strides = common::DDim();
    }
  }
  DataType dtype() const { return allocated() ? paddle_on_torch::FromScalarType(impl_->t.scalar_type()) : DataType::UNDEFINED; }
  DataType type() const { return dtype(); }
  phi::DataLayout layout() const { return phi::DataLayout::NCHW; }
  bool is_dense_tensor() const { return !allocated() || impl_->t.layout() == ::c10::kStrided; }
  bool is_dist_tensor() const { return false; }
  bool is_selected_rows() const { return false; }
  bool is_sparse_coo_tensor() const { return allocated() && impl_->t.layout() == ::c10::kSparse; }
  bool is_sparse_csr_tensor() const { return allocated() && impl_->t.layout() == ::c10::kSparseCsr; }
  bool is_string_tensor() const { return false; }

  /* Device */
  const Place& place() const { return impl_ ? impl_->place : EmptyPlace(); }
  bool is_cpu() const { return place().GetType() == phi::AllocationType::CPU; }
  bool is_gpu() const { return place().GetType() == phi::AllocationType::GPU; }
  bool is_gpu_pinned() const { return place().GetType() == phi::AllocationType::GPUPINNED; }
  bool is_xpu() const { return place().GetType() == phi::AllocationType::XPU; }
  bool is_xpu_pinned() const { return false; }
  bool is_custom_device() const { return place().GetType() == phi::AllocationType::CUSTOM; }
#if defined(PADDLE_WITH_CUDA)
  gpuStream_t stream() const {
    return ::c10::cuda::getCurrentCUDAStream(paddle_on_torch::DeviceOf(place()).index()).stream();
  }
#endif

  /* Data access */
  template <typename T>
  T* mutable_data() {
    return mutable_data<T>(place());
  }
  template <typename T>
  T* mutable_data(const Place& place) {
    const auto st = paddle_on_torch::ToScalarType(phi::CppTypeToDataType<T>::Type());
    PD_CHECK(impl_ != nullptr, "mutable_data: the tensor has no shape; call reshape(shape) first.");
    const auto device = paddle_on_torch::DeviceOf(place.GetType() == phi::AllocationType::UNDEFINED ? impl_->place : place);
    if (!allocated() || impl_->t.scalar_type() != st || impl_->t.device() != device) {
      impl_->set(at::empty(impl_->dims.vec(), at::TensorOptions().dtype(st).device(device)));
    }
    return impl_->t.template data_ptr<T>();
  }
  template <typename T>
  const T* data() const {
    return Checked().template const_data_ptr<T>();
  }
  template <typename T>
  T* data() {
    return Checked().template mutable_data_ptr<T>();
  }
  const void* data() const { return allocated() ? impl_->t.const_data_ptr() : nullptr; }
  void* data() { return allocated() ? impl_->t.mutable_data_ptr() : nullptr; }

  // rows [begin, end) of the first axis, sharing memory
  Tensor slice(int64_t begin_idx, int64_t end_idx) const { return Tensor(Checked().slice(0, begin_idx, end_idx)); }

  const std::string& name() const { return name_; }
  void set_name(const std::string& name) { name_ = name; }

  /* Data transform */
  template <typename T>
  Tensor copy_to(const Place& target_place) const {
    return copy_to(target_place, true);
  }
  Tensor copy_to(const Place& place, bool blocking) const {
    return Tensor(Checked().to(paddle_on_torch::DeviceOf(place), /*non_blocking=*/!blocking, /*copy=*/true));
  }
  void copy_(const Tensor& src, const Place& target_place, bool blocking) {
    at::Tensor copied = src.Checked().to(paddle_on_torch::DeviceOf(target_place), !blocking, true);
    if (allocated() && impl_->t.sizes() == copied.sizes() && impl_->t.scalar_type() == copied.scalar_type() &&
        impl_->t.device() == copied.device()) {
      impl_->t.copy_(copied);
    } else {
      if (!impl_) impl_ = std::make_shared<Impl>();
      impl_->set(std::move(copied));
    }
  }
  Tensor cast(DataType target_type) const { return Tensor(Checked().to(paddle_on_torch::ToScalarType(target_type))); }

  /* Status */
  bool defined() const { return impl_ != nullptr; }
  bool has_allocation() const { return allocated(); }
  bool initialized() const { return allocated(); }
  bool is_initialized() const { return allocated(); }
  void reset() {
    impl_.reset();
    autograd_meta_.reset();
  }

  /* Operators */
  Tensor& operator=(const Tensor& x) & = default;
  Tensor& operator=(Tensor&& x) & noexcept = default;
  Tensor operator+(const Tensor& other) const { return add(other); }
  Tensor operator-(const Tensor& other) const { return subtract(other); }
  Tensor operator*(const Tensor& other) const { return multiply(other); }
  Tensor operator/(const Tensor& other) const { return divide(other); }
  Tensor operator+(const Scalar& other) const { return add(other); }
  Tensor operator-(const Scalar& other) const { return subtract(other); }
  Tensor operator*(const Scalar& other) const { return multiply(other); }
  Tensor operator/(const Scalar& other) const { return divide(other); }
  Tensor operator<(const Tensor& other) const { return less_than(other); }
  Tensor operator<=(const Tensor& other) const { return less_equal(other); }
  Tensor operator==(const Tensor& other) const { return equal(other); }
  Tensor operator!=(const Tensor& other) const { return not_equal(other); }
  Tensor operator>(const Tensor& other) const { return greater_than(other); }
  Tensor operator>=(const Tensor& other) const { return greater_equal(other); }
  Tensor operator-() const { return Tensor(Checked().neg()); }
  Tensor operator~() const { return bitwise_not(); }
  Tensor operator&(const Tensor& other) const { return bitwise_and(other); }
  Tensor operator|(const Tensor& other) const { return bitwise_or(other); }
  Tensor operator^(const Tensor& other) const { return bitwise_xor(other); }

  /* Autograd: a kernel runs below torch's autograd, its tensors carry none */
  AbstractAutogradMeta* get_autograd_meta() const { return autograd_meta_.get(); }
  const std::shared_ptr<AbstractAutogradMeta>& mutable_autograd_meta() const { return autograd_meta_; }
  void set_autograd_meta(std::shared_ptr<AbstractAutogradMeta> meta) { autograd_meta_ = std::move(meta); }

  /* In-place version counter (torch's) */
  void bump_inplace_version() { Checked().unsafeGetTensorImpl()->bump_version(); }
  uint32_t current_inplace_version() { return static_cast<uint32_t>(Checked()._version()); }
  void reset_inplace_version(bool set_to_zero = false) {
    PD_CHECK(!set_to_zero || !allocated() || impl_->t._version() == 0,
             "paddle_on_torch: a torch tensor's version counter cannot be reset");
  }

  /* Contiguity */
  bool is_contiguous() const { return !allocated() || impl_->t.is_contiguous(); }
  Tensor contiguous() const { return Tensor(Checked().contiguous()); }

  /* Sparse conversions */
  Tensor to_sparse_coo(const int64_t sparse_dim) const { return Tensor(Checked().to_sparse(sparse_dim)); }
  Tensor to_sparse_csr() const { return Tensor(Checked().to_sparse_csr()); }
  Tensor to_dense() const { return Tensor(Checked().to_dense()); }

  /* Math methods (Paddle's generated Tensor methods) */
  Tensor add(const Tensor& y) const { return Tensor(Checked().add(y.Checked())); }
  Tensor divide(const Tensor& y) const { return Tensor(Checked().div(y.Checked())); }
  Tensor multiply(const Tensor& y) const { return Tensor(Checked().mul(y.Checked())); }
  Tensor subtract(const Tensor& y) const { return Tensor(Checked().sub(y.Checked())); }
  Tensor add(const Scalar& y) const { return Tensor(KeepDtype(Checked().add(y.aten()))); }
  Tensor divide(const Scalar& y) const { return Tensor(KeepDtype(Checked().div(y.aten()))); }
  Tensor multiply(const Scalar& y) const { return Tensor(KeepDtype(Checked().mul(y.aten()))); }
  Tensor subtract(const Scalar& y) const { return Tensor(KeepDtype(Checked().sub(y.aten()))); }
  Tensor less_equal(const Tensor& y) const { return Tensor(Checked().le(y.Checked())); }
  Tensor less_than(const Tensor& y) const { return Tensor(Checked().lt(y.Checked())); }
  Tensor equal(const Tensor& y) const { return Tensor(Checked().eq(y.Checked())); }
  Tensor not_equal(const Tensor& y) const { return Tensor(Checked().ne(y.Checked())); }
  Tensor greater_equal(const Tensor& y) const { return Tensor(Checked().ge(y.Checked())); }
  Tensor greater_than(const Tensor& y) const { return Tensor(Checked().gt(y.Checked())); }
  Tensor bitwise_and(const Tensor& y) const { return Tensor(Checked().bitwise_and(y.Checked())); }
  Tensor bitwise_or(const Tensor& y) const { return Tensor(Checked().bitwise_or(y.Checked())); }
  Tensor bitwise_xor(const Tensor& y) const { return Tensor(Checked().bitwise_xor(y.Checked())); }
  Tensor bitwise_not() const { return Tensor(Checked().bitwise_not()); }
  Tensor pow(const Tensor& y) const { return Tensor(Checked().pow(y.Checked())); }
  Tensor pow(const Scalar& y) const { return Tensor(KeepDtype(Checked().pow(y.aten()))); }
  Tensor exp() const { return Tensor(Checked().exp()); }
  Tensor floor() const { return Tensor(Checked().floor()); }
  Tensor gather_nd(const Tensor& index) const;
  Tensor log() const { return Tensor(Checked().log()); }
  Tensor roll(const IntArray& shifts = {}, const std::vector<int64_t>& axis = {}) const {
    return Tensor(Checked().roll(shifts.GetData(), axis));
  }
  Tensor scatter(const Tensor& index, const Tensor& updates, bool overwrite = true) const;
  Tensor scatter_nd_add(const Tensor& index, const Tensor& updates) const;
  Tensor abs() const { return Tensor(Checked().abs()); }
  Tensor assign() const { return Tensor(Checked().clone()); }
  Tensor elementwise_pow(const Tensor& y) const { return pow(y); }
  Tensor expand(const IntArray& shape) const;
  Tensor matmul(const Tensor& y, bool transpose_x = false, bool transpose_y = false) const;
  Tensor max(const IntArray& axis = {}, bool keepdim = false) const;
  Tensor maximum(const Tensor& y) const { return Tensor(Checked().maximum(y.Checked())); }
  Tensor minimum(const Tensor& y) const { return Tensor(Checked().minimum(y.Checked())); }
  Tensor scale(const Scalar& scale = 1.0, const Scalar& bias = 0.0, bool bias_after_scale = true) const;
  Tensor sum(const IntArray& axis = {}, DataType dtype = DataType::UNDEFINED, bool keepdim = false) const;
  Tensor tile(const IntArray& repeat_times = {}) const { return Tensor(Checked().tile(repeat_times.GetData())); }

  // paddle_on_torch: the ATen tensor behind this Tensor (undefined while unallocated)
  const at::Tensor& aten() const {
    static const at::Tensor undefined;
    return allocated() ? impl_->t : undefined;
  }

 private:
  struct Impl {
    at::Tensor t;
    common::DDim dims;
    common::DDim strides;
    Place place;
    void set(at::Tensor v) {
      t = std::move(v);
      dims = common::make_ddim(t.sizes().vec());
      strides = common::make_ddim(t.strides().vec());
      place = paddle_on_torch::PlaceOf(t.device(), t.device().is_cpu() && t.is_pinned());
    }
  };

  bool allocated() const { return impl_ && impl_->t.defined(); }
  const at::Tensor& Checked() const {
    PD_CHECK(allocated(), "The tensor is not initialized (it holds no memory); allocate it with paddle::empty / "
                          "paddle::full or mutable_data<T>() first.");
    return impl_->t;
  }
  // Paddle's Tensor-Scalar arithmetic keeps the tensor's dtype
  at::Tensor KeepDtype(at::Tensor r) const {
    return r.scalar_type() == impl_->t.scalar_type() ? r : r.to(impl_->t.scalar_type());
  }
  static const common::DDim& EmptyDims() {
    static const common::DDim d;
    return d;
  }
  static const Place& EmptyPlace() {
    static const Place p;
    return p;
  }

  std::shared_ptr<Impl> impl_;
  std::shared_ptr<AbstractAutogradMeta> autograd_meta_;
  std::string name_;
};

inline Tensor operator+(const Scalar& x, const Tensor& y) { return y + x; }
inline Tensor operator-(const Scalar& x, const Tensor& y) { return -y + x; }
inline Tensor operator*(const Scalar& x, const Tensor& y) { return y * x; }
inline Tensor operator/(const Scalar& x, const Tensor& y) {
  return Tensor(at::Tensor(y.aten().reciprocal().mul(x.aten())).to(y.aten().scalar_type()));
}

namespace experimental {
using Tensor = paddle::Tensor;

inline Scalar::Scalar(const Tensor& t) : Scalar(0.0) {
  PD_CHECK(t.numel() == 1, "The Scalar only supports Tensor with 1 element, but now Tensor has ", t.numel(),
           " elements.");
  value_ = t.aten().item();
  dtype_ = t.dtype();
  from_tensor_ = true;
}

inline IntArray::IntArray(const Tensor& t) : from_tensor_(true) {
  at::Tensor v = t.aten().to(::c10::kCPU).to(::c10::kLong).contiguous();
  data_.assign(v.const_data_ptr<int64_t>(), v.const_data_ptr<int64_t>() + v.numel());
}

inline IntArray::IntArray(const std::vector<Tensor>& ts) : from_tensor_(true) {
  for (const auto& t : ts) data_.push_back(t.aten().item().toLong());
}
}  // namespace experimental

inline GPUPlace DefaultGPUPlace() { return GPUPlace(0); }
inline phi::CustomPlace DefaultCustomPlace() { return phi::CustomPlace(::c10::get_privateuse1_backend(), 0); }
}  // namespace paddle
