// A PrivateUse1 device whose memory is host memory: the smallest backend torch's open registration allows that
// trains real models.  Allocation, copies and the view ops are its own (views must alias device memory); every
// other operator runs through torch's boxed CPU fallback (arguments copied to the CPU, the CPU kernel, results and
// mutated arguments copied back), so results equal the CPU's bit for bit.  The device guard, hooks and Python
// module are registered from Python (tests/custom_device/__init__.py).
#include <ATen/ATen.h>
#include <ATen/EmptyTensor.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/resize_native.h>
#include <ATen/ops/unfold_native.h>
#include <ATen/ops/view_as_complex_native.h>
#include <ATen/ops/view_as_real_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/alloc_cpu.h>
#include <torch/library.h>

#include <atomic>

namespace {

std::atomic<int64_t> live_bytes{0};

void host_free(void* ctx) {
  auto* header = static_cast<int64_t*>(ctx);
  live_bytes -= *header;
  c10::free_cpu(header);
}

// Host memory tagged as device 0 of PrivateUse1; a small header keeps the size for the memory statistics.
struct HostAllocator final : c10::Allocator {
  static constexpr size_t kHeader = 64;  // keeps the data 64-byte aligned
  c10::DataPtr allocate(size_t nbytes) override {
    auto* header = static_cast<int64_t*>(c10::alloc_cpu(nbytes + kHeader));
    *header = static_cast<int64_t>(nbytes);
    live_bytes += *header;
    void* data = reinterpret_cast<char*>(header) + kHeader;
    return {data, header, &host_free, c10::Device(c10::DeviceType::PrivateUse1, 0)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }  // data and context differ
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
};

HostAllocator host_allocator;

constexpr c10::DispatchKeySet device_keys(c10::DispatchKey::PrivateUse1);

at::Tensor empty_memory_format(at::IntArrayRef size, std::optional<at::ScalarType> dtype,
                               std::optional<at::Layout>, std::optional<at::Device>, std::optional<bool>,
                               std::optional<at::MemoryFormat> memory_format) {
  return at::detail::empty_generic(size, &host_allocator, device_keys, c10::dtype_or_default(dtype), memory_format);
}

at::Tensor empty_strided(at::IntArrayRef size, at::IntArrayRef stride, std::optional<at::ScalarType> dtype,
                         std::optional<at::Layout>, std::optional<at::Device>, std::optional<bool>) {
  return at::detail::empty_strided_generic(size, stride, &host_allocator, device_keys, c10::dtype_or_default(dtype));
}

// A CPU tensor over the same host memory (no copy, no ownership: the device tensor outlives it here).
at::Tensor host_alias(const at::Tensor& t) {
  if (!t.is_privateuseone()) return t;
  auto nbytes = at::detail::computeStorageNbytes(t.sizes(), t.strides(), t.element_size(), t.storage_offset());
  c10::DataPtr ptr(t.storage().mutable_data(), c10::Device(c10::DeviceType::CPU));
  c10::Storage storage(c10::Storage::use_byte_size_t(), nbytes, std::move(ptr), nullptr, false);
  return at::empty({0}, t.options().device(c10::kCPU)).set_(storage, t.storage_offset(), t.sizes(), t.strides());
}

at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool) {
  TORCH_CHECK(self.device().type() == c10::kCPU || self.is_privateuseone(), "copy from ", self.device(), " to ",
              dst.device(), ": this host-memory device copies to and from the CPU only");
  TORCH_CHECK(dst.device().type() == c10::kCPU || dst.is_privateuseone(), "copy from ", self.device(), " to ",
              dst.device(), ": this host-memory device copies to and from the CPU only");
  host_alias(dst).copy_(host_alias(self));
  return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  at::native::resize_(dst, self.sizes());
  return copy_from(self, dst, false);
}

std::optional<at::Tensor> host_alias(const std::optional<at::Tensor>& t) {
  return t.has_value() && t->defined() ? std::optional<at::Tensor>(host_alias(*t)) : t;
}

// native_batch_norm updates running_mean / running_var in place, but its schema does not say so: the CPU
// fallback would update its CPU copies only.  Run the CPU kernel on aliases of the device memory instead.
std::tuple<at::Tensor, at::Tensor, at::Tensor> native_batch_norm(
    const at::Tensor& input, const std::optional<at::Tensor>& weight, const std::optional<at::Tensor>& bias,
    const std::optional<at::Tensor>& running_mean, const std::optional<at::Tensor>& running_var, bool training,
    double momentum, double eps) {
  auto [out, mean, invstd] = at::native_batch_norm(host_alias(input), host_alias(weight), host_alias(bias),
                                                   host_alias(running_mean), host_alias(running_var), training,
                                                   momentum, eps);
  return {out.to(input.device()), mean.to(input.device()), invstd.to(input.device())};
}

void fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  at::native::cpu_fallback(op, stack, /*error_on_views=*/true);
}

int64_t memory_allocated() { return live_bytes.load(); }

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", empty_memory_format);
  m.impl("empty_strided", empty_strided);
  m.impl("_copy_from", copy_from);
  m.impl("_copy_from_and_resize", copy_from_and_resize);
  m.impl("resize_", at::native::resize_);
  m.impl("as_strided", at::native::as_strided_tensorimpl);
  m.impl("view", at::native::view);
  m.impl("_reshape_alias", at::native::_reshape_alias);
  m.impl("unfold", at::native::unfold);
  m.impl("view_as_real", at::native::view_as_real);
  m.impl("view_as_complex", at::native::view_as_complex);
  m.impl("native_batch_norm", native_batch_norm);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&fallback>());
}

TORCH_LIBRARY(host_device, m) {
  m.def("memory_allocated() -> int", &memory_allocated);
}
