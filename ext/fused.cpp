// C++ CPU kernels for the fused ops (paddle_on_torch.kernels.fused): norms, rotary embedding, swiglu and
// cross entropy.  fp32 rows use ATen's Vectorized<float> (AVX-512 / AVX2 when built with the matching
// CPU_CAPABILITY); bf16 / fp16 rows are converted to fp32 row by row.  Rows are split across threads with
// at::parallel_for (OpenMP).
#include "fused.h"
#include <ATen/Parallel.h>
#include <ATen/cpu/vec/vec.h>
#include <ATen/cpu/vec/functional.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <cmath>
#include <limits>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>
#include <ATen/EmptyTensor.h>

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
static size_t llc_bytes() {
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
static bool streams(const at::Tensor& out, int64_t row_len, size_t touched) {
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

// ------------------------------------------------------------ big outputs: a cache of freed blocks
// glibc serves every allocation of 32 MiB or more (and smaller ones, until its threshold adapts) with a fresh mmap,
// which the kernel faults in and zeroes page by page on first touch: for a [4096, 4096] fp32 output that costs
// ~5x the kernel itself, and the grad buffers of a backward pay it again.  Outputs of 1 MiB and more therefore come
// from a small cache of freed blocks, as GPU caching allocators (and Paddle's own CPU allocator) do: when torch
// frees such a tensor its block goes back to the cache, and the next output of that rounded size reuses pages
// already mapped.  The cache holds at most `limit` bytes of free blocks (PADDLE_ON_TORCH_KERNEL_CACHE_MB, default
// 512; 0 turns it off); empty_cache() gives them back.  Blocks are 2 MiB aligned and ask for transparent huge
// pages, so even a first touch costs 2 MiB faults instead of 4 KiB ones.
namespace {
constexpr size_t kHuge = size_t(2) << 20, kMinCached = size_t(1) << 20;

struct BlockCache {
  std::mutex mu;
  std::unordered_multimap<size_t, void*> blocks;  // rounded size -> free block
  size_t cached = 0;
  std::atomic<size_t> limit{0};
  BlockCache() {
    const char* e = std::getenv("PADDLE_ON_TORCH_KERNEL_CACHE_MB");
    limit = (e && *e ? size_t(std::max(0L, std::atol(e))) : size_t(512)) << 20;
  }
};
BlockCache& cache() { static BlockCache* c = new BlockCache(); return *c; }  // never destroyed: frees may come late

struct Block { void* p; size_t n; };

// Over the limit, other cached blocks make room for the one coming back, so sizes still in use win over sizes that
// stopped recurring (varying shapes).
void give_back(void* ctx) {
  Block* b = static_cast<Block*>(ctx);
  BlockCache& c = cache();
  {
    std::lock_guard<std::mutex> g(c.mu);
    while (c.cached + b->n > c.limit && !c.blocks.empty() && b->n <= c.limit) {
      auto it = c.blocks.begin();
      std::free(it->second);
      c.cached -= it->first;
      c.blocks.erase(it);
    }
    if (c.cached + b->n <= c.limit) {
      c.blocks.emplace(b->n, b->p);
      c.cached += b->n;
      delete b;
      return;
    }
  }
  std::free(b->p);
  delete b;
}

struct CachingAllocator final : at::Allocator {
  at::DataPtr allocate(size_t nbytes) override {
    const size_t n = (nbytes + kHuge - 1) / kHuge * kHuge;
    void* p = nullptr;
    BlockCache& c = cache();
    {
      std::lock_guard<std::mutex> g(c.mu);
      auto it = c.blocks.find(n);
      if (it != c.blocks.end()) { p = it->second; c.blocks.erase(it); c.cached -= n; }
    }
    if (!p) {
      p = std::aligned_alloc(kHuge, n);
      TORCH_CHECK(p, "paddle_on_torch kernels: out of memory allocating ", n, " bytes");
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      madvise(p, n, MADV_HUGEPAGE);  // advisory: failure is harmless
#endif
    }
    return {p, new Block{p, n}, &give_back, at::Device(at::kCPU)};
  }
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
};
CachingAllocator& caching_allocator() { static CachingAllocator* a = new CachingAllocator(); return *a; }
}  // namespace

// A CPU tensor without the dispatcher call of at::empty (~0.5 us, as much as a small kernel's row work).
static at::Tensor cpu_empty(at::IntArrayRef sizes, const at::TensorOptions& opt) {
  return at::detail::empty_cpu(sizes, opt);
}

static at::Tensor big_empty(at::IntArrayRef sizes, const at::TensorOptions& opt) {
  int64_t numel = 1;
  for (auto s : sizes) numel *= s;
  if (size_t(numel) * c10::elementSize(opt.dtype().toScalarType()) < kMinCached || cache().limit.load() == 0)
    return cpu_empty(sizes, opt);
  return at::detail::empty_generic(sizes, &caching_allocator(), c10::DispatchKeySet(c10::DispatchKey::CPU),
                                   opt.dtype().toScalarType(), c10::nullopt);
}

void empty_cache() {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> g(c.mu);
  for (auto& kv : c.blocks) std::free(kv.second);
  c.blocks.clear();
  c.cached = 0;
}

// the cache's bound in bytes (PADDLE_ON_TORCH_KERNEL_CACHE_MB at start-up); returns the previous one
int64_t set_cache_limit(int64_t bytes) {
  BlockCache& c = cache();
  const size_t old = c.limit.exchange(size_t(std::max<int64_t>(0, bytes)));
  std::lock_guard<std::mutex> g(c.mu);
  while (c.cached > c.limit && !c.blocks.empty()) {
    auto it = c.blocks.begin();
    std::free(it->second);
    c.cached -= it->first;
    c.blocks.erase(it);
  }
  return int64_t(old);
}

int64_t cached_bytes() { std::lock_guard<std::mutex> g(cache().mu); return int64_t(cache().cached); }

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

static at::Tensor as_float(const c10::optional<at::Tensor>& t) {
  if (!t.has_value() || !t->defined()) return at::Tensor();
  if (t->scalar_type() == at::kFloat && t->is_contiguous()) return *t;  // no dispatcher calls (~1 us each)
  return t->to(at::kFloat).contiguous();
}
static const float* fptr(const at::Tensor& t) { return t.defined() ? t.data_ptr<float>() : nullptr; }

#define DISPATCH_FLOATING(TYPE, NAME, ...)                                         \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                    \
    AT_DISPATCH_CASE(at::kFloat, __VA_ARGS__)                                       \
    AT_DISPATCH_CASE(at::kBFloat16, __VA_ARGS__)                                    \
    AT_DISPATCH_CASE(at::kHalf, __VA_ARGS__))

// ------------------------------------------------------------ norm forward
// x: [M, N] contiguous.  Returns out [M, N], residual_out [M, N] (empty if no residual),
// mean [M] (layer norm; empty for rms), rstd [M] (float32).
// `out` may be given (contiguous [M, N] of x's dtype): a fresh 64 MiB output costs ~16k page faults on
// first touch, more than the kernel itself (bench/kernels.py measures both).
std::vector<at::Tensor> norm_fwd_impl(const at::Tensor& x, const c10::optional<at::Tensor>& residual,
                                 const c10::optional<at::Tensor>& bias, const c10::optional<at::Tensor>& weight,
                                 const c10::optional<at::Tensor>& norm_bias, double eps, double alpha, bool rms,
                                 at::Tensor out, at::IntArrayRef shape) {
  // shape: the sizes out / residual_out are allocated with ([M, N] when empty; the C++ autograd node passes x's
  // original shape, so that its outputs are not views)
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "norm_fwd: x must be a contiguous 2-D tensor");
  const int64_t M = x.size(0), N = x.size(1);
  const bool has_res = residual.has_value() && residual->defined();
  at::Tensor res = has_res ? residual->contiguous() : at::Tensor();
  at::Tensor b = has_res ? as_float(bias) : at::Tensor();  // Paddle adds bias only together with residual
  at::Tensor w = as_float(weight), nb = as_float(norm_bias);
  if (out.defined()) {
    TORCH_CHECK(out.sizes() == x.sizes() && out.scalar_type() == x.scalar_type() && out.is_contiguous(),
                "norm_fwd_out: out must be a contiguous tensor of x's shape and dtype");
  } else {
    out = big_empty(shape.empty() ? x.sizes() : shape, x.options());
  }
  at::Tensor res_out = has_res ? big_empty(shape.empty() ? x.sizes() : shape, x.options()) : cpu_empty({0}, x.options());
  auto fopt = x.options().dtype(at::kFloat);
  at::Tensor mean = cpu_empty({rms ? 0 : M}, fopt);
  at::Tensor rstd = cpu_empty({M}, fopt);
  const float *pb = fptr(b), *pw = fptr(w), *pnb = fptr(nb);
  float* pmean = rms ? nullptr : mean.data_ptr<float>();
  float* prstd = rstd.data_ptr<float>();
  const float a = (float)alpha, e = (float)eps;
  const bool nt = streams(out, N, (has_res ? 4 : 2) * out.nbytes());
  DISPATCH_FLOATING(x.scalar_type(), "norm_fwd", [&] {
    const scalar_t* px = x.data_ptr<scalar_t>();
    const scalar_t* pr = has_res ? res.data_ptr<scalar_t>() : nullptr;
    scalar_t* po = out.data_ptr<scalar_t>();
    scalar_t* pro = has_res ? res_out.data_ptr<scalar_t>() : nullptr;
    at::parallel_for(0, M, row_grain(N), [&](int64_t r0, int64_t r1) {
      std::vector<float> b1(std::is_same<scalar_t, float>::value ? 0 : N), b2(b1.size()), b3(b1.size());
      for (int64_t r = r0; r < r1; ++r) {
        const float* s;
        if (has_res) {
          const float* xr = Row<scalar_t>::in(px + r * N, N, b1.data());
          const float* rr = Row<scalar_t>::in(pr + r * N, N, b2.data());
          float* so = Row<scalar_t>::out_buf(pro + r * N, b3.data());
          row_residual(xr, rr, pb, a, so, N);
          Row<scalar_t>::flush(so, pro + r * N, N);
          s = so;
        } else {
          s = Row<scalar_t>::in(px + r * N, N, b1.data());
        }
        float mu = 0.f;
        if (!rms) mu = row_sum(s, N) / N;
        float var = row_sumsq(s, N, mu) / N;
        float rs = 1.f / std::sqrt(var + e);
        if (!rms) pmean[r] = mu;
        prstd[r] = rs;
        float* o = Row<scalar_t>::out_buf(po + r * N, b2.data());
        row_affine(s, mu, rs, pw, pnb, o, N, nt);
        Row<scalar_t>::flush(o, po + r * N, N);
      }
      nt_fence(nt);
    });
  });
  return {out, res_out, mean, rstd};
}

std::vector<at::Tensor> norm_fwd(const at::Tensor& x, const c10::optional<at::Tensor>& residual,
                                 const c10::optional<at::Tensor>& bias, const c10::optional<at::Tensor>& weight,
                                 const c10::optional<at::Tensor>& norm_bias, double eps, double alpha, bool rms) {
  return norm_fwd_impl(x, residual, bias, weight, norm_bias, eps, alpha, rms, at::Tensor());
}

std::vector<at::Tensor> norm_fwd_out(const at::Tensor& x, const c10::optional<at::Tensor>& residual,
                                     const c10::optional<at::Tensor>& bias, const c10::optional<at::Tensor>& weight,
                                     const c10::optional<at::Tensor>& norm_bias, double eps, double alpha, bool rms,
                                     at::Tensor out) {
  return norm_fwd_impl(x, residual, bias, weight, norm_bias, eps, alpha, rms, out);
}

// ------------------------------------------------------------ norm backward
// s: the normalised input [M, N] (x, or residual_out), dy: [M, N].  Returns ds [M, N],
// dweight [N] (float32, empty if no weight), dnorm_bias [N] (float32, empty unless want_db).
// One pass over dy and s from memory: rows go in blocks of RB; pass 1 takes each row's two sums (dy*w*(s-mu),
// dy*w), pass 2 re-reads the block (still in L2) column chunk by column chunk, writes ds and adds the block's
// dy*xhat and dy into the thread's dweight / dbias partial once per chunk rather than once per row.  No per-row
// temporaries are written; the partials are summed over threads at the end ([threads, N], small).
// dy: contiguous, or (from the C++ autograd node) one contiguous row broadcast over all rows (sdy = 0: the
// gradient of a sum(), which is not materialised).  want_ds = false skips ds (the input needs no gradient).
std::vector<at::Tensor> norm_bwd_impl(const at::Tensor& dy, int64_t sdy, const at::Tensor& s,
                                             const at::Tensor& mean, const at::Tensor& rstd,
                                             const c10::optional<at::Tensor>& weight, bool rms, bool want_ds,
                                             bool want_dw, bool want_db) {
  TORCH_CHECK(dy.is_contiguous() && s.is_contiguous(), "norm_bwd: contiguous inputs expected");
  const int64_t M = s.size(0), N = s.size(1);
  TORCH_CHECK(dy.numel() == (sdy == 0 ? N : M * N), "norm_bwd: dy does not match s");
  at::Tensor w = as_float(weight);
  const float* pw = fptr(w);
  at::Tensor ds = want_ds ? big_empty({M, N}, s.options()) : at::Tensor();
  const int64_t nchunks = std::max<int64_t>(1, std::min<int64_t>(at::get_num_threads(), (M + row_grain(N) - 1) / row_grain(N)));
  auto partials = [&](bool want) {  // [chunks, N] float zeros (memset: one dispatcher call fewer than at::zeros)
    if (!want) return at::Tensor();
    at::Tensor t = cpu_empty({nchunks, N}, s.options().dtype(at::kFloat));
    std::memset(t.data_ptr<float>(), 0, sizeof(float) * nchunks * N);
    return t;
  };
  at::Tensor pdw = partials(want_dw), pdb = partials(want_db);
  const float* pmean = rms ? nullptr : mean.data_ptr<float>();
  const float* prstd = rstd.data_ptr<float>();
  constexpr int64_t RBMAX = 8;
  const int64_t RB = std::max<int64_t>(1, std::min<int64_t>(RBMAX, 65536 / std::max<int64_t>(N, 1)));  // <= 512 KiB of rows
  const bool nt = want_ds && streams(ds, N, 3 * ds.nbytes());
  DISPATCH_FLOATING(s.scalar_type(), "norm_bwd", [&] {
    constexpr bool F32 = std::is_same<scalar_t, float>::value;
    const scalar_t* pdy = dy.data_ptr<scalar_t>();
    const scalar_t* ps = s.data_ptr<scalar_t>();
    scalar_t* pds = want_ds ? ds.data_ptr<scalar_t>() : nullptr;
    at::parallel_for(0, nchunks, 1, [&](int64_t c0, int64_t c1) {
      std::vector<float> bdy(F32 ? 0 : RB * N), bs(bdy.size()), bo(bdy.size());
      const float* dyr[RBMAX];
      const float* sr[RBMAX];
      float* orow[RBMAX];
      float mu[RBMAX], rs[RBMAX], cgx[RBMAX], cg[RBMAX];
      for (int64_t c = c0; c < c1; ++c) {
        const int64_t r0 = c * M / nchunks, r1 = (c + 1) * M / nchunks;
        float* dwc = want_dw ? pdw.data_ptr<float>() + c * N : nullptr;
        float* dbc = want_db ? pdb.data_ptr<float>() + c * N : nullptr;
        for (int64_t rb = r0; rb < r1; rb += RB) {
          const int64_t nr = std::min(RB, r1 - rb);
          for (int64_t i = 0; i < nr; ++i) {  // pass 1: the row sums
            const int64_t r = rb + i;
            dyr[i] = Row<scalar_t>::in(pdy + r * sdy, N, bdy.data() + i * N);
            sr[i] = Row<scalar_t>::in(ps + r * N, N, bs.data() + i * N);
            orow[i] = pds ? Row<scalar_t>::out_buf(pds + r * N, bo.data() + i * N) : nullptr;
            mu[i] = rms ? 0.f : pmean[r];
            rs[i] = prstd[r];
            if (!pds) continue;  // the sums only serve ds; dweight / dbias need dy and xhat alone
            const fVec vmu(mu[i]);
            fVec a1(0.f), a2(0.f), b1(0.f), b2(0.f);  // two chains each (add latency)
            auto step = [&](fVec& u1, fVec& u2, int64_t k) {
              fVec g = fVec::loadu(dyr[i] + k);
              if (pw) g = g * fVec::loadu(pw + k);
              u1 = at::vec::fmadd(g, fVec::loadu(sr[i] + k) - vmu, u1);
              u2 = u2 + g;
            };
            int64_t j = 0;
            for (; j + 2 * VS <= N; j += 2 * VS) { step(a1, a2, j); step(b1, b2, j + VS); }
            for (; j + VS <= N; j += VS) step(a1, a2, j);
            float sgx = hsum(a1 + b1), sg = hsum(a2 + b2);
            for (; j < N; ++j) {
              const float g = pw ? dyr[i][j] * pw[j] : dyr[i][j];
              sgx += g * (sr[i][j] - mu[i]);
              sg += g;
            }
            cgx[i] = sgx * rs[i] / N;  // mean of g * xhat
            cg[i] = rms ? 0.f : sg / N;
          }
          int64_t j = 0;  // pass 2: ds = (g - mean(g) - xhat * mean(g * xhat)) * rstd, and the partials
          for (; j + VS <= N; j += VS) {
            const fVec wv = pw ? fVec::loadu(pw + j) : fVec(1.f);
            fVec vdw = dwc ? fVec::loadu(dwc + j) : fVec(0.f), vdb = dbc ? fVec::loadu(dbc + j) : fVec(0.f);
            for (int64_t i = 0; i < nr; ++i) {
              const fVec d = fVec::loadu(dyr[i] + j), vrs(rs[i]);
              const fVec xh = (fVec::loadu(sr[i] + j) - fVec(mu[i])) * vrs;
              if (pds) vstore((d * wv - fVec(cg[i]) - xh * fVec(cgx[i])) * vrs, orow[i] + j, nt);
              vdw = at::vec::fmadd(d, xh, vdw);
              vdb = vdb + d;
            }
            if (dwc) vdw.store(dwc + j);
            if (dbc) vdb.store(dbc + j);
          }
          for (; j < N; ++j) {
            const float wj = pw ? pw[j] : 1.f;
            for (int64_t i = 0; i < nr; ++i) {
              const float d = dyr[i][j], xh = (sr[i][j] - mu[i]) * rs[i];
              if (pds) orow[i][j] = (d * wj - cg[i] - xh * cgx[i]) * rs[i];
              if (dwc) dwc[j] += d * xh;
              if (dbc) dbc[j] += d;
            }
          }
          if (pds)
            for (int64_t i = 0; i < nr; ++i) Row<scalar_t>::flush(orow[i], pds + (rb + i) * N, N);
        }
      }
      nt_fence(nt);
    });
  });
  at::Tensor dw = want_dw ? (nchunks == 1 ? pdw[0] : pdw.sum(0)) : at::Tensor();
  at::Tensor db = want_db ? (nchunks == 1 ? pdb[0] : pdb.sum(0)) : at::Tensor();
  return {ds, dw, db};
}

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

at::Tensor swiglu_fwd(const at::Tensor& x, const at::Tensor& y) { return swiglu_fwd_impl(x, y, {}); }

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


// ------------------------------------------------------------ softmax cross entropy (hard labels)
// logits: [M, V] with unit column stride; labels: [M] int64.  Row by row, in two passes over a row
// (max, then sum of exp): loss = lse - x[label], and lse is kept for the backward, so the softmax
// [M, V] is never stored.  Rows whose label is ignore_index get loss 0.
std::vector<at::Tensor> ce_fwd(const at::Tensor& logits, const at::Tensor& labels, int64_t ignore_index) {
  TORCH_CHECK(logits.dim() == 2 && logits.stride(1) == 1, "ce_fwd: logits must be [M, V] with unit column stride");
  TORCH_CHECK(labels.dim() == 1 && labels.size(0) == logits.size(0) && labels.scalar_type() == at::kLong,
              "ce_fwd: labels must be int64 [M]");
  const int64_t M = logits.size(0), V = logits.size(1), ld = logits.stride(0);
  at::Tensor lab = labels.contiguous();
  const int64_t* pl = lab.data_ptr<int64_t>();
  for (int64_t r = 0; r < M; ++r)
    TORCH_CHECK_INDEX(pl[r] == ignore_index || (pl[r] >= 0 && pl[r] < V), "label value should less than the shape "
                      "of axis dimension when label value(", pl[r], ") not equal to ignore_index(", ignore_index,
                      "), But received label value as ", pl[r], " and shape of axis dimension is ", V);
  auto fopt = logits.options().dtype(at::kFloat);
  at::Tensor loss = at::empty({M}, fopt), lse = at::empty({M}, fopt);
  float* ploss = loss.data_ptr<float>();
  float* plse = lse.data_ptr<float>();
  DISPATCH_FLOATING(logits.scalar_type(), "ce_fwd", [&] {
    const scalar_t* px = logits.data_ptr<scalar_t>();
    at::parallel_for(0, M, row_grain(V), [&](int64_t r0, int64_t r1) {
      std::vector<float> b1(std::is_same<scalar_t, float>::value ? 0 : V);
      for (int64_t r = r0; r < r1; ++r) {
        const float* x = Row<scalar_t>::in(px + r * ld, V, b1.data());
        fVec vm(-std::numeric_limits<float>::infinity());
        int64_t j = 0;
        for (; j + VS <= V; j += VS) vm = at::vec::maximum(vm, fVec::loadu(x + j));
        float m = at::vec::vec_reduce_all<float>([](fVec& u, fVec& v) { return at::vec::maximum(u, v); }, vm);
        for (; j < V; ++j) m = std::max(m, x[j]);
        if (m == -std::numeric_limits<float>::infinity()) m = 0.f;  // an all -inf row: lse = -inf
        fVec acc(0.f), vmx(m);
        j = 0;
        for (; j + VS <= V; j += VS) acc = acc + (fVec::loadu(x + j) - vmx).exp();
        float s = at::vec::vec_reduce_all<float>([](fVec& u, fVec& v) { return u + v; }, acc);
        for (; j < V; ++j) s += std::exp(x[j] - m);
        const float l = m + std::log(s);
        plse[r] = l;
        ploss[r] = pl[r] == ignore_index ? 0.f : l - x[pl[r]];
      }
    });
  });
  return {loss, lse};
}

// dlogits = g[r] * (softmax(x) - onehot(label)), written straight into a fresh [M, V] tensor of logits' dtype;
// rows with label == ignore_index get 0.  With a vocabulary split across ranks, pass the global lse and the
// labels shifted to this shard: a label outside [0, V) contributes no one-hot term here.
at::Tensor ce_bwd(const at::Tensor& logits, const at::Tensor& labels, const at::Tensor& lse, const at::Tensor& g,
                  int64_t ignore_index) {
  TORCH_CHECK(logits.dim() == 2 && logits.stride(1) == 1, "ce_bwd: logits must be [M, V] with unit column stride");
  const int64_t M = logits.size(0), V = logits.size(1), ld = logits.stride(0);
  at::Tensor lab = labels.contiguous(), gf = g.to(at::kFloat).contiguous(), lsef = lse.contiguous();
  const int64_t* pl = lab.data_ptr<int64_t>();
  const float* pg = gf.data_ptr<float>();
  const float* plse = lsef.data_ptr<float>();
  at::Tensor dx = big_empty({M, V}, logits.options());
  const bool nt = streams(dx, V, 2 * dx.nbytes());
  DISPATCH_FLOATING(logits.scalar_type(), "ce_bwd", [&] {
    const scalar_t* px = logits.data_ptr<scalar_t>();
    scalar_t* pd = dx.data_ptr<scalar_t>();
    at::parallel_for(0, M, row_grain(V), [&](int64_t r0, int64_t r1) {
      const size_t nb = std::is_same<scalar_t, float>::value ? 0 : V;
      std::vector<float> b1(nb), b2(nb);
      for (int64_t r = r0; r < r1; ++r) {
        float* o = Row<scalar_t>::out_buf(pd + r * V, b2.data());
        if (pl[r] == ignore_index) {
          std::fill(o, o + V, 0.f);
        } else {
          const float* x = Row<scalar_t>::in(px + r * ld, V, b1.data());
          const float gr = pg[r], l = plse[r];
          fVec vg(gr), vl(l);
          int64_t j = 0;
          const int64_t lab = pl[r];  // a label outside [0, V) is owned by another vocab shard: no one-hot term
          for (; j + VS <= V; j += VS) {
            fVec d = (fVec::loadu(x + j) - vl).exp() * vg;
            if (lab >= j && lab < j + VS) {  // the one-hot term goes in before the (possibly streaming) store
              float t[VS];
              d.store(t);
              t[lab - j] -= gr;
              d = fVec::loadu(t);
            }
            vstore(d, o + j, nt);
          }
          for (; j < V; ++j) o[j] = std::exp(x[j] - l) * gr - (j == lab ? gr : 0.f);
        }
        Row<scalar_t>::flush(o, pd + r * V, V);
      }
      nt_fence(nt);
    });
  });
  return dx;
}

std::string capability() {
#if defined(CPU_CAPABILITY_AVX512)
  return "AVX512";
#elif defined(CPU_CAPABILITY_AVX2)
  return "AVX2";
#else
  return "DEFAULT";
#endif
}

void bind_fused(pybind11::module_& m) {
  m.def("norm_fwd", &norm_fwd);
  m.def("norm_fwd_out", &norm_fwd_out);
  m.def("rope_fwd", &rope_fwd);
  m.def("swiglu_fwd", &swiglu_fwd);
  m.def("ce_fwd", &ce_fwd);
  m.def("ce_bwd", &ce_bwd);
  m.def("capability", &capability);
  m.def("empty_cache", &empty_cache);
  m.def("cached_bytes", &cached_bytes);
  m.def("set_cache_limit", &set_cache_limit);
}
