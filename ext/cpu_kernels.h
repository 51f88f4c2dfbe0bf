// What the CPU kernels of the fused ops share (ext/norm.cpp, rope.cpp, swiglu.cpp, cross_entropy.cpp): fp32 row
// helpers on ATen's Vectorized<float> (AVX-512 / AVX2 with the matching CPU_CAPABILITY), streaming stores, the
// bf16 / fp16 row conversion, the output allocation (ext/output_cache.cpp), and the calls of the ops through the
// dispatcher that the autograd kernels make.  Each op's file registers its kernels with TORCH_LIBRARY_IMPL under
// the schema its Python module (kernels/<op>.py) defines with torch.library.custom_op.
#pragma once

#include <torch/extension.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/cpu/vec/vec.h>
#include <ATen/cpu/vec/functional.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

using at::vec::Vectorized;
using fVec = Vectorized<float>;
constexpr int64_t VS = fVec::size();
// rows per task so that a task touches at least ATen's GRAIN_SIZE elements: small problems run on
// the calling thread (waking OpenMP workers costs more than they save, and a lot on a busy machine)
static inline int64_t row_grain(int64_t n) { return std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(n, 1)); }

// ------------------------------------------------------------ float row helpers

// Reductions keep four independent accumulators: a single chain of vector adds is bound by the add latency
// (~4 cycles), which made each pass over a cached row cost more than reading it from memory.
template <typename Step>
static inline fVec reduce4(int64_t n, int64_t& j, Step step) {
  fVec a0(0.f), a1(0.f), a2(0.f), a3(0.f);
  for (j = 0; j + 4 * VS <= n; j += 4 * VS) {
    a0 = step(a0, j); a1 = step(a1, j + VS); a2 = step(a2, j + 2 * VS); a3 = step(a3, j + 3 * VS);
  }
  for (; j + VS <= n; j += VS) a0 = step(a0, j);
  return (a0 + a1) + (a2 + a3);
}

static inline float hsum(const fVec& v) {
  return at::vec::vec_reduce_all<float>([](fVec& u, fVec& w) { return u + w; }, v);
}

static inline float row_sum(const float* a, int64_t n) {
  int64_t j;
  float s = hsum(reduce4(n, j, [&](const fVec& acc, int64_t k) { return acc + fVec::loadu(a + k); }));
  for (; j < n; ++j) s += a[j];
  return s;
}

static inline float row_sumsq(const float* a, int64_t n, float shift) {
  const fVec sh(shift);
  int64_t j;
  float s = hsum(reduce4(n, j, [&](const fVec& acc, int64_t k) {
    const fVec d = fVec::loadu(a + k) - sh;
    return at::vec::fmadd(d, d, acc);
  }));
  for (; j < n; ++j) { float d = a[j] - shift; s += d * d; }
  return s;
}

// s = x + bias + alpha * res  (bias / res optional)
static inline void row_residual(const float* x, const float* res, const float* bias, float alpha, float* s, int64_t n) {
  fVec va(alpha);
  int64_t j = 0;
  for (; j + VS <= n; j += VS) {
    fVec v = fVec::loadu(x + j) + va * fVec::loadu(res + j);
    if (bias) v = v + fVec::loadu(bias + j);
    v.store(s + j);
  }
  for (; j < n; ++j) s[j] = x[j] + alpha * res[j] + (bias ? bias[j] : 0.f);
}

// Streaming (non-temporal) stores write an output line without first reading it into the cache.  When a kernel
// touches more bytes than the last-level cache holds, its output would not stay cached anyway, and streaming
// removes a third of the memory traffic of a one-read-one-write kernel.  Smaller working sets use plain stores, so
// the output stays cached for whoever reads it next.  Only fp32 outputs whose rows start on a vector boundary
// stream; each parallel chunk ends with a fence (streaming stores are weakly ordered).
static inline void vstore(const fVec& v, float* p, bool nt) {
#if defined(CPU_CAPABILITY_AVX512)
  if (nt) { _mm512_stream_ps(p, v); return; }
#elif defined(CPU_CAPABILITY_AVX2)
  if (nt) { _mm256_stream_ps(p, v); return; }
#endif
  v.store(p);
}
static inline void nt_fence(bool nt) {
#if defined(CPU_CAPABILITY_AVX512) || defined(CPU_CAPABILITY_AVX2)
  if (nt) _mm_sfence();
#endif
}
// the last-level cache one core sees: sysfs's cpu0 cache of the highest level (sysconf's L3 size is the whole
// socket's on AMD, 12 dies of 32 MiB); 32 MiB when unknown
static inline size_t llc_bytes() {
  static const size_t n = [] {
    size_t best = 0;
    int best_level = 0;
    for (int i = 0; i < 8; ++i) {
      const std::string d = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
      std::ifstream lf(d + "level"), sf(d + "size"), tf(d + "type");
      int level = 0;
      std::string size, type;
      if (!(lf >> level) || !(sf >> size) || !(tf >> type) || type == "Instruction" || level < best_level) continue;
      size_t v = std::strtoull(size.c_str(), nullptr, 10);
      if (!size.empty() && size.back() == 'K') v <<= 10;
      if (!size.empty() && size.back() == 'M') v <<= 20;
      if (v) { best = v; best_level = level; }
    }
    return best ? best : size_t(32) << 20;
  }();
  return n;
}
// `touched`: every byte the kernel reads or writes
static inline bool streams(const at::Tensor& out, int64_t row_len, size_t touched) {
  return out.scalar_type() == at::kFloat && touched > llc_bytes() && row_len % VS == 0 &&
         reinterpret_cast<uintptr_t>(out.data_ptr()) % sizeof(fVec) == 0;
}

// out = (s - shift) * scale * w + b   (w / b optional)
static inline void row_affine(const float* s, float shift, float scale, const float* w, const float* b, float* out, int64_t n,
                              bool nt = false) {
  fVec vsh(shift), vsc(scale);
  int64_t j = 0;
  for (; j + VS <= n; j += VS) {
    fVec v = (fVec::loadu(s + j) - vsh) * vsc;
    if (w) v = v * fVec::loadu(w + j);
    if (b) v = v + fVec::loadu(b + j);
    vstore(v, out + j, nt);
  }
  for (; j < n; ++j) {
    float v = (s[j] - shift) * scale;
    if (w) v *= w[j];
    if (b) v += b[j];
    out[j] = v;
  }
}

// ------------------------------------------------------------ outputs (ext/output_cache.cpp)
// A CPU tensor without the dispatcher call of at::empty (~0.5 us, as much as a small kernel's row work).
at::Tensor cpu_empty(at::IntArrayRef sizes, const at::TensorOptions& opt);
// Outputs of 1 MiB and more: from the cache of freed blocks.
at::Tensor big_empty(at::IntArrayRef sizes, const at::TensorOptions& opt);

// ------------------------------------------------------------ dtype plumbing
// A row of T is read as float: fp32 rows are used in place, others converted into a buffer.

template <typename T> struct Row {
  static const float* in(const T* p, int64_t n, float* buf) { at::vec::convert(p, buf, n); return buf; }
  static float* out_buf(T*, float* buf) { return buf; }
  static void flush(const float* buf, T* p, int64_t n) { at::vec::convert(buf, p, n); }
};
template <> struct Row<float> {
  static const float* in(const float* p, int64_t, float*) { return p; }
  static float* out_buf(float* p, float*) { return p; }
  static void flush(const float*, float*, int64_t) {}
};

static inline at::Tensor as_float(const c10::optional<at::Tensor>& t) {
  if (!t.has_value() || !t->defined()) return at::Tensor();
  if (t->scalar_type() == at::kFloat && t->is_contiguous()) return *t;  // no dispatcher calls (~1 us each)
  return t->to(at::kFloat).contiguous();
}
static inline const float* fptr(const at::Tensor& t) { return t.defined() ? t.data_ptr<float>() : nullptr; }

#define DISPATCH_FLOATING(TYPE, NAME, ...)                                         \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                    \
    AT_DISPATCH_CASE(at::kFloat, __VA_ARGS__)                                       \
    AT_DISPATCH_CASE(at::kBFloat16, __VA_ARGS__)                                    \
    AT_DISPATCH_CASE(at::kHalf, __VA_ARGS__))


// The kernels' dtypes (float64 and empty inputs take each op's ATen composition in its file).
static inline bool fast_dtype(const at::Tensor& t) {
  const auto s = t.scalar_type();
  return (s == at::kFloat || s == at::kBFloat16 || s == at::kHalf) && t.numel() > 0;
}

static inline bool given(const c10::optional<at::Tensor>& t) { return t.has_value() && t->defined(); }

// Whether an autograd kernel has a graph to record: grad mode on and an input that requires grad.  Without one it
// calls its op below the autograd keys at once (no node: what autograd itself does for an ATen op).
static inline bool needs_grad_of(const at::Tensor& t) { return t.defined() && t.requires_grad(); }
static inline bool needs_grad_of(const c10::optional<at::Tensor>& t) { return given(t) && t->requires_grad(); }
template <typename... Ts>
static inline bool grad_needed(const Ts&... ts) {
  return at::GradMode::is_enabled() && (needs_grad_of(ts) || ...);
}

// The op `name` of namespace paddle_on_torch as a typed handle, looked up on first use (its schema is defined by
// the Python module, which imports before any call).  The autograd kernels call their ops through it below the
// autograd keys, so a call on fake tensors (torch.compile, export) reaches the fake kernel.
template <typename Sig>
static c10::TypedOperatorHandle<Sig> op_handle(const char* name) {
  return c10::Dispatcher::singleton().findSchemaOrThrow(name, "").template typed<Sig>();
}
