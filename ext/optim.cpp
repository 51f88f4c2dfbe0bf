// C++ CPU kernels for the optimizer steps of Adam / AdamW (paddle_on_torch.optimizer.adam), Momentum and SGD,
// built into paddle_on_torch.kernels._C with the other kernels.
//
// One call updates every parameter of a step: per element it reads the gradient, both moments and the
// parameter once and writes them once, where the composition of torch ops makes ~14 passes over
// memory (one per elementwise op, plus the temporaries).  It runs Paddle's update op by op as
// optimizer/adam.py's `_adam` does -- every product, sum, quotient and square root rounded on its own
// in the parameter's dtype -- so the bits are those of the per-parameter path.  That is why this
// file is compiled without floating-point contraction (the pragma below): otherwise the compiler may fuse
// `m * b1 + g * (1 - b1)` into one fused multiply-add, which rounds once.  IEEE add, mul, div and sqrt
// are correctly rounded in scalar and vector form alike, so the vector body and the scalar tail agree
// with the torch ops (whose square roots are correctly rounded too: optimizer._sqrt).
// Before any include: it applies to every function compiled in this file, ATen's inlined vector ops included.
#pragma GCC optimize("fp-contract=off")

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

// Elements [begin, end) of one parameter.  The order of operations is _adam's:
//   m1 = m1*b1 + g*(1-b1);  m2 = m2*b2 + (g*g)*(1-b2);  v = max(vmax, m2) with amsgrad, else m2;
//   p = p*decay (AdamW);  p = p - step * (m1 / (sqrt(v) + eps))
template <typename T>
void adam_range(T* p, const T* g, T* m1, T* m2, T* vmax, const Scalars<T>& s, bool decay, int64_t begin,
                int64_t end) {
  using V = Vectorized<T>;
  const V b1(s.b1), b2(s.b2), c1(s.one_minus_b1), c2(s.one_minus_b2), step(s.step), eps(s.eps), dec(s.decay);
  int64_t j = begin;
  for (; j + V::size() <= end; j += V::size()) {
    const V gv = V::loadu(g + j);
    const V m1v = V::loadu(m1 + j) * b1 + gv * c1;
    const V m2v = V::loadu(m2 + j) * b2 + (gv * gv) * c2;
    m1v.store(m1 + j);
    m2v.store(m2 + j);
    V v = m2v;
    if (vmax) {
      v = at::vec::maximum(V::loadu(vmax + j), m2v);
      v.store(vmax + j);
    }
    V pv = V::loadu(p + j);
    if (decay) pv = pv * dec;
    (pv - step * (m1v / (v.sqrt() + eps))).store(p + j);
  }
  for (; j < end; ++j) {
    const T gj = g[j];
    const T m1j = m1[j] * s.b1 + gj * s.one_minus_b1;
    const T m2j = m2[j] * s.b2 + (gj * gj) * s.one_minus_b2;
    m1[j] = m1j;
    m2[j] = m2j;
    T v = m2j;
    if (vmax) {
      const T old = vmax[j];  // torch.maximum: NaN wins
      v = std::isnan(old) ? old : (std::isnan(m2j) ? m2j : std::max(old, m2j));
      vmax[j] = v;
    }
    T pj = p[j];
    if (decay) pj = pj * s.decay;
    p[j] = pj - s.step * (m1j / (std::sqrt(v) + s.eps));
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
  for (size_t i = 0; i < params.size(); ++i) {
    Scalars<T> s;
    s.b1 = T(b1);
    s.b2 = T(b2);
    s.one_minus_b1 = T(one_minus_b1);
    s.one_minus_b2 = T(one_minus_b2);
    T* b1p = b1ps[i].data_ptr<T>();
    T* b2p = b2ps[i].data_ptr<T>();
    // _adam's per-parameter scalars, in T: sqrt(1 - b2^t), lr * sqrt(1 - b2^t) / (1 - b1^t), eps * sqrt(1 - b2^t)
    const T corr2 = std::sqrt(T(1) - *b2p);
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

namespace {

// Elements [begin, end) of one parameter, in the order of Momentum._update (CPU: no rescale_grad):
//   g = g + p*l2 (with L2 decay);  v = v*mu + g;  p = p - v*lr  (Nesterov: p = p - (g + v*mu)*lr)
template <typename T>
void momentum_range(T* p, const T* g, T* vel, T mu, T lr, T l2, bool decay, bool nesterov, int64_t begin,
                    int64_t end) {
  using V = Vectorized<T>;
  const V muv(mu), lrv(lr), l2v(l2);
  int64_t j = begin;
  for (; j + V::size() <= end; j += V::size()) {
    const V pv = V::loadu(p + j);
    V gv = V::loadu(g + j);
    if (decay) gv = gv + pv * l2v;
    const V vv = V::loadu(vel + j) * muv + gv;
    vv.store(vel + j);
    (nesterov ? pv - (gv + vv * muv) * lrv : pv - vv * lrv).store(p + j);
  }
  for (; j < end; ++j) {
    const T pj = p[j];
    T gj = g[j];
    if (decay) gj = gj + pj * l2;
    const T vj = vel[j] * mu + gj;
    vel[j] = vj;
    p[j] = nesterov ? pj - (gj + vj * mu) * lr : pj - vj * lr;
  }
}

// SGD._update: p = p - g*lr
template <typename T>
void sgd_range(T* p, const T* g, T lr, int64_t begin, int64_t end) {
  using V = Vectorized<T>;
  const V lrv(lr);
  int64_t j = begin;
  for (; j + V::size() <= end; j += V::size()) (V::loadu(p + j) - V::loadu(g + j) * lrv).store(p + j);
  for (; j < end; ++j) p[j] = p[j] - g[j] * lr;
}

// The common checks: n parameters with gradients (and velocities unless empty) and per-parameter scalars,
// all plain contiguous CPU tensors of the parameters' dtype (float32 or float64) and shape.
bool checked(const std::vector<at::Tensor>& params, const std::vector<at::Tensor>& grads,
             const std::vector<at::Tensor>& vels, bool with_vels, size_t n_scalars) {
  const size_t n = params.size();
  if (n == 0 || grads.size() != n || (with_vels && vels.size() != n) || n_scalars != n) return false;
  const at::ScalarType dtype = params[0].scalar_type();
  if (dtype != at::kFloat && dtype != at::kDouble) return false;
  for (size_t i = 0; i < n; ++i) {
    const int64_t numel = params[i].numel();
    if (!plain(params[i], dtype, numel) || !plain(grads[i], dtype, numel) ||
        (with_vels && !plain(vels[i], dtype, numel)))
      return false;
  }
  return true;
}

template <typename T>
void run_momentum(std::vector<at::Tensor>& params, const std::vector<at::Tensor>& grads,
                  std::vector<at::Tensor>& vels, const std::vector<double>& lrs, const std::vector<double>& l2s,
                  double mu, bool nesterov) {
  for (size_t i = 0; i < params.size(); ++i) {
    T* p = params[i].data_ptr<T>();
    const T* g = grads[i].data_ptr<T>();
    T* vel = vels[i].data_ptr<T>();
    const T lr = T(lrs[i]), l2 = T(l2s[i]), m = T(mu);
    const bool decay = l2s[i] != 0.0;
    at::parallel_for(0, params[i].numel(), at::internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
      momentum_range<T>(p, g, vel, m, lr, l2, decay, nesterov, begin, end);
    });
  }
}

template <typename T>
void run_sgd(std::vector<at::Tensor>& params, const std::vector<at::Tensor>& grads, const std::vector<double>& lrs) {
  for (size_t i = 0; i < params.size(); ++i) {
    T* p = params[i].data_ptr<T>();
    const T* g = grads[i].data_ptr<T>();
    const T lr = T(lrs[i]);
    at::parallel_for(0, params[i].numel(), at::internal::GRAIN_SIZE,
                     [&](int64_t begin, int64_t end) { sgd_range<T>(p, g, lr, begin, end); });
  }
}

}  // namespace

// The Momentum step of all `params` (`l2s`: the L2 coefficient fused into each update, 0.0 for none).  Returns
// false, touching nothing, where a tensor is not plain (see adam_step).
bool momentum_step(std::vector<at::Tensor> params, std::vector<at::Tensor> grads, std::vector<at::Tensor> vels,
                   std::vector<double> lrs, std::vector<double> l2s, double mu, bool nesterov) {
  if (!checked(params, grads, vels, true, lrs.size()) || l2s.size() != params.size()) return false;
  if (params[0].scalar_type() == at::kFloat)
    run_momentum<float>(params, grads, vels, lrs, l2s, mu, nesterov);
  else
    run_momentum<double>(params, grads, vels, lrs, l2s, mu, nesterov);
  for (auto* list : {&params, &vels})
    for (auto& t : *list) t.unsafeGetTensorImpl()->bump_version();
  return true;
}

// The SGD step of all `params`: p -= g * lr.
bool sgd_step(std::vector<at::Tensor> params, std::vector<at::Tensor> grads, std::vector<double> lrs) {
  if (!checked(params, grads, {}, false, lrs.size())) return false;
  if (params[0].scalar_type() == at::kFloat)
    run_sgd<float>(params, grads, lrs);
  else
    run_sgd<double>(params, grads, lrs);
  for (auto& t : params) t.unsafeGetTensorImpl()->bump_version();
  return true;
}

void bind_optim(pybind11::module_& m) {
  m.def("adam_step", &adam_step);
  m.def("momentum_step", &momentum_step);
  m.def("sgd_step", &sgd_step);
}
