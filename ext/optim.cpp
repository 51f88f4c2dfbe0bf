// The CPU kernels of the optimizer-step ops paddle_on_torch::adam_step / momentum_step / sgd_step (their schemas,
// fakes and reference composition in torch foreach ops: kernels/optim.py), registered with TORCH_LIBRARY_IMPL when
// paddle_on_torch.kernels._C loads; behind the multi-tensor step of Adam / AdamW (paddle_on_torch.optimizer.adam),
// Momentum and SGD.
//
// One call updates every parameter of a step: per element it reads the gradient, both moments and the
// parameter once and writes them once, where the composition of torch ops makes ~14 passes over
// memory (one per elementwise op, plus the temporaries).  It runs Paddle's update op by op as
// optimizer/adam.py's `_adam` does -- every product, sum, quotient and square root rounded on its own
// in the parameter's dtype -- so the bits are those of the per-parameter path.  That is why this
// file is compiled without floating-point contraction (the pragma below): otherwise the compiler may fuse
// `m * b1 + g * (1 - b1)` into one fused multiply-add, which rounds once.  IEEE add, mul, div and sqrt
// are correctly rounded in scalar and vector form alike, so the vector body and the scalar tail agree
// with the torch ops (whose square roots are correctly rounded too: kernels/optim.py's sqrt_rounded).
//
// The kernels are boxed: they read the tensor lists where the dispatcher left them, on its stack, without copying
// them into std::vectors.  What a call costs beyond the kernel's own work is the dispatcher's boxing of the lists
// (~0.1 us per tensor operand from Python, docs/kernels.md).
// Before any include: it applies to every function compiled in this file, ATen's inlined vector ops included.
#pragma GCC optimize("fp-contract=off")

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/stack.h>
#include <ATen/cpu/vec/vec.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/library.h>

#include <cmath>
#include <memory>
#include <vector>

using at::vec::Vectorized;
using c10::IValue;

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


// One tensor-list argument of an op, as its kernel works on it: the tensors on the dispatcher's stack where they
// are contiguous, else contiguous copies, written back by finish() for a list the op updates.
class Operand {
 public:
  // Checks that `list` holds n dense CPU tensors of `dtype`, the i-th of numel(i) elements.
  template <typename Numel>
  Operand(const char* op, const char* name, c10::ArrayRef<IValue> list, size_t n, at::ScalarType dtype, Numel numel)
      : list_(list) {
    TORCH_CHECK(list.size() == n, op, ": ", name, " holds ", list.size(), " tensors for ", n, " parameters");
    for (size_t i = 0; i < n; ++i) {
      const at::Tensor& t = list[i].toTensor();
      TORCH_CHECK(t.defined() && t.device().is_cpu() && t.layout() == at::kStrided && t.scalar_type() == dtype, op,
                  ": ", name, "[", i, "] must be a dense CPU tensor of the parameters' dtype ", dtype,
                  " (the CPU kernel takes float32 or float64)");
      TORCH_CHECK(t.numel() == numel(i), op, ": ", name, "[", i, "] has ", t.numel(), " elements, expected ",
                  numel(i));
      if (!t.is_contiguous() || t.is_neg()) {
        if (copies_.empty()) copies_.resize(n);
        copies_[i] = t.resolve_neg().contiguous();
      }
    }
  }
  template <typename T>
  T* data(size_t i) const {
    return (copies_.empty() || !copies_[i].defined() ? list_[i].toTensor() : copies_[i]).data_ptr<T>();
  }
  // Writes the copies back and bumps every tensor's version counter, as torch's in-place ops do (so autograd
  // still notices a tensor saved for a backward that changed since).
  void finish() const {
    for (size_t i = 0; i < list_.size(); ++i) {
      const at::Tensor& t = list_[i].toTensor();
      if (!copies_.empty() && copies_[i].defined()) t.copy_(copies_[i]);
      t.unsafeGetTensorImpl()->bump_version();
    }
  }

 private:
  c10::ArrayRef<IValue> list_;
  std::vector<at::Tensor> copies_;
};

// The parameters' dtype, which every tensor of the step shares; n >= 1.
at::ScalarType step_dtype(const char* op, c10::ArrayRef<IValue> params) {
  const at::ScalarType dtype = params[0].toTensor().scalar_type();
  TORCH_CHECK(dtype == at::kFloat || dtype == at::kDouble, op, ": the CPU kernel takes float32 or float64 tensors, got ",
              dtype);
  return dtype;
}

void check_count(const char* op, const char* name, c10::ArrayRef<IValue> values, size_t n) {
  TORCH_CHECK(values.size() == n, op, ": ", name, " holds ", values.size(), " numbers for ", n, " parameters");
}

auto numel_of(c10::ArrayRef<IValue> params) {
  return [params](size_t i) { return params[i].toTensor().numel(); };
}

int64_t one(size_t) { return 1; }


template <typename T>
void adam_run(const Operand& p, const Operand& g, const Operand& m1s, const Operand& m2s, const Operand* vmaxs,
              const Operand& b1ps, const Operand& b2ps, c10::ArrayRef<IValue> params, c10::ArrayRef<IValue> lrs,
              c10::ArrayRef<IValue> decays, double b1, double b2, double one_minus_b1, double one_minus_b2,
              double eps) {
  for (size_t i = 0; i < params.size(); ++i) {
    Scalars<T> s;
    s.b1 = T(b1);
    s.b2 = T(b2);
    s.one_minus_b1 = T(one_minus_b1);
    s.one_minus_b2 = T(one_minus_b2);
    T* b1p = b1ps.data<T>(i);
    T* b2p = b2ps.data<T>(i);
    // _adam's per-parameter scalars, in T: sqrt(1 - b2^t), lr * sqrt(1 - b2^t) / (1 - b1^t), eps * sqrt(1 - b2^t)
    const T corr2 = std::sqrt(T(1) - *b2p);
    s.step = T(lrs[i].toDouble()) * corr2 / (T(1) - *b1p);
    s.eps = T(eps) * corr2;
    const double decay = decays[i].toDouble();
    s.decay = T(decay);
    T* pp = p.data<T>(i);
    const T* gp = g.data<T>(i);
    T* m1 = m1s.data<T>(i);
    T* m2 = m2s.data<T>(i);
    T* vmax = vmaxs ? vmaxs->data<T>(i) : nullptr;
    at::parallel_for(0, params[i].toTensor().numel(), at::internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
      adam_range<T>(pp, gp, m1, m2, vmax, s, decay != 1.0, begin, end);
    });
    *b1p = *b1p * s.b1;
    *b2p = *b2p * s.b2;
  }
}

// adam_step(Tensor(a!)[] params, Tensor[] grads, Tensor(b!)[] moment1, Tensor(c!)[] moment2,
//           Tensor(d!)[] moment2_max, Tensor(e!)[] beta1_pow, Tensor(f!)[] beta2_pow, float[] lrs, float[] decays,
//           float beta1, float beta2, float one_minus_beta1, float one_minus_beta2, float epsilon) -> ()
// moment2_max empty without amsgrad; decays: AdamW's factor 1 - lr * coeff per parameter, 1.0 for none.
void adam_step(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  constexpr const char* op = "paddle_on_torch::adam_step";
  const auto args = torch::jit::last(*stack, 14);
  const auto params = args[0].toListRef();
  const size_t n = params.size();
  if (n) {
    at::AutoDispatchBelowADInplaceOrView below;  // the copies (non-contiguous operands) record no autograd history
    const at::ScalarType dtype = step_dtype(op, params);
    const auto numel = numel_of(params);
    const Operand p(op, "params", params, n, dtype, numel), g(op, "grads", args[1].toListRef(), n, dtype, numel),
        m1(op, "moment1", args[2].toListRef(), n, dtype, numel), m2(op, "moment2", args[3].toListRef(), n, dtype, numel),
        b1p(op, "beta1_pow", args[5].toListRef(), n, dtype, one), b2p(op, "beta2_pow", args[6].toListRef(), n, dtype, one);
    const auto vmax_list = args[4].toListRef();
    std::unique_ptr<Operand> vmax;
    if (!vmax_list.empty()) vmax = std::make_unique<Operand>(op, "moment2_max", vmax_list, n, dtype, numel);
    const auto lrs = args[7].toListRef(), decays = args[8].toListRef();
    check_count(op, "lrs", lrs, n);
    check_count(op, "decays", decays, n);
    const double b1 = args[9].toDouble(), b2 = args[10].toDouble(), c1 = args[11].toDouble(),
                 c2 = args[12].toDouble(), eps = args[13].toDouble();
    if (dtype == at::kFloat)
      adam_run<float>(p, g, m1, m2, vmax.get(), b1p, b2p, params, lrs, decays, b1, b2, c1, c2, eps);
    else
      adam_run<double>(p, g, m1, m2, vmax.get(), b1p, b2p, params, lrs, decays, b1, b2, c1, c2, eps);
    for (const Operand* o : {&p, &m1, &m2, &b1p, &b2p}) o->finish();
    if (vmax) vmax->finish();
  }
  torch::jit::drop(*stack, 14);
}


// momentum_step(Tensor(a!)[] params, Tensor[] grads, Tensor(b!)[] velocity, float[] lrs, float[] l2, float mu,
//               bool nesterov) -> ()
// l2: the L2 coefficient fused into each update, 0.0 for none.
void momentum_step(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  constexpr const char* op = "paddle_on_torch::momentum_step";
  const auto args = torch::jit::last(*stack, 7);
  const auto params = args[0].toListRef();
  const size_t n = params.size();
  if (n) {
    at::AutoDispatchBelowADInplaceOrView below;
    const at::ScalarType dtype = step_dtype(op, params);
    const auto numel = numel_of(params);
    const Operand p(op, "params", params, n, dtype, numel), g(op, "grads", args[1].toListRef(), n, dtype, numel),
        vel(op, "velocity", args[2].toListRef(), n, dtype, numel);
    const auto lrs = args[3].toListRef(), l2s = args[4].toListRef();
    check_count(op, "lrs", lrs, n);
    check_count(op, "l2", l2s, n);
    const double mu = args[5].toDouble();
    const bool nesterov = args[6].toBool();
    auto run = [&](auto zero) {
      using T = decltype(zero);
      for (size_t i = 0; i < n; ++i) {
        T* pp = p.data<T>(i);
        const T* gp = g.data<T>(i);
        T* v = vel.data<T>(i);
        const double l2 = l2s[i].toDouble();
        const T lr = T(lrs[i].toDouble()), l2t = T(l2), m = T(mu);
        at::parallel_for(0, params[i].toTensor().numel(), at::internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
          momentum_range<T>(pp, gp, v, m, lr, l2t, l2 != 0.0, nesterov, begin, end);
        });
      }
    };
    if (dtype == at::kFloat)
      run(float(0));
    else
      run(double(0));
    p.finish();
    vel.finish();
  }
  torch::jit::drop(*stack, 7);
}

// sgd_step(Tensor(a!)[] params, Tensor[] grads, float[] lrs) -> ()
void sgd_step(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  constexpr const char* op = "paddle_on_torch::sgd_step";
  const auto args = torch::jit::last(*stack, 3);
  const auto params = args[0].toListRef();
  const size_t n = params.size();
  if (n) {
    at::AutoDispatchBelowADInplaceOrView below;
    const at::ScalarType dtype = step_dtype(op, params);
    const auto numel = numel_of(params);
    const Operand p(op, "params", params, n, dtype, numel), g(op, "grads", args[1].toListRef(), n, dtype, numel);
    const auto lrs = args[2].toListRef();
    check_count(op, "lrs", lrs, n);
    auto run = [&](auto zero) {
      using T = decltype(zero);
      for (size_t i = 0; i < n; ++i) {
        T* pp = p.data<T>(i);
        const T* gp = g.data<T>(i);
        const T lr = T(lrs[i].toDouble());
        at::parallel_for(0, params[i].toTensor().numel(), at::internal::GRAIN_SIZE,
                         [&](int64_t begin, int64_t end) { sgd_range<T>(pp, gp, lr, begin, end); });
      }
    };
    if (dtype == at::kFloat)
      run(float(0));
    else
      run(double(0));
    p.finish();
  }
  torch::jit::drop(*stack, 3);
}

}  // namespace

// The schemas are kernels/optim.py's; Autograd falls through to these (registered there: the steps are not
// differentiable), ADInplaceOrView too (torch's default; the kernels bump the version counters themselves).
TORCH_LIBRARY_IMPL(paddle_on_torch, CPU, m) {
  m.impl("adam_step", torch::CppFunction::makeFromBoxedFunction<&adam_step>());
  m.impl("momentum_step", torch::CppFunction::makeFromBoxedFunction<&momentum_step>());
  m.impl("sgd_step", torch::CppFunction::makeFromBoxedFunction<&sgd_step>());
}
