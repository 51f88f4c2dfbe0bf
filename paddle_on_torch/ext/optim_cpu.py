"""C++ CPU kernel for the Adam / AdamW step (paddle_on_torch.optimizer.adam), compiled on first use.

One call updates every parameter of a step: per element it reads the gradient, both moments and the
parameter once and writes them once, where the composition of torch ops makes ~14 passes over
memory (one per elementwise op, plus the temporaries).  It runs Paddle's update op by op as
optimizer/adam.py's `_adam` does -- every product, sum, quotient and square root rounded on its own
in the parameter's dtype, the square root by torch's own CPU kernel -- so the bits are those of the
per-parameter path.  That is why this
source is built apart from fused_cpu.py, with `-ffp-contract=off`: otherwise the compiler may fuse
`m * b1 + g * (1 - b1)` into one fused multiply-add, which rounds once.  IEEE add, mul and div are
correctly rounded in scalar and vector form alike, so the vector body and the scalar tail agree with
torch's kernels; torch's CPU sqrt is MKL's (not always correctly rounded), so the kernel calls it, on
chunks that stay in the L2 cache.
"""

SOURCE = r"""
#include <torch/extension.h>
#include <ATen/Parallel.h>
#include <ATen/cpu/vec/vec.h>
#include <cmath>
#include <vector>

using at::vec::Vectorized;

namespace {

template <typename T>
struct Scalars {
  T b1, b2, one_minus_b1, one_minus_b2, step, eps, decay;
};

// Elements [begin, end) of one parameter, in chunks of kChunk that stay in the L2 cache.  The order of operations
// is _adam's:
//   m1 = m1*b1 + g*(1-b1);  m2 = m2*b2 + (g*g)*(1-b2);  v = max(vmax, m2) with amsgrad, else m2;
//   p = p*decay (AdamW);  p = p - step * (m1 / (sqrt(v) + eps))
// sqrt(v) is torch's own (at::sqrt_out on the chunk): on CPU it calls MKL's vector sqrt, which is not always the
// correctly rounded one, and the bits must be those of the torch ops of the per-parameter path.
constexpr int64_t kChunk = 16384;

template <typename T>
void adam_range(T* p, const T* g, T* m1, T* m2, T* vmax, const Scalars<T>& s, bool decay, int64_t begin,
                int64_t end) {
  using V = Vectorized<T>;
  const V b1(s.b1), b2(s.b2), c1(s.one_minus_b1), c2(s.one_minus_b2), step(s.step), eps(s.eps), dec(s.decay);
  std::vector<T> root_buf(std::min(kChunk, end - begin));
  T* root = root_buf.data();
  const auto opts = at::TensorOptions().dtype(c10::CppTypeToScalarType<T>::value);
  for (int64_t lo = begin; lo < end; lo += kChunk) {
    const int64_t hi = std::min(lo + kChunk, end);
    int64_t j = lo;
    for (; j + V::size() <= hi; j += V::size()) {
      const V gv = V::loadu(g + j);
      (V::loadu(m1 + j) * b1 + gv * c1).store(m1 + j);
      const V m2v = V::loadu(m2 + j) * b2 + (gv * gv) * c2;
      m2v.store(m2 + j);
      if (vmax) at::vec::maximum(V::loadu(vmax + j), m2v).store(vmax + j);
    }
    for (; j < hi; ++j) {
      const T gj = g[j];
      m1[j] = m1[j] * s.b1 + gj * s.one_minus_b1;
      const T m2j = m2[j] * s.b2 + (gj * gj) * s.one_minus_b2;
      m2[j] = m2j;
      if (vmax) {
        const T old = vmax[j];  // torch.maximum: NaN wins
        vmax[j] = std::isnan(old) ? old : (std::isnan(m2j) ? m2j : std::max(old, m2j));
      }
    }
    const T* v = vmax ? vmax : m2;
    at::Tensor root_t = at::from_blob(root, {hi - lo}, opts);
    at::sqrt_out(root_t, at::from_blob(const_cast<T*>(v + lo), {hi - lo}, opts));
    j = lo;
    for (; j + V::size() <= hi; j += V::size()) {
      V pv = V::loadu(p + j);
      if (decay) pv = pv * dec;
      (pv - step * (V::loadu(m1 + j) / (V::loadu(root + j - lo) + eps))).store(p + j);
    }
    for (; j < hi; ++j) {
      T pj = p[j];
      if (decay) pj = pj * s.decay;
      p[j] = pj - s.step * (m1[j] / (root[j - lo] + s.eps));
    }
  }
}

bool plain(const at::Tensor& t, at::ScalarType dtype, int64_t numel) {
  return t.defined() && t.device().is_cpu() && t.scalar_type() == dtype && t.is_contiguous() &&
         t.numel() == numel && t.layout() == at::kStrided && !t.is_conj() && !t.is_neg();
}

template <typename T>
void run(std::vector<at::Tensor>& params, const std::vector<at::Tensor>& grads, std::vector<at::Tensor>& m1s,
         std::vector<at::Tensor>& m2s, std::vector<at::Tensor>& vmaxs, std::vector<at::Tensor>& b1ps,
         std::vector<at::Tensor>& b2ps, const std::vector<double>& lrs, const std::vector<double>& decays, double b1,
         double b2, double one_minus_b1, double one_minus_b2, double eps) {
  // sqrt(1 - b2^t) of every parameter by one torch sqrt (MKL's, as the per-parameter path computes it)
  const auto opts = at::TensorOptions().dtype(c10::CppTypeToScalarType<T>::value);
  at::Tensor corr2s = at::empty({int64_t(params.size())}, opts);
  for (size_t i = 0; i < params.size(); ++i) corr2s.data_ptr<T>()[i] = T(1) - *b2ps[i].data_ptr<T>();
  corr2s.sqrt_();
  for (size_t i = 0; i < params.size(); ++i) {
    Scalars<T> s;
    s.b1 = T(b1);
    s.b2 = T(b2);
    s.one_minus_b1 = T(one_minus_b1);
    s.one_minus_b2 = T(one_minus_b2);
    T* b1p = b1ps[i].data_ptr<T>();
    T* b2p = b2ps[i].data_ptr<T>();
    // _adam's per-parameter scalars, in T: sqrt(1 - b2^t), lr * sqrt(1 - b2^t) / (1 - b1^t), eps * sqrt(1 - b2^t)
    const T corr2 = corr2s.data_ptr<T>()[i];
    s.step = T(lrs[i]) * corr2 / (T(1) - *b1p);
    s.eps = T(eps) * corr2;
    s.decay = T(decays[i]);
    const bool decay = decays[i] != 1.0;
    T* p = params[i].data_ptr<T>();
    const T* g = grads[i].data_ptr<T>();
    T* m1 = m1s[i].data_ptr<T>();
    T* m2 = m2s[i].data_ptr<T>();
    T* vmax = vmaxs.empty() ? nullptr : vmaxs[i].data_ptr<T>();
    at::parallel_for(0, params[i].numel(), at::internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
      adam_range<T>(p, g, m1, m2, vmax, s, decay, begin, end);
    });
    *b1p = *b1p * s.b1;
    *b2p = *b2p * s.b2;
  }
  // written through raw pointers: bump the version counters as torch's in-place ops do, so autograd still
  // notices a tensor saved for a backward that changed since
  for (auto* list : {&params, &m1s, &m2s, &vmaxs, &b1ps, &b2ps})
    for (auto& t : *list) t.unsafeGetTensorImpl()->bump_version();
}

}  // namespace

// The Adam step of all `params` (lists of one length; `vmaxs` empty without amsgrad; `decays` the AdamW factor
// 1 - lr * coeff per parameter, 1.0 for none).  Returns false, touching nothing, unless every tensor is a plain
// contiguous CPU tensor of the parameters' dtype (float32 or float64) and shape: the caller then runs the ops.
bool adam_step(std::vector<at::Tensor> params, std::vector<at::Tensor> grads, std::vector<at::Tensor> m1s,
               std::vector<at::Tensor> m2s, std::vector<at::Tensor> vmaxs, std::vector<at::Tensor> b1ps,
               std::vector<at::Tensor> b2ps, std::vector<double> lrs, std::vector<double> decays, double b1,
               double b2, double one_minus_b1, double one_minus_b2, double eps) {
  const size_t n = params.size();
  if (n == 0 || grads.size() != n || m1s.size() != n || m2s.size() != n || b1ps.size() != n || b2ps.size() != n ||
      lrs.size() != n || decays.size() != n || (!vmaxs.empty() && vmaxs.size() != n))
    return false;
  const at::ScalarType dtype = params[0].scalar_type();
  if (dtype != at::kFloat && dtype != at::kDouble) return false;
  for (size_t i = 0; i < n; ++i) {
    const int64_t numel = params[i].numel();
    if (!plain(params[i], dtype, numel) || !plain(grads[i], dtype, numel) || !plain(m1s[i], dtype, numel) ||
        !plain(m2s[i], dtype, numel) || (!vmaxs.empty() && !plain(vmaxs[i], dtype, numel)) ||
        !plain(b1ps[i], dtype, 1) || !plain(b2ps[i], dtype, 1))
      return false;
  }
  if (dtype == at::kFloat)
    run<float>(params, grads, m1s, m2s, vmaxs, b1ps, b2ps, lrs, decays, b1, b2, one_minus_b1, one_minus_b2, eps);
  else
    run<double>(params, grads, m1s, m2s, vmaxs, b1ps, b2ps, lrs, decays, b1, b2, one_minus_b1, one_minus_b2, eps);
  return true;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("adam_step", &adam_step);
}
"""
