// paddle_on_torch::swiglu / swiglu_bwd (kernels/swiglu.py: silu(x) * y): the CPU kernels and the autograd kernel,
// registered with TORCH_LIBRARY_IMPL under the schema kernels/swiglu.py defines.
//
//   CPU          swiglu_cpu / swiglu_bwd_cpu: rows of the last axis read in place (the two halves of one tensor
//                need no copies), fp32 math; float64 and empty inputs take the ATen composition.
//   AutogradCPU  SwigluFunction: the autograd formula in C++, calling swiglu / swiglu_bwd through the dispatcher
//                below the autograd keys.
#include "cpu_kernels.h"

#include <torch/csrc/autograd/custom_function.h>

using at::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// ------------------------------------------------------------ swiglu
// x, y: [M, N] with unit column stride and any row stride.  out = silu(x) * y.
static inline fVec vsigmoid(const fVec& x) {
  const fVec one(1.f);
  return one / (one + x.neg().exp_u20());
}

// shape: the sizes the output is allocated with ([M, N] when empty; the C++ autograd node passes the caller's
// shape, so that its output is not a view)
at::Tensor swiglu_fwd_impl(const at::Tensor& x, const at::Tensor& y, at::IntArrayRef shape) {
  TORCH_CHECK(x.dim() == 2 && y.dim() == 2 && x.stride(1) == 1 && y.stride(1) == 1, "swiglu_fwd: bad layout");
  const int64_t M = x.size(0), N = x.size(1), sx = x.stride(0), sy = y.stride(0);
  at::Tensor out = big_empty(shape.empty() ? x.sizes() : shape, x.options());
  const bool nt = streams(out, N, 3 * out.nbytes());
  DISPATCH_FLOATING(x.scalar_type(), "swiglu_fwd", [&] {
    const scalar_t* px = x.data_ptr<scalar_t>();
    const scalar_t* py = y.data_ptr<scalar_t>();
    scalar_t* po = out.data_ptr<scalar_t>();
    at::parallel_for(0, M, row_grain(N), [&](int64_t r0, int64_t r1) {
      std::vector<float> b1(std::is_same<scalar_t, float>::value ? 0 : N), b2(b1.size()), b3(b1.size());
      for (int64_t r = r0; r < r1; ++r) {
        const float* xr = Row<scalar_t>::in(px + r * sx, N, b1.data());
        const float* yr = Row<scalar_t>::in(py + r * sy, N, b2.data());
        float* o = Row<scalar_t>::out_buf(po + r * N, b3.data());
        int64_t j = 0;
        for (; j + VS <= N; j += VS) {
          fVec xv = fVec::loadu(xr + j);
          vstore(xv * vsigmoid(xv) * fVec::loadu(yr + j), o + j, nt);
        }
        for (; j < N; ++j) o[j] = xr[j] / (1.f + std::exp(-xr[j])) * yr[j];
        Row<scalar_t>::flush(o, po + r * N, N);
      }
      nt_fence(nt);
    });
  });
  return out;
}


// Returns dx, dy ([M, N] each, contiguous).
std::vector<at::Tensor> swiglu_bwd_impl(const at::Tensor& g, const at::Tensor& x, const at::Tensor& y) {
  TORCH_CHECK(g.is_contiguous() && x.stride(1) == 1 && y.stride(1) == 1, "swiglu_bwd: bad layout");
  const int64_t M = x.size(0), N = x.size(1), sx = x.stride(0), sy = y.stride(0);
  at::Tensor dx = big_empty({M, N}, x.options()), dy = big_empty({M, N}, x.options());
  const bool nt = streams(dx, N, 5 * dx.nbytes()) && streams(dy, N, 5 * dy.nbytes());
  DISPATCH_FLOATING(x.scalar_type(), "swiglu_bwd", [&] {
    const scalar_t* pg = g.data_ptr<scalar_t>();
    const scalar_t* px = x.data_ptr<scalar_t>();
    const scalar_t* py = y.data_ptr<scalar_t>();
    scalar_t* pdx = dx.data_ptr<scalar_t>();
    scalar_t* pdy = dy.data_ptr<scalar_t>();
    at::parallel_for(0, M, row_grain(N), [&](int64_t r0, int64_t r1) {
      const size_t nb = std::is_same<scalar_t, float>::value ? 0 : N;
      std::vector<float> b1(nb), b2(nb), b3(nb), b4(nb), b5(nb);
      const fVec one(1.f);
      for (int64_t r = r0; r < r1; ++r) {
        const float* gr = Row<scalar_t>::in(pg + r * N, N, b1.data());
        const float* xr = Row<scalar_t>::in(px + r * sx, N, b2.data());
        const float* yr = Row<scalar_t>::in(py + r * sy, N, b3.data());
        float* ox = Row<scalar_t>::out_buf(pdx + r * N, b4.data());
        float* oy = Row<scalar_t>::out_buf(pdy + r * N, b5.data());
        int64_t j = 0;
        for (; j + VS <= N; j += VS) {
          fVec xv = fVec::loadu(xr + j), gv = fVec::loadu(gr + j), sg = vsigmoid(xv);
          fVec silu = xv * sg;
          vstore(gv * fVec::loadu(yr + j) * sg * (one + xv * (one - sg)), ox + j, nt);
          vstore(gv * silu, oy + j, nt);
        }
        for (; j < N; ++j) {
          float xv = xr[j], sg = 1.f / (1.f + std::exp(-xv));
          ox[j] = gr[j] * yr[j] * sg * (1.f + xv * (1.f - sg));
          oy[j] = gr[j] * xv * sg;
        }
        Row<scalar_t>::flush(ox, pdx + r * N, N);
        Row<scalar_t>::flush(oy, pdy + r * N, N);
      }
      nt_fence(nt);
    });
  });
  return {dx, dy};
}


// The [M, N] view the kernels take: rows of the last axis, unit column stride (no copy for chunked halves).
static Tensor as_rows(const Tensor& t) {
  Tensor t2 = t.dim() != 2 ? t.reshape({-1, t.size(-1)}) : t;
  return t2.stride(-1) == 1 ? t2 : t2.contiguous();
}

static bool swiglu_fast(const Tensor& x, const Tensor& y) {
  return fast_dtype(x) && x.dim() > 0 && x.sizes() == y.sizes() && x.scalar_type() == y.scalar_type();
}

static at::ScalarType acc_type(const Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

Tensor swiglu_cpu(const Tensor& x, const Tensor& y) {
  if (swiglu_fast(x, y)) return swiglu_fwd_impl(as_rows(x), as_rows(y), x.sizes());  // allocated in x's shape
  return (at::silu(x.to(acc_type(x))) * y.to(acc_type(x))).to(x.scalar_type()).contiguous();
}

// dx, dy in x's and y's shapes (g, x, y of one shape; x and y may be strided, e.g. the two halves of one tensor).
std::tuple<Tensor, Tensor> swiglu_bwd_cpu(const Tensor& g, const Tensor& x, const Tensor& y) {
  if (swiglu_fast(x, y) && g.sizes() == x.sizes() && g.scalar_type() == x.scalar_type()) {
    std::vector<Tensor> d = swiglu_bwd_impl(as_rows(g.contiguous()), as_rows(x), as_rows(y));
    return {d[0].view(x.sizes()), d[1].view(y.sizes())};
  }
  const auto acc = acc_type(x);
  const Tensor xf = x.to(acc), yf = y.to(acc), gf = g.to(acc), sg = at::sigmoid(xf);
  return {(gf * yf * sg * (1 + xf * (1 - sg))).to(x.scalar_type()).contiguous(),
          (gf * xf * sg).to(y.scalar_type()).contiguous()};
}

struct SwigluFunction : public torch::autograd::Function<SwigluFunction> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, const Tensor& y) {
    static const auto op = op_handle<Tensor(const Tensor&, const Tensor&)>("paddle_on_torch::swiglu");
    ctx->save_for_backward({x, y});
    at::AutoDispatchBelowADInplaceOrView below;
    return op.call(x, y);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    TORCH_CHECK(!at::GradMode::is_enabled(), "paddle_on_torch's fused swiglu op has no double backward "
                "(create_graph=True)");
    static const auto op = op_handle<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&)>(
        "paddle_on_torch::swiglu_bwd");
    const variable_list saved = ctx->get_saved_variables();
    at::AutoDispatchBelowADInplaceOrView below;
    auto d = op.call(grads[0], saved[0], saved[1]);
    return {std::get<0>(d), std::get<1>(d)};
  }
};

static Tensor swiglu_autograd(const Tensor& x, const Tensor& y) {
  if (!grad_needed(x, y)) {
    static const auto op = op_handle<Tensor(const Tensor&, const Tensor&)>("paddle_on_torch::swiglu");
    at::AutoDispatchBelowADInplaceOrView below;
    return op.call(x, y);
  }
  return SwigluFunction::apply(x, y);
}

TORCH_LIBRARY_IMPL(paddle_on_torch, CPU, m) {
  m.impl("swiglu", &swiglu_cpu);
  m.impl("swiglu_bwd", &swiglu_bwd_cpu);
}

TORCH_LIBRARY_IMPL(paddle_on_torch, AutogradCPU, m) { m.impl("swiglu", &swiglu_autograd); }
