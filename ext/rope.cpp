// paddle_on_torch::rope / rope_bwd (kernels/rope.py: rotary position embedding, both rotary styles): the CPU kernels
// and the autograd kernel, registered with TORCH_LIBRARY_IMPL under the schema kernels/rope.py defines.
//
//   CPU          rope_cpu / rope_bwd_cpu: one pass in fp32 (bf16 / fp16 converted per row); float64, empty inputs
//                and tables other than float32 take the ATen composition (kernels/rope.py's reference, in C++).
//                The backward of a rotation is the transposed rotation: the same kernel with a transposed sine.
//   AutogradCPU  RopeFunction: the autograd formula in C++, calling rope / rope_bwd through the dispatcher below
//                the autograd keys (fake tensors reach the fake kernel).
#include "cpu_kernels.h"

#include <torch/csrc/autograd/custom_function.h>

using at::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// ------------------------------------------------------------ rotary embedding
// x: [A0, A1, H, D] contiguous; cos / sin: float32 with strides (cs0, cs1, 1) over (A0, A1, D).
// neox (adjacent pairs): o[2i] = x[2i] c[2i] - x[2i+1] s[2i];  o[2i+1] = x[2i+1] c[2i+1] + x[2i] s[2i+1]
// half:                  o[j]  = x[j] c[j] - x[j+h] s[j];     o[j+h]  = x[j+h] c[j+h] + x[j] s[j+h]
// (v[1], v[0], v[3], v[2], ...): each element's partner in the adjacent-pair style
static inline fVec swap_pairs(const fVec& v) {
#if defined(CPU_CAPABILITY_AVX512)
  return _mm512_permute_ps(v, 0xB1);
#elif defined(CPU_CAPABILITY_AVX2)
  return _mm256_permute_ps(v, 0xB1);
#else
  float t[VS];
  v.store(t);
  for (int64_t k = 0; k + 1 < VS; k += 2) std::swap(t[k], t[k + 1]);
  return fVec::loadu(t);
#endif
}

at::Tensor rope_fwd(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin, bool neox) {
  TORCH_CHECK(x.dim() == 4 && x.is_contiguous(), "rope_fwd: x must be a contiguous 4-D tensor");
  TORCH_CHECK(cos.scalar_type() == at::kFloat && sin.scalar_type() == at::kFloat && cos.dim() == 3 &&
              cos.stride(2) == 1 && sin.strides() == cos.strides(), "rope_fwd: bad sin/cos");
  const int64_t A0 = x.size(0), A1 = x.size(1), H = x.size(2), D = x.size(3), h = D / 2;
  const int64_t cs0 = cos.size(0) == 1 ? 0 : cos.stride(0), cs1 = cos.size(1) == 1 ? 0 : cos.stride(1);
  at::Tensor out = big_empty(x.sizes(), x.options());
  const bool nt = streams(out, D, 2 * out.nbytes());
  const float* pc = cos.data_ptr<float>();
  const float* psn = sin.data_ptr<float>();
  DISPATCH_FLOATING(x.scalar_type(), "rope_fwd", [&] {
    const scalar_t* px = x.data_ptr<scalar_t>();
    scalar_t* po = out.data_ptr<scalar_t>();
    at::parallel_for(0, A0 * A1, row_grain(H * D), [&](int64_t t0, int64_t t1) {
      std::vector<float> ss(D), b1(std::is_same<scalar_t, float>::value ? 0 : D), b2(b1.size());
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t a0 = t / A1, a1 = t % A1;
        const float* c = pc + a0 * cs0 + a1 * cs1;
        const float* sn = psn + a0 * cs0 + a1 * cs1;
        for (int64_t j = 0; j < D; ++j)  // signed sine
          ss[j] = (neox ? (j % 2 == 0) : (j < h)) ? -sn[j] : sn[j];
        for (int64_t hh = 0; hh < H; ++hh) {
          const int64_t off = (t * H + hh) * D;
          const float* xr = Row<scalar_t>::in(px + off, D, b1.data());
          float* o = Row<scalar_t>::out_buf(po + off, b2.data());
          if (neox) {
            int64_t j = 0;
            for (; j + VS <= D; j += VS) {
              const fVec xv = fVec::loadu(xr + j);
              vstore(at::vec::fmadd(xv, fVec::loadu(c + j), swap_pairs(xv) * fVec::loadu(ss.data() + j)), o + j, nt);
            }
            for (; j < D; j += 2) {
              const float x0 = xr[j], x1 = xr[j + 1];
              o[j] = x0 * c[j] + x1 * ss[j];
              o[j + 1] = x1 * c[j + 1] + x0 * ss[j + 1];
            }
          } else {
            int64_t j = 0;
            for (; j + VS <= h; j += VS) {
              fVec x0 = fVec::loadu(xr + j), x1 = fVec::loadu(xr + j + h);
              vstore(at::vec::fmadd(x0, fVec::loadu(c + j), x1 * fVec::loadu(ss.data() + j)), o + j, nt && h % VS == 0);
              vstore(at::vec::fmadd(x1, fVec::loadu(c + j + h), x0 * fVec::loadu(ss.data() + j + h)), o + j + h, nt && h % VS == 0);
            }
            for (; j < h; ++j) {
              const float x0 = xr[j], x1 = xr[j + h];
              o[j] = x0 * c[j] + x1 * ss[j];
              o[j + h] = x1 * c[j + h] + x0 * ss[j + h];
            }
          }
          Row<scalar_t>::flush(o, po + off, D);
        }
      }
      nt_fence(nt);
    });
  });
  return out;
}

// sin' with rope(., cos, sin') = the transpose of rope(., cos, sin) (kernels/rope.py: rope_transpose_sin)
static Tensor rope_sin_transposed(const Tensor& sin, bool neox) {
  if (neox)
    return at::neg(at::stack({sin.slice(-1, 1, c10::nullopt, 2), sin.slice(-1, 0, c10::nullopt, 2)}, -1).flatten(-2));
  const int64_t h = sin.size(-1) / 2;
  return at::neg(at::cat({sin.slice(-1, h), sin.slice(-1, 0, h)}, -1));
}

// kernels/rope.py's ref_rope: x [A0, A1, H, D], cos / sin [C0, C1, D]
static Tensor rope_aten(const Tensor& x, const Tensor& cos, const Tensor& sin, bool neox) {
  const Tensor c = cos.unsqueeze(2), s = sin.unsqueeze(2);
  const Tensor xf = x.scalar_type() == at::kDouble ? x : x.to(at::kFloat);
  Tensor rot;
  if (neox) {
    rot = at::stack({xf.slice(-1, 1, c10::nullopt, 2).neg(), xf.slice(-1, 0, c10::nullopt, 2)}, -1).flatten(-2);
  } else {
    const int64_t h = x.size(-1) / 2;
    rot = at::cat({xf.slice(-1, h).neg(), xf.slice(-1, 0, h)}, -1);
  }
  return (xf * c + rot * s).to(x.scalar_type()).contiguous();
}

static bool rope_fast(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  return fast_dtype(x) && x.dim() == 4 && cos.scalar_type() == at::kFloat && sin.scalar_type() == at::kFloat &&
         cos.dim() == 3 && cos.stride(2) == 1 && sin.strides() == cos.strides();
}

Tensor rope_cpu(const Tensor& x, const Tensor& cos, const Tensor& sin, bool neox) {
  return rope_fast(x, cos, sin) ? rope_fwd(x.contiguous(), cos, sin, neox) : rope_aten(x, cos, sin, neox);
}

// The backward of rope: the transposed rotation of g (any layout).
Tensor rope_bwd_cpu(const Tensor& g, const Tensor& cos, const Tensor& sin, bool neox) {
  const Tensor sin_t = rope_sin_transposed(sin, neox);
  return rope_fast(g, cos, sin_t) ? rope_fwd(g.contiguous(), cos, sin_t, neox) : rope_aten(g, cos, sin_t, neox);
}

using RopeSig = Tensor(const Tensor&, const Tensor&, const Tensor&, bool);

struct RopeFunction : public torch::autograd::Function<RopeFunction> {
  static Tensor forward(AutogradContext* ctx, const Tensor& x, const Tensor& cos, const Tensor& sin, bool neox) {
    static const auto op = op_handle<RopeSig>("paddle_on_torch::rope");
    ctx->save_for_backward({cos, sin});
    ctx->saved_data["n"] = neox;
    at::AutoDispatchBelowADInplaceOrView below;
    return op.call(x, cos, sin, neox);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    TORCH_CHECK(!at::GradMode::is_enabled(), "paddle_on_torch's fused rotary embedding op has no double backward "
                "(create_graph=True)");
    static const auto op = op_handle<RopeSig>("paddle_on_torch::rope_bwd");
    const variable_list saved = ctx->get_saved_variables();
    at::AutoDispatchBelowADInplaceOrView below;
    return {op.call(grads[0], saved[0], saved[1], ctx->saved_data["n"].toBool()), Tensor(), Tensor(), Tensor()};
  }
};

static Tensor rope_autograd(const Tensor& x, const Tensor& cos, const Tensor& sin, bool neox) {
  if (!grad_needed(x, cos, sin)) {
    static const auto op = op_handle<RopeSig>("paddle_on_torch::rope");
    at::AutoDispatchBelowADInplaceOrView below;
    return op.call(x, cos, sin, neox);
  }
  return RopeFunction::apply(x, cos, sin, neox);
}

TORCH_LIBRARY_IMPL(paddle_on_torch, CPU, m) {
  m.impl("rope", &rope_cpu);
  m.impl("rope_bwd", &rope_bwd_cpu);
}

TORCH_LIBRARY_IMPL(paddle_on_torch, AutogradCPU, m) { m.impl("rope", &rope_autograd); }
