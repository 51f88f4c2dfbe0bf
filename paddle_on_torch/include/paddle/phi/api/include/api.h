// paddle_on_torch: the part of Paddle's C++ operator API (paddle::experimental::*, also reachable as paddle::*)
// that custom operators use, computed by ATen.  A Paddle API function missing here is a compile error, which
// paddle.utils.cpp_extension reports as NotImplementedError naming the function.
#pragma once

#include <ATen/ops/cat.h>
#include <ATen/ops/elu.h>
#include <ATen/ops/embedding.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/full.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/hardswish.h>
#include <ATen/ops/imag.h>
#include <ATen/ops/leaky_relu.h>
#include <ATen/ops/one_hot.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/real.h>
#include <ATen/ops/relu6.h>
#include <ATen/ops/silu.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>

#include <ATen/TensorIndexing.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "paddle/phi/api/include/tensor.h"

namespace paddle_on_torch {
inline at::TensorOptions Options(phi::DataType dtype, const phi::Place& place) {
  return at::TensorOptions().dtype(ToScalarType(dtype)).device(DeviceOf(place));
}
// empty_like & co: an UNDEFINED dtype / place means "as x"
inline at::TensorOptions OptionsLike(const paddle::Tensor& x, phi::DataType dtype, const phi::Place& place) {
  auto st = dtype == phi::DataType::UNDEFINED ? x.aten().scalar_type() : ToScalarType(dtype);
  auto dev = place.GetType() == phi::AllocationType::UNDEFINED ? x.aten().device() : DeviceOf(place);
  return at::TensorOptions().dtype(st).device(dev);
}
inline std::vector<at::Tensor> Atens(const std::vector<paddle::Tensor>& xs) {
  std::vector<at::Tensor> r;
  r.reserve(xs.size());
  for (const auto& x : xs) r.push_back(x.aten());
  return r;
}
inline std::vector<paddle::Tensor> Wrap(const std::vector<at::Tensor>& ts) {
  return std::vector<paddle::Tensor>(ts.begin(), ts.end());
}
inline int64_t Axis(const paddle::experimental::Scalar& axis) { return axis.to<int64_t>(); }
}  // namespace paddle_on_torch

namespace paddle {
namespace experimental {

// ---------------------------------------------------------------- creation
inline Tensor empty(const IntArray& shape, DataType dtype = DataType::FLOAT32, const Place& place = CPUPlace()) {
  return Tensor(at::empty(shape.GetData(), paddle_on_torch::Options(dtype, place)));
}
inline Tensor empty_like(const Tensor& x, DataType dtype = DataType::UNDEFINED, const Place& place = {}) {
  return Tensor(at::empty(x.shape(), paddle_on_torch::OptionsLike(x, dtype, place)));
}
inline Tensor full(const IntArray& shape, const Scalar& value, DataType dtype = DataType::FLOAT32,
                   const Place& place = CPUPlace()) {
  return Tensor(at::full(shape.GetData(), value.aten(), paddle_on_torch::Options(dtype, place)));
}
inline Tensor full_like(const Tensor& x, const Scalar& value, DataType dtype = DataType::UNDEFINED,
                        const Place& place = {}) {
  return Tensor(at::full(x.shape(), value.aten(), paddle_on_torch::OptionsLike(x, dtype, place)));
}
inline Tensor zeros(const IntArray& shape, DataType dtype = DataType::FLOAT32, const Place& place = CPUPlace()) {
  return Tensor(at::zeros(shape.GetData(), paddle_on_torch::Options(dtype, place)));
}
inline Tensor zeros_like(const Tensor& x, DataType dtype = DataType::UNDEFINED, const Place& place = {}) {
  return Tensor(at::zeros(x.shape(), paddle_on_torch::OptionsLike(x, dtype, place)));
}
inline Tensor ones(const IntArray& shape, DataType dtype = DataType::FLOAT32, const Place& place = CPUPlace()) {
  return Tensor(at::ones(shape.GetData(), paddle_on_torch::Options(dtype, place)));
}
inline Tensor ones_like(const Tensor& x, DataType dtype = DataType::UNDEFINED, const Place& place = {}) {
  return Tensor(at::ones(x.shape(), paddle_on_torch::OptionsLike(x, dtype, place)));
}
inline Tensor fill(const Tensor& x, const Scalar& value = 0) {
  return Tensor(at::full(x.shape(), value.aten(), x.aten().options()));
}
inline Tensor& fill_(Tensor& x, const Scalar& value = 0) {  // NOLINT
  x.aten().fill_(value.aten());
  return x;
}
inline Tensor assign(const Tensor& x) { return Tensor(x.aten().clone()); }
inline Tensor copy_to(const Tensor& x, const Place& place, bool blocking) { return x.copy_to(place, blocking); }
inline Tensor cast(const Tensor& x, DataType dtype) { return x.cast(dtype); }

// ---------------------------------------------------------------- elementwise, one input
#define POT_UNARY(NAME, EXPR)                      \
  inline Tensor NAME(const Tensor& x) {            \
    const at::Tensor& t = x.aten();                \
    return Tensor(EXPR);                           \
  }
POT_UNARY(abs, t.abs())
POT_UNARY(acos, t.acos())
POT_UNARY(acosh, t.acosh())
POT_UNARY(asin, t.asin())
POT_UNARY(asinh, t.asinh())
POT_UNARY(atan, t.atan())
POT_UNARY(atanh, t.atanh())
POT_UNARY(ceil, t.ceil())
POT_UNARY(conj, t.conj().resolve_conj())
POT_UNARY(cos, t.cos())
POT_UNARY(cosh, t.cosh())
POT_UNARY(digamma, t.digamma())
POT_UNARY(erf, t.erf())
POT_UNARY(erfinv, t.erfinv())
POT_UNARY(exp, t.exp())
POT_UNARY(expm1, t.expm1())
POT_UNARY(floor, t.floor())
POT_UNARY(imag, at::Tensor(t.is_complex() ? at::imag(t) : t.new_zeros(t.sizes())).clone())
POT_UNARY(isfinite, t.isfinite())
POT_UNARY(isinf, t.isinf())
POT_UNARY(isnan, t.isnan())
POT_UNARY(lgamma, t.lgamma())
POT_UNARY(log, t.log())
POT_UNARY(log10, t.log10())
POT_UNARY(log1p, t.log1p())
POT_UNARY(log2, t.log2())
POT_UNARY(logical_not, t.logical_not())
POT_UNARY(bitwise_not, t.bitwise_not())
POT_UNARY(real, at::Tensor(t.is_complex() ? at::real(t) : t).clone())
POT_UNARY(reciprocal, t.reciprocal())
POT_UNARY(relu, t.relu())
POT_UNARY(relu6, at::relu6(t))
POT_UNARY(rsqrt, t.rsqrt())
POT_UNARY(sigmoid, t.sigmoid())
POT_UNARY(sign, t.sign())
POT_UNARY(silu, at::silu(t))
POT_UNARY(sin, t.sin())
POT_UNARY(sinh, t.sinh())
POT_UNARY(sqrt, t.sqrt())
POT_UNARY(square, t.square())
POT_UNARY(tan, t.tan())
POT_UNARY(tanh, t.tanh())
POT_UNARY(hardswish, at::hardswish(t))
#undef POT_UNARY
inline Tensor swish(const Tensor& x) { return silu(x); }
inline Tensor round(const Tensor& x, int decimals = 0) { return Tensor(x.aten().round(decimals)); }
inline Tensor gelu(const Tensor& x, bool approximate = false) {
  return Tensor(at::gelu(x.aten(), approximate ? "tanh" : "none"));
}
inline Tensor elu(const Tensor& x, float alpha = 1.0f) { return Tensor(at::elu(x.aten(), alpha)); }
inline Tensor leaky_relu(const Tensor& x, double negative_slope = 0.02) {
  return Tensor(at::leaky_relu(x.aten(), negative_slope));
}
inline Tensor logit(const Tensor& x, double eps = 1e-6) { return Tensor(x.aten().logit(eps)); }
inline Tensor pow(const Tensor& x, const Scalar& y = 1.0f) { return x.pow(y); }
inline Tensor scale(const Tensor& x, const Scalar& scale = 1.0, const Scalar& bias = 0.0,
                    bool bias_after_scale = true) {
  return x.scale(scale, bias, bias_after_scale);
}
inline Tensor clip(const Tensor& x, const Scalar& min, const Scalar& max) {
  return Tensor(x.aten().clamp(min.aten(), max.aten()));
}
inline Tensor increment(const Tensor& x, float value = 1.0) { return x + value; }

// ---------------------------------------------------------------- elementwise, two inputs
#define POT_BINARY(NAME, EXPR)                                \
  inline Tensor NAME(const Tensor& x, const Tensor& y) {      \
    const at::Tensor &a = x.aten(), &b = y.aten();            \
    return Tensor(EXPR);                                      \
  }
POT_BINARY(add, a.add(b))
POT_BINARY(subtract, a.sub(b))
POT_BINARY(multiply, a.mul(b))
POT_BINARY(divide, a.div(b))
POT_BINARY(maximum, a.maximum(b))
POT_BINARY(minimum, a.minimum(b))
POT_BINARY(fmax, a.fmax(b))
POT_BINARY(fmin, a.fmin(b))
POT_BINARY(atan2, a.atan2(b))
POT_BINARY(remainder, a.remainder(b))
POT_BINARY(floor_divide, a.div(b, "floor"))
POT_BINARY(elementwise_pow, a.pow(b))
POT_BINARY(equal, a.eq(b))
POT_BINARY(not_equal, a.ne(b))
POT_BINARY(less_than, a.lt(b))
POT_BINARY(less_equal, a.le(b))
POT_BINARY(greater_than, a.gt(b))
POT_BINARY(greater_equal, a.ge(b))
POT_BINARY(logical_and, a.logical_and(b))
POT_BINARY(logical_or, a.logical_or(b))
POT_BINARY(logical_xor, a.logical_xor(b))
POT_BINARY(bitwise_and, a.bitwise_and(b))
POT_BINARY(bitwise_or, a.bitwise_or(b))
POT_BINARY(bitwise_xor, a.bitwise_xor(b))
POT_BINARY(dot, a.dot(b))
POT_BINARY(mv, a.mv(b))
POT_BINARY(kron, a.kron(b))
POT_BINARY(masked_select, a.masked_select(b))
#undef POT_BINARY
inline Tensor equal_all(const Tensor& x, const Tensor& y) {
  return Tensor(at::full({}, x.aten().equal(y.aten()), x.aten().options().dtype(::c10::kBool)));
}
inline Tensor isclose(const Tensor& x, const Tensor& y, const Scalar& rtol = 1e-5, const Scalar& atol = 1e-8,
                      bool equal_nan = false) {
  return Tensor(x.aten().isclose(y.aten(), rtol.to<double>(), atol.to<double>(), equal_nan));
}
inline Tensor allclose(const Tensor& x, const Tensor& y, const Scalar& rtol = 1e-5, const Scalar& atol = 1e-8,
                       bool equal_nan = false) {
  bool r = x.aten().allclose(y.aten(), rtol.to<double>(), atol.to<double>(), equal_nan);
  return Tensor(at::full({}, r, x.aten().options().dtype(::c10::kBool)));
}
inline Tensor lerp(const Tensor& x, const Tensor& y, const Tensor& weight) {
  return Tensor(x.aten().lerp(y.aten(), weight.aten()));
}
inline Tensor where(const Tensor& condition, const Tensor& x, const Tensor& y) {
  return Tensor(x.aten().where(condition.aten().to(::c10::kBool), y.aten()));
}
inline Tensor matmul(const Tensor& x, const Tensor& y, bool transpose_x = false, bool transpose_y = false) {
  return x.matmul(y, transpose_x, transpose_y);
}
inline Tensor addmm(const Tensor& input, const Tensor& x, const Tensor& y, float beta = 1.0, float alpha = 1.0) {
  return Tensor(input.aten().addmm(x.aten(), y.aten(), beta, alpha));
}

// ---------------------------------------------------------------- reductions
namespace detail {
inline std::vector<int64_t> Axes(const IntArray& axis, int64_t ndim) {
  if (axis.size() == 0) {
    std::vector<int64_t> all(ndim);
    for (int64_t i = 0; i < ndim; ++i) all[i] = i;
    return all;
  }
  return axis.GetData();
}
}  // namespace detail
inline Tensor sum(const Tensor& x, const IntArray& axis = {}, DataType dtype = DataType::UNDEFINED,
                  bool keepdim = false) {
  return x.sum(axis, dtype, keepdim);
}
inline Tensor mean(const Tensor& x, const IntArray& axis = {}, bool keepdim = false) {
  return Tensor(x.aten().mean(detail::Axes(axis, x.aten().dim()), keepdim));
}
inline Tensor max(const Tensor& x, const IntArray& axis = {}, bool keepdim = false) { return x.max(axis, keepdim); }
inline Tensor min(const Tensor& x, const IntArray& axis = {}, bool keepdim = false) {
  return Tensor(x.aten().amin(detail::Axes(axis, x.aten().dim()), keepdim));
}
inline Tensor amax(const Tensor& x, const std::vector<int64_t>& axis = {}, bool keepdim = false) {
  return max(x, axis, keepdim);
}
inline Tensor amin(const Tensor& x, const std::vector<int64_t>& axis = {}, bool keepdim = false) {
  return min(x, axis, keepdim);
}
inline Tensor prod(const Tensor& x, const IntArray& axis, bool keepdim, bool reduce_all) {
  at::Tensor r = x.aten();
  auto axes = reduce_all ? detail::Axes({}, r.dim()) : detail::Axes(axis, r.dim());
  std::sort(axes.begin(), axes.end(), [&](int64_t a, int64_t b) { return (a < 0 ? a + r.dim() : a) > (b < 0 ? b + r.dim() : b); });
  for (int64_t a : axes) r = r.prod(a, keepdim);
  return Tensor(r);
}
inline Tensor logsumexp(const Tensor& x, const std::vector<int>& axis = {}, bool keepdim = false,
                        bool reduce_all = false) {
  std::vector<int64_t> axes(axis.begin(), axis.end());
  return Tensor(x.aten().logsumexp(reduce_all ? detail::Axes({}, x.aten().dim()) : detail::Axes(axes, x.aten().dim()),
                                   keepdim));
}
inline Tensor argmax(const Tensor& x, const Scalar& axis, bool keepdims = false, bool flatten = false,
                     DataType dtype = DataType::INT64) {
  at::Tensor r = flatten ? x.aten().reshape({-1}).argmax(0, false) : x.aten().argmax(axis.to<int64_t>(), keepdims);
  return Tensor(r.to(paddle_on_torch::ToScalarType(dtype)));
}
inline Tensor argmin(const Tensor& x, const Scalar& axis, bool keepdims = false, bool flatten = false,
                     DataType dtype = DataType::INT64) {
  at::Tensor r = flatten ? x.aten().reshape({-1}).argmin(0, false) : x.aten().argmin(axis.to<int64_t>(), keepdims);
  return Tensor(r.to(paddle_on_torch::ToScalarType(dtype)));
}
inline Tensor cumsum(const Tensor& x, const Scalar& axis = -1, bool flatten = false, bool exclusive = false,
                     bool reverse = false) {
  at::Tensor t = flatten ? x.aten().reshape({-1}) : x.aten();
  int64_t a = flatten ? 0 : axis.to<int64_t>();
  if (reverse) t = t.flip(a);
  at::Tensor r = t.cumsum(a);
  if (exclusive) r = r.sub(t);
  if (reverse) r = r.flip(a);
  return Tensor(r);
}
inline Tensor softmax(const Tensor& x, int axis) { return Tensor(x.aten().softmax(axis)); }
inline Tensor log_softmax(const Tensor& x, int axis = -1) { return Tensor(x.aten().log_softmax(axis)); }
inline std::tuple<Tensor, Tensor> topk(const Tensor& x, const Scalar& k = 1, int axis = -1, bool largest = true,
                                       bool sorted = true) {
  auto r = x.aten().topk(k.to<int64_t>(), axis, largest, sorted);
  return {Tensor(std::get<0>(r)), Tensor(std::get<1>(r))};
}
inline std::tuple<Tensor, Tensor> argsort(const Tensor& x, int axis = -1, bool descending = false,
                                          bool stable = false) {
  auto r = x.aten().sort(stable, axis, descending);
  return {Tensor(std::get<1>(r)), Tensor(std::get<0>(r))};
}

// ---------------------------------------------------------------- shapes and indexing
inline Tensor reshape(const Tensor& x, const IntArray& shape) {
  // Paddle's 0 keeps the input's size on that axis
  std::vector<int64_t> s = shape.GetData();
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == 0 && static_cast<int64_t>(i) < x.aten().dim()) s[i] = x.aten().size(i);
  return Tensor(x.aten().reshape(s));
}
inline Tensor transpose(const Tensor& x, const std::vector<int>& perm) {
  return Tensor(x.aten().permute(std::vector<int64_t>(perm.begin(), perm.end())).contiguous());
}
inline Tensor concat(const std::vector<Tensor>& x, const Scalar& axis = 0) {
  return Tensor(at::cat(paddle_on_torch::Atens(x), paddle_on_torch::Axis(axis)));
}
inline Tensor stack(const std::vector<Tensor>& x, int axis = 0) {
  return Tensor(at::stack(paddle_on_torch::Atens(x), axis));
}
inline std::vector<Tensor> split(const Tensor& x, const IntArray& sections, const Scalar& axis) {
  int64_t a = paddle_on_torch::Axis(axis);
  std::vector<int64_t> s = sections.GetData();
  int64_t known = 0, unknown = -1;
  for (size_t i = 0; i < s.size(); ++i) (s[i] < 0 ? unknown = static_cast<int64_t>(i) : known += s[i]);
  if (unknown >= 0) s[unknown] = x.aten().size(a) - known;
  return paddle_on_torch::Wrap(x.aten().split_with_sizes(s, a));
}
inline std::vector<Tensor> split_with_num(const Tensor& x, int num, const Scalar& axis) {
  int64_t a = paddle_on_torch::Axis(axis);
  PD_CHECK(x.aten().size(a) % num == 0, "split_with_num: the size of axis ", a, " (", x.aten().size(a),
           ") is not divisible by num (", num, ")");
  return paddle_on_torch::Wrap(x.aten().split(x.aten().size(a) / num, a));
}
inline std::vector<Tensor> unbind(const Tensor& input, int axis = 0) {
  return paddle_on_torch::Wrap(input.aten().unbind(axis));
}
inline Tensor squeeze(const Tensor& x, const IntArray& axis = {}) {
  if (axis.size() == 0) return Tensor(x.aten().squeeze());
  return Tensor(x.aten().squeeze(axis.GetData()));
}
inline Tensor unsqueeze(const Tensor& x, const IntArray& axis = {}) {
  at::Tensor r = x.aten();
  for (int64_t a : axis.GetData()) r = r.unsqueeze(a < 0 ? a + r.dim() + 1 : a);
  return Tensor(r);
}
inline Tensor expand(const Tensor& x, const IntArray& shape = {}) { return x.expand(shape); }
inline Tensor expand_as(const Tensor& x, const paddle::optional<Tensor>& y,
                        const std::vector<int64_t>& target_shape = {}) {
  return Tensor(x.aten().expand(y ? y->shape() : target_shape).contiguous());
}
inline Tensor tile(const Tensor& x, const IntArray& repeat_times = {}) { return x.tile(repeat_times); }
inline Tensor flatten(const Tensor& x, int start_axis = 1, int stop_axis = 1) {
  return Tensor(x.aten().flatten(start_axis, stop_axis));
}
inline Tensor flip(const Tensor& x, const std::vector<int>& axis) {
  return Tensor(x.aten().flip(std::vector<int64_t>(axis.begin(), axis.end())));
}
inline Tensor roll(const Tensor& x, const IntArray& shifts = {}, const std::vector<int64_t>& axis = {}) {
  return x.roll(shifts, axis);
}
inline Tensor tril(const Tensor& x, int diagonal = 0) { return Tensor(x.aten().tril(diagonal)); }
inline Tensor triu(const Tensor& x, int diagonal = 0) { return Tensor(x.aten().triu(diagonal)); }
inline Tensor trace(const Tensor& x, int offset = 0, int axis1 = 0, int axis2 = 1) {
  return Tensor(x.aten().diagonal(offset, axis1, axis2).sum(-1));
}
inline Tensor diagonal(const Tensor& x, int offset = 0, int axis1 = 0, int axis2 = 1) {
  return Tensor(x.aten().diagonal(offset, axis1, axis2).contiguous());
}
inline Tensor gather(const Tensor& x, const Tensor& index, const Scalar& axis = 0) {
  return Tensor(x.aten().index_select(paddle_on_torch::Axis(axis), index.aten().reshape({-1})));
}
inline Tensor index_select(const Tensor& x, const Tensor& index, int axis = 0) {
  return Tensor(x.aten().index_select(axis, index.aten()));
}
inline Tensor gather_nd(const Tensor& x, const Tensor& index) { return x.gather_nd(index); }
inline Tensor scatter(const Tensor& x, const Tensor& index, const Tensor& updates, bool overwrite = true) {
  return x.scatter(index, updates, overwrite);
}
inline Tensor scatter_nd_add(const Tensor& x, const Tensor& index, const Tensor& updates) {
  return x.scatter_nd_add(index, updates);
}
inline Tensor one_hot(const Tensor& x, const Scalar& num_classes) {
  return Tensor(at::one_hot(x.aten().to(::c10::kLong), num_classes.to<int64_t>()).to(::c10::kFloat));
}
inline Tensor embedding(const Tensor& x, const Tensor& weight, int64_t padding_idx = -1, bool sparse = false) {
  return Tensor(at::embedding(weight.aten(), x.aten(), padding_idx));
}
inline Tensor repeat_interleave(const Tensor& x, int repeats, int axis, int64_t output_size = -1) {
  return Tensor(x.aten().repeat_interleave(repeats, axis));
}
inline Tensor slice(const Tensor& input, const std::vector<int64_t>& axes, const IntArray& starts,
                    const IntArray& ends, const std::vector<int64_t>& infer_flags,
                    const std::vector<int64_t>& decrease_axis) {
  at::Tensor r = input.aten();
  for (size_t i = 0; i < axes.size(); ++i) r = r.slice(axes[i], starts.GetData()[i], ends.GetData()[i]);
  std::vector<int64_t> dec(decrease_axis);
  std::sort(dec.rbegin(), dec.rend());
  for (int64_t a : dec) r = r.squeeze(a);
  return Tensor(r.contiguous());
}
}  // namespace experimental

// ---------------------------------------------------------------- Tensor methods that call the functions above
inline Tensor Tensor::gather_nd(const Tensor& index) const {
  const at::Tensor& x = Checked();
  at::Tensor idx = index.aten().to(::c10::kLong);
  int64_t k = idx.size(-1);
  std::vector<int64_t> batch(idx.sizes().begin(), idx.sizes().end() - 1);
  at::Tensor flat_idx = idx.reshape({-1, k});
  std::vector<at::indexing::TensorIndex> parts;
  for (int64_t j = 0; j < k; ++j) parts.emplace_back(flat_idx.select(1, j));
  at::Tensor g = x.index(parts);
  std::vector<int64_t> out = batch;
  for (int64_t d = k; d < x.dim(); ++d) out.push_back(x.size(d));
  return Tensor(g.reshape(out));
}
inline Tensor Tensor::scatter(const Tensor& index, const Tensor& updates, bool overwrite) const {
  at::Tensor idx = index.aten().reshape({-1}).to(::c10::kLong);
  at::Tensor x = Checked().clone();
  if (overwrite) return Tensor(x.index_copy_(0, idx, updates.aten()));
  x.index_fill_(0, idx, 0);
  return Tensor(x.index_add_(0, idx, updates.aten()));
}
inline Tensor Tensor::scatter_nd_add(const Tensor& index, const Tensor& updates) const {
  at::Tensor x = Checked().clone();
  at::Tensor idx = index.aten().to(::c10::kLong);
  int64_t k = idx.size(-1);
  at::Tensor flat_idx = idx.reshape({-1, k});
  std::vector<int64_t> upd_shape{flat_idx.size(0)};
  for (int64_t d = k; d < x.dim(); ++d) upd_shape.push_back(x.size(d));
  c10::List<std::optional<at::Tensor>> parts;
  for (int64_t j = 0; j < k; ++j) parts.push_back(flat_idx.select(1, j));
  return Tensor(x.index_put_(parts, updates.aten().reshape(upd_shape), /*accumulate=*/true));
}
inline Tensor Tensor::expand(const IntArray& shape) const {
  // Paddle's -1 keeps the input's size
  std::vector<int64_t> s = shape.GetData();
  const at::Tensor& x = Checked();
  int64_t off = static_cast<int64_t>(s.size()) - x.dim();
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == -1 && static_cast<int64_t>(i) >= off) s[i] = x.size(i - off);
  return Tensor(x.expand(s).contiguous());
}
inline Tensor Tensor::matmul(const Tensor& y, bool transpose_x, bool transpose_y) const {
  at::Tensor a = Checked(), b = y.Checked();
  if (transpose_x) a = a.dim() == 1 ? a : a.transpose(-1, -2);
  if (transpose_y) b = b.dim() == 1 ? b : b.transpose(-1, -2);
  return Tensor(a.matmul(b));
}
inline Tensor Tensor::max(const IntArray& axis, bool keepdim) const {
  return Tensor(Checked().amax(experimental::detail::Axes(axis, Checked().dim()), keepdim));
}
inline Tensor Tensor::scale(const Scalar& scale, const Scalar& bias, bool bias_after_scale) const {
  const at::Tensor& x = Checked();
  at::Tensor r = bias_after_scale ? x.mul(scale.aten()).add(bias.aten()) : x.add(bias.aten()).mul(scale.aten());
  return Tensor(KeepDtype(r));
}
inline Tensor Tensor::sum(const IntArray& axis, DataType dtype, bool keepdim) const {
  const at::Tensor& x = Checked();
  std::optional<::c10::ScalarType> st;
  if (dtype != DataType::UNDEFINED) st = paddle_on_torch::ToScalarType(dtype);
  else if (x.scalar_type() == ::c10::kBool || x.scalar_type() == ::c10::kInt) st = ::c10::kLong;
  return Tensor(x.sum(experimental::detail::Axes(axis, x.dim()), keepdim, st));
}
}  // namespace paddle
