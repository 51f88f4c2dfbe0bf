// Custom operators written against Paddle's C++ extension API (paddle/extension.h), in the style of
// Paddle's custom-operator tutorials.  The same file is built by real Paddle (tools/record_custom_ops.py,
// for the goldens) and by paddle_on_torch's header set (tests/test_custom_ops.py).
#include <cmath>
#include <string>
#include <vector>

#include "paddle/extension.h"

// ---------------------------------------------------------------- relu: forward, grad and double grad
template <typename data_t>
void relu_forward_loop(const data_t* x, data_t* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] > static_cast<data_t>(0) ? x[i] : static_cast<data_t>(0);
}

template <typename data_t>
void relu_backward_loop(const data_t* dout, const data_t* out, data_t* dx, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dx[i] = out[i] > static_cast<data_t>(0) ? dout[i] : static_cast<data_t>(0);
}

std::vector<paddle::Tensor> ReluForward(const paddle::Tensor& x) {
  PD_CHECK(x.place() == paddle::PlaceType::kCPU, "x must be a CPU Tensor.");
  auto out = paddle::empty_like(x);
  PD_DISPATCH_FLOATING_AND_HALF_TYPES(x.type(), "relu_forward_loop", ([&] {
    relu_forward_loop<data_t>(x.data<data_t>(), out.data<data_t>(), x.numel());
  }));
  return {out};
}

std::vector<paddle::Tensor> ReluBackward(const paddle::Tensor& x, const paddle::Tensor& out,
                                         const paddle::Tensor& grad_out) {
  auto grad_x = paddle::empty(x.shape(), x.dtype(), x.place());
  PD_DISPATCH_FLOATING_AND_HALF_TYPES(out.type(), "relu_backward_loop", ([&] {
    relu_backward_loop<data_t>(grad_out.data<data_t>(), out.data<data_t>(), grad_x.data<data_t>(), out.size());
  }));
  return {grad_x};
}

std::vector<paddle::Tensor> ReluDoubleBackward(const paddle::Tensor& out, const paddle::Tensor& ddx) {
  auto ddout = paddle::empty(out.shape(), out.dtype(), out.place());
  PD_DISPATCH_FLOATING_TYPES(out.type(), "relu_double_backward", ([&] {
    relu_backward_loop<data_t>(ddx.data<data_t>(), out.data<data_t>(), ddout.mutable_data<data_t>(out.place()),
                               out.numel());
  }));
  return {ddout};
}

PD_BUILD_OP(pot_relu)
    .Inputs({"X"})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(ReluForward));

PD_BUILD_GRAD_OP(pot_relu)
    .Inputs({"X", "Out", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X")})
    .SetKernelFn(PD_KERNEL(ReluBackward));

PD_BUILD_DOUBLE_GRAD_OP(pot_relu)
    .Inputs({"Out", paddle::Grad(paddle::Grad("X"))})
    .Outputs({paddle::Grad(paddle::Grad("Out"))})
    .SetKernelFn(PD_KERNEL(ReluDoubleBackward));

// ---------------------------------------------------------------- attributes of every kind
// out = (x * float_attr + int_attr * (bool_attr ? 1 : -1) + sum(int_vec_attr) + int64_attr) * scale(str_attr),
// where str_attr "double" scales by 2 and float_vec_attr / int64_vec_attr / str_vec_attr add their sizes.
std::vector<paddle::Tensor> AttrsForward(const paddle::Tensor& x, int int_attr, float float_attr, bool bool_attr,
                                         const std::string& str_attr, const std::vector<int>& int_vec_attr,
                                         int64_t int64_attr, const std::vector<float>& float_vec_attr,
                                         const std::vector<int64_t>& int64_vec_attr,
                                         const std::vector<std::string>& str_vec_attr) {
  PD_CHECK(str_attr == "double" || str_attr == "single", "str_attr must be 'double' or 'single', got ", str_attr);
  double shift = int_attr * (bool_attr ? 1.0 : -1.0) + static_cast<double>(int64_attr);
  for (int v : int_vec_attr) shift += v;
  for (float v : float_vec_attr) shift += v;
  for (int64_t v : int64_vec_attr) shift += static_cast<double>(v);
  shift += static_cast<double>(str_vec_attr.size());
  double mult = str_attr == "double" ? 2.0 : 1.0;
  auto out = paddle::empty_like(x);
  PD_DISPATCH_FLOATING_TYPES(x.type(), "attrs_forward", ([&] {
    const data_t* px = x.data<data_t>();
    data_t* po = out.data<data_t>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      po[i] = static_cast<data_t>((px[i] * float_attr + shift) * mult);
    }
  }));
  return {out};
}

std::vector<paddle::Tensor> AttrsBackward(const paddle::Tensor& grad_out, float float_attr,
                                          const std::string& str_attr) {
  double mult = (str_attr == "double" ? 2.0 : 1.0) * float_attr;
  return {grad_out * mult};
}

PD_BUILD_OP(pot_attrs)
    .Inputs({"X"})
    .Outputs({"Out"})
    .Attrs({"int_attr: int", "float_attr: float", "bool_attr: bool", "str_attr: std::string",
            "int_vec_attr: std::vector<int>", "int64_attr: int64_t", "float_vec_attr: std::vector<float>",
            "int64_vec_attr: std::vector<int64_t>", "str_vec_attr: std::vector<std::string>"})
    .SetKernelFn(PD_KERNEL(AttrsForward));

PD_BUILD_GRAD_OP(pot_attrs)
    .Inputs({paddle::Grad("Out")})
    .Outputs({paddle::Grad("X")})
    .Attrs({"float_attr: float", "str_attr: std::string"})
    .SetKernelFn(PD_KERNEL(AttrsBackward));

// ---------------------------------------------------------------- several outputs, shapes and dtypes inferred
// Out = 2 * x, RowSum = sum of each row (last axis), ArgMax = index of each row's largest value (int64)
std::vector<paddle::Tensor> StatsForward(const paddle::Tensor& x) {
  PD_CHECK(x.shape().size() == 2, "x must be 2-D, got ", x.shape().size(), " dims");
  int64_t rows = x.shape()[0], cols = x.shape()[1];
  auto out = paddle::empty(x.shape(), x.dtype(), x.place());
  auto row_sum = paddle::empty({rows}, x.dtype(), x.place());
  auto arg_max = paddle::empty({rows}, paddle::DataType::INT64, x.place());
  PD_DISPATCH_FLOATING_TYPES(x.type(), "stats_forward", ([&] {
    const data_t* px = x.data<data_t>();
    data_t* po = out.data<data_t>();
    data_t* ps = row_sum.data<data_t>();
    int64_t* pa = arg_max.data<int64_t>();
    for (int64_t r = 0; r < rows; ++r) {
      data_t s = 0;
      int64_t best = 0;
      for (int64_t c = 0; c < cols; ++c) {
        data_t v = px[r * cols + c];
        po[r * cols + c] = v * static_cast<data_t>(2);
        s += v;
        if (v > px[r * cols + best]) best = c;
      }
      ps[r] = s;
      pa[r] = best;
    }
  }));
  return {out, row_sum, arg_max};
}

std::vector<std::vector<int64_t>> StatsInferShape(const std::vector<int64_t>& x_shape) {
  return {x_shape, {x_shape[0]}, {x_shape[0]}};
}

std::vector<paddle::DataType> StatsInferDtype(const paddle::DataType& x_dtype) {
  return {x_dtype, x_dtype, paddle::DataType::INT64};
}

std::vector<paddle::Tensor> StatsBackward(const paddle::Tensor& x, const paddle::Tensor& grad_out,
                                          const paddle::Tensor& grad_row_sum) {
  auto grad_x = paddle::empty_like(x);
  int64_t rows = x.shape()[0], cols = x.shape()[1];
  PD_DISPATCH_FLOATING_TYPES(x.type(), "stats_backward", ([&] {
    const data_t* go = grad_out.data<data_t>();
    const data_t* gs = grad_row_sum.data<data_t>();
    data_t* gx = grad_x.data<data_t>();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) gx[r * cols + c] = go[r * cols + c] * static_cast<data_t>(2) + gs[r];
  }));
  return {grad_x};
}

PD_BUILD_OP(pot_stats)
    .Inputs({"X"})
    .Outputs({"Out", "RowSum", "ArgMax"})
    .SetKernelFn(PD_KERNEL(StatsForward))
    .SetInferShapeFn(PD_INFER_SHAPE(StatsInferShape))
    .SetInferDtypeFn(PD_INFER_DTYPE(StatsInferDtype));

PD_BUILD_GRAD_OP(pot_stats)
    .Inputs({"X", paddle::Grad("Out"), paddle::Grad("RowSum")})
    .Outputs({paddle::Grad("X")})
    .SetKernelFn(PD_KERNEL(StatsBackward));

// ---------------------------------------------------------------- in place: x += y, its grad in place too
void AddInplaceForward(paddle::Tensor& x, const paddle::Tensor& y) {  // NOLINT
  PD_CHECK(x.shape() == y.shape(), "x and y must have the same shape");
  PD_DISPATCH_FLOATING_TYPES(x.type(), "add_inplace_forward", ([&] {
    data_t* px = x.data<data_t>();
    const data_t* py = y.data<data_t>();
    for (int64_t i = 0; i < x.numel(); ++i) px[i] += py[i];
  }));
}

std::vector<paddle::Tensor> AddInplaceBackward(const paddle::Tensor& x, paddle::Tensor& grad_out) {  // NOLINT
  // grad_x is grad_out itself (in place); grad_y is a copy
  auto grad_y = paddle::empty(grad_out.shape(), grad_out.dtype(), grad_out.place());
  PD_DISPATCH_FLOATING_TYPES(grad_out.type(), "add_inplace_backward", ([&] {
    const data_t* g = grad_out.data<data_t>();
    data_t* gy = grad_y.data<data_t>();
    for (int64_t i = 0; i < grad_out.numel(); ++i) gy[i] = g[i];
  }));
  return {grad_y};
}

PD_BUILD_OP(pot_add_)
    .Inputs({"X", "Y"})
    .Outputs({"Out"})
    .SetInplaceMap({{"X", "Out"}})
    .SetKernelFn(PD_KERNEL(AddInplaceForward));

PD_BUILD_GRAD_OP(pot_add_)
    .Inputs({"X", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X"), paddle::Grad("Y")})
    .SetInplaceMap({{paddle::Grad("Out"), paddle::Grad("X")}})
    .SetKernelFn(PD_KERNEL(AddInplaceBackward));

// ---------------------------------------------------------------- an optional input
// out = x + y when y is given, else 2 * x
std::vector<paddle::Tensor> OptionalForward(const paddle::Tensor& x, const paddle::optional<paddle::Tensor>& y) {
  if (y) {
    PD_CHECK(y->shape() == x.shape(), "y must have x's shape");
    return {x + y.get()};
  }
  return {x * 2.0};
}

std::vector<std::vector<int64_t>> OptionalInferShape(const std::vector<int64_t>& x_shape,
                                                     const paddle::optional<std::vector<int64_t>>& y_shape) {
  return {x_shape};
}

std::vector<paddle::DataType> OptionalInferDtype(const paddle::DataType& x_dtype,
                                                 const paddle::optional<paddle::DataType>& y_dtype) {
  return {x_dtype};
}

std::vector<paddle::Tensor> OptionalBackward(const paddle::Tensor& x, const paddle::optional<paddle::Tensor>& y,
                                             const paddle::Tensor& grad_out) {
  if (y) return {grad_out, paddle::experimental::assign(grad_out)};
  return {grad_out * 2.0, paddle::Tensor()};
}

PD_BUILD_OP(pot_optional)
    .Inputs({"X", paddle::Optional("Y")})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(OptionalForward))
    .SetInferShapeFn(PD_INFER_SHAPE(OptionalInferShape))
    .SetInferDtypeFn(PD_INFER_DTYPE(OptionalInferDtype));

PD_BUILD_GRAD_OP(pot_optional)
    .Inputs({"X", paddle::Optional("Y"), paddle::Grad("Out")})
    .Outputs({paddle::Grad("X"), paddle::Grad(paddle::Optional("Y"))})
    .SetKernelFn(PD_KERNEL(OptionalBackward));

// ---------------------------------------------------------------- a list input, weighted by an attribute
std::vector<paddle::Tensor> WeightedSumForward(const std::vector<paddle::Tensor>& xs,
                                               const std::vector<float>& weights) {
  PD_CHECK(xs.size() == weights.size(), "one weight per input: ", xs.size(), " inputs, ", weights.size(),
           " weights");
  auto out = paddle::full(xs[0].shape(), 0.0, xs[0].dtype(), xs[0].place());
  for (size_t i = 0; i < xs.size(); ++i) out = out + xs[i] * weights[i];
  return {out};
}

std::vector<std::vector<int64_t>> WeightedSumInferShape(const std::vector<std::vector<int64_t>>& xs_shape,
                                                        const std::vector<float>& weights) {
  return {xs_shape[0]};
}

std::vector<paddle::DataType> WeightedSumInferDtype(const std::vector<paddle::DataType>& xs_dtype) {
  return {xs_dtype[0]};
}

std::vector<paddle::Tensor> WeightedSumBackward(const std::vector<paddle::Tensor>& xs,
                                                const paddle::Tensor& grad_out,
                                                const std::vector<float>& weights) {
  std::vector<paddle::Tensor> grads;
  for (size_t i = 0; i < xs.size(); ++i) grads.push_back(grad_out * weights[i]);
  return grads;
}

PD_BUILD_OP(pot_weighted_sum)
    .Inputs({paddle::Vec("X")})
    .Outputs({"Out"})
    .Attrs({"weights: std::vector<float>"})
    .SetKernelFn(PD_KERNEL(WeightedSumForward))
    .SetInferShapeFn(PD_INFER_SHAPE(WeightedSumInferShape))
    .SetInferDtypeFn(PD_INFER_DTYPE(WeightedSumInferDtype));

PD_BUILD_GRAD_OP(pot_weighted_sum)
    .Inputs({paddle::Vec("X"), paddle::Grad("Out")})
    .Outputs({paddle::Grad(paddle::Vec("X"))})
    .Attrs({"weights: std::vector<float>"})
    .SetKernelFn(PD_KERNEL(WeightedSumBackward));

// ---------------------------------------------------------------- the Tensor API (no grad op)
// out = (x * 2 + y) / (exp(y) + 1), clipped, reshaped back, mixed with its negation, shifted where not positive
std::vector<paddle::Tensor> TensorApiForward(const paddle::Tensor& x, const paddle::Tensor& y) {
  PD_CHECK(x.is_cpu() && y.is_cpu(), "CPU tensors only");
  auto num = x * 2.0 + y;
  auto den = paddle::experimental::exp(y) + 1.0;
  auto q = num / den;
  auto flat = paddle::experimental::reshape(q, {-1});
  auto clipped = paddle::experimental::clip(flat, -1.5, 1.5);
  auto back = paddle::experimental::reshape(clipped, x.shape());
  auto neg = -back;
  auto mixed = paddle::experimental::maximum(back, neg * 0.5);
  auto ones = paddle::full(x.shape(), 1.0, x.dtype(), x.place());
  auto zeros = paddle::experimental::zeros_like(x);
  auto pos = mixed > zeros;
  auto res = paddle::experimental::where(pos, mixed, ones - mixed);
  // an output filled by hand through mutable_data: the first row of x (slice, copy_to, cast) plus x.numel()
  auto first = paddle::empty({x.shape()[1]}, paddle::DataType::FLOAT32, paddle::CPUPlace());
  float* pf = first.mutable_data<float>(paddle::CPUPlace());
  auto row0 = x.slice(0, 1).copy_to(paddle::CPUPlace(), true).cast(paddle::DataType::FLOAT32);
  const float* pr = row0.data<float>();
  for (int64_t i = 0; i < x.shape()[1]; ++i) pf[i] = pr[i] + static_cast<float>(x.numel());
  return {res, first};
}

std::vector<std::vector<int64_t>> TensorApiInferShape(const std::vector<int64_t>& x_shape,
                                                      const std::vector<int64_t>& y_shape) {
  return {x_shape, {x_shape[1]}};
}

std::vector<paddle::DataType> TensorApiInferDtype(const paddle::DataType& x_dtype, const paddle::DataType& y_dtype) {
  return {x_dtype, paddle::DataType::FLOAT32};
}

PD_BUILD_OP(pot_tensor_api)
    .Inputs({"X", "Y"})
    .Outputs({"Out", "First"})
    .SetKernelFn(PD_KERNEL(TensorApiForward))
    .SetInferShapeFn(PD_INFER_SHAPE(TensorApiInferShape))
    .SetInferDtypeFn(PD_INFER_DTYPE(TensorApiInferDtype));

// ---------------------------------------------------------------- integer dispatch (and its refusal of floats)
std::vector<paddle::Tensor> IntTwiceForward(const paddle::Tensor& x) {
  auto out = paddle::empty_like(x);
  PD_DISPATCH_INTEGRAL_TYPES(x.dtype(), "int_twice", ([&] {
    const data_t* px = x.data<data_t>();
    data_t* po = out.data<data_t>();
    for (int64_t i = 0; i < x.numel(); ++i) po[i] = px[i] * 2;
  }));
  return {out};
}

PD_BUILD_OP(pot_int_twice)
    .Inputs({"X"})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(IntTwiceForward));
