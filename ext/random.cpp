// Paddle's CPU random streams, bit for bit (paddle_on_torch.framework.random, paddle_on_torch.tensor.random).
//
// Paddle's CPU generator is one 64-bit Mersenne Twister (C++'s std::mt19937_64) per generator, seeded through a
// std::seed_seq of the seed's low 32 bits (paddle.seed), or directly with the seed when an op carries its own
// `seed` attribute.  Its CPU kernels draw from it in element order with libstdc++'s distributions (Paddle 3.3.1
// is built with GCC 11).  This file re-implements the engine and those distributions -- the same arithmetic in
// the same precision and order -- so that every draw has Paddle's bits.  The engine's state lives in an int64
// tensor of 313 words (the 312 state words and the read position), owned by the Python generator object, which
// passes it to each op here; a process-wide lock keeps two threads from drawing from one state at once.
//
// The ops are registered as torch ops (torch.ops.pot_random.*).  Compiled without floating-point contraction
// (the pragma below): a fused multiply-add rounds once where Paddle's build rounds twice.
#pragma GCC optimize("fp-contract=off")

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/cpu/vec/vec.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <tuple>
#include <vector>

namespace {

// ------------------------------------------------------------------------------------------ the engine
constexpr int kWords = 312, kShift = 156;
constexpr uint64_t kTwist = 0xB5026F5AA96619E9ULL, kUpper = ~uint64_t(0) << 31, kLower = ~kUpper;
constexpr int64_t kStateLen = kWords + 1;  // words, then the read position

struct Engine {
  uint64_t x[kWords];
  int64_t pos;

  static uint64_t temper(uint64_t z) {
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71D67FFFEDA60000ULL;
    z ^= (z << 37) & 0xFFF7EEE000000000ULL;
    z ^= z >> 43;
    return z;
  }
  static uint64_t twist(uint64_t hi, uint64_t lo, uint64_t far) {
    const uint64_t y = (hi & kUpper) | (lo & kLower);
    return far ^ (y >> 1) ^ ((y & 1) ? kTwist : 0);
  }
  void regenerate() {
    for (int k = 0; k < kWords - kShift; ++k) x[k] = twist(x[k], x[k + 1], x[k + kShift]);
    for (int k = kWords - kShift; k < kWords - 1; ++k) x[k] = twist(x[k], x[k + 1], x[k + kShift - kWords]);
    x[kWords - 1] = twist(x[kWords - 1], x[0], x[kShift - 1]);
    pos = 0;
  }
  uint64_t operator()() {
    if (pos >= kWords) regenerate();
    return temper(x[pos++]);
  }
  // the next n draws, in order
  void fill(uint64_t* out, int64_t n) {
    while (n > 0) {
      if (pos >= kWords) regenerate();
      const int64_t k = std::min<int64_t>(n, kWords - pos);
      const uint64_t* src = x + pos;
      for (int64_t i = 0; i < k; ++i) out[i] = temper(src[i]);
      out += k;
      n -= k;
      pos += k;
    }
  }
  // std::mt19937_64::seed(value)
  void seed_value(uint64_t s) {
    x[0] = s;
    for (int i = 1; i < kWords; ++i) x[i] = 6364136223846793005ULL * (x[i - 1] ^ (x[i - 1] >> 62)) + i;
    pos = kWords;
  }
  // std::mt19937_64::seed(std::seed_seq{value}): the sequence keeps the value's low 32 bits
  void seed_sequence(uint64_t s) {
    constexpr int n = 2 * kWords;  // 32-bit words the engine asks for
    uint32_t b[n];
    std::fill(b, b + n, 0x8b8b8b8bu);
    const uint32_t v = static_cast<uint32_t>(s), count = 1;
    const int t = 11, p = (n - t) / 2, q = p + t, m = n;  // (n >= 623: t = 11); m = max(count + 1, n)
    auto mix = [](uint32_t a) { return a ^ (a >> 27); };
    for (int k = 0; k < m; ++k) {
      const uint32_t r1 = 1664525u * mix(b[k % n] ^ b[(k + p) % n] ^ b[(k + n - 1) % n]);
      const uint32_t r2 = r1 + (k == 0 ? count : (k <= int(count) ? uint32_t(k % n) + v : uint32_t(k % n)));
      b[(k + p) % n] += r1;
      b[(k + q) % n] += r2;
      b[k % n] = r2;
    }
    for (int k = m; k < m + n; ++k) {
      const uint32_t r3 = 1566083941u * mix(b[k % n] + b[(k + p) % n] + b[(k + n - 1) % n]);
      const uint32_t r4 = r3 - uint32_t(k % n);
      b[(k + p) % n] ^= r3;
      b[(k + q) % n] ^= r4;
      b[k % n] = r4;
    }
    bool zero = (b[0] & 0x80000000u) == 0 && b[1] == 0;  // the engine refuses an all-zero state
    for (int i = 0; i < kWords; ++i) {
      x[i] = uint64_t(b[2 * i]) | (uint64_t(b[2 * i + 1]) << 32);
      if (i > 0 && x[i] != 0) zero = false;
    }
    if (zero) x[0] = uint64_t(1) << 63;
    pos = kWords;
  }
};

std::mutex& lock() {
  static std::mutex mu;
  return mu;
}

void check_state(const at::Tensor& state) {
  TORCH_CHECK(state.scalar_type() == at::kLong && state.is_contiguous() && state.numel() == kStateLen &&
                  state.device().is_cpu(),
              "pot_random: a generator state is a contiguous CPU int64 tensor of ", kStateLen, " words");
}

// Holds the lock and a copy of the state; writes the state back when done.
struct Drawing {
  std::lock_guard<std::mutex> guard;
  at::Tensor state;
  Engine e;
  explicit Drawing(const at::Tensor& s) : guard(lock()), state(s) {
    check_state(s);
    std::memcpy(e.x, s.data_ptr<int64_t>(), sizeof(e.x));
    e.pos = s.data_ptr<int64_t>()[kWords];
  }
  ~Drawing() {
    std::memcpy(state.data_ptr<int64_t>(), e.x, sizeof(e.x));
    state.data_ptr<int64_t>()[kWords] = e.pos;
  }
};

// ------------------------------------------------------------------------- libstdc++'s distributions
// std::generate_canonical<T, digits>(mt19937_64): one draw (64 bits cover either mantissa), converted with
// rounding and scaled by 2^-64; a value rounded up to 1 becomes the largest value below 1.
template <typename T>
inline T canonical(uint64_t r) {
  const T below_one = T(1) - std::numeric_limits<T>::epsilon() / 2;  // nextafter(1, 0), as a constant: the
  const T v = static_cast<T>(r) * static_cast<T>(0x1p-64);            // loops over draws stay vectorized
  return v >= T(1) ? below_one : v;
}

// std::uniform_int_distribution over [0, range) for a 64-bit engine (GCC 11: Lemire's multiply-shift with
// rejection); range 0 means all 2^64 values.
inline uint64_t below(Engine& e, uint64_t range) {
  if (range == 0) return e();
  unsigned __int128 product = static_cast<unsigned __int128>(e()) * range;
  uint64_t low = static_cast<uint64_t>(product);
  if (low < range) {
    const uint64_t threshold = (0 - range) % range;
    while (low < threshold) {
      product = static_cast<unsigned __int128>(e()) * range;
      low = static_cast<uint64_t>(product);
    }
  }
  return static_cast<uint64_t>(product >> 64);
}

// std::normal_distribution<T>: Marsaglia's polar method, two values per accepted pair (the second kept for
// the next call), each scaled as value * stddev + mean.
template <typename T>
struct Polar {
  Engine& e;
  T x = 0, y = 0, r2 = 0;
  explicit Polar(Engine& engine) : e(engine) {}
  // draws one accepted pair into x, y, r2
  void draw() {
    do {
      x = T(2) * canonical<T>(e()) - T(1);
      y = T(2) * canonical<T>(e()) - T(1);
      r2 = x * x + y * y;
    } while (r2 > T(1) || r2 == T(0));
  }
  static T multiplier(T r2) { return std::sqrt(T(-2) * std::log(r2) / r2); }
};

// a normal_distribution object's draws (with its saved second value), for distributions built on it
template <typename T>
struct NormalStream {
  Polar<T> polar;
  bool saved = false;
  T saved_value = 0;
  explicit NormalStream(Engine& e) : polar(e) {}
  T operator()() {
    if (saved) {
      saved = false;
      return saved_value;
    }
    polar.draw();
    const T mult = Polar<T>::multiplier(polar.r2);
    saved_value = polar.x * mult;
    saved = true;
    return polar.y * mult;
  }
};

// ------------------------------------------------------------------------------------------ the ops
void seed_(at::Tensor state, int64_t seed, bool sequence) {
  Drawing d(state);
  if (sequence)
    d.e.seed_sequence(static_cast<uint64_t>(seed));
  else
    d.e.seed_value(static_cast<uint64_t>(seed));
}

// n raw 64-bit draws (as int64)
at::Tensor bits(at::Tensor state, int64_t n) {
  at::Tensor out = at::empty({n}, at::kLong);
  Drawing d(state);
  d.e.fill(reinterpret_cast<uint64_t*>(out.data_ptr<int64_t>()), n);
  return out;
}

constexpr int64_t kChunk = 4096;

// uniform_real_distribution<T>(lo, hi): canonical * (hi - lo) + lo, in T
template <typename T, typename Out>
void uniform_into(Engine& e, Out* out, int64_t n, T lo, T hi) {
  uint64_t raw[kChunk];
  const T width = hi - lo;
  for (int64_t start = 0; start < n; start += kChunk) {
    const int64_t k = std::min(kChunk, n - start);
    e.fill(raw, k);
    for (int64_t i = 0; i < k; ++i) out[start + i] = static_cast<Out>(canonical<T>(raw[i]) * width + lo);
  }
}

// Paddle's uniform kernels: float / double draw in their own type, float16 / bfloat16 draw floats and round
// them.  `lo`, `hi` arrive as Paddle's float attributes.
void uniform_(at::Tensor state, at::Tensor out, double lo, double hi) {
  TORCH_CHECK(out.is_contiguous() && out.device().is_cpu(), "pot_random.uniform_: a contiguous CPU tensor");
  const float flo = static_cast<float>(lo), fhi = static_cast<float>(hi);
  Drawing d(state);
  const int64_t n = out.numel();
  switch (out.scalar_type()) {
    case at::kFloat: uniform_into<float>(d.e, out.data_ptr<float>(), n, flo, fhi); break;
    case at::kDouble: uniform_into<double>(d.e, out.data_ptr<double>(), n, double(flo), double(fhi)); break;
    case at::kHalf: uniform_into<float>(d.e, out.data_ptr<at::Half>(), n, flo, fhi); break;
    case at::kBFloat16: uniform_into<float>(d.e, out.data_ptr<at::BFloat16>(), n, flo, fhi); break;
    default: TORCH_CHECK(false, "pot_random.uniform_: unsupported dtype ", out.scalar_type());
  }
}

// normal_distribution<T>(mean, std) into out[0, n) (Out: T, or float16 / bfloat16 rounded from T = float).
// Each trial of the polar method takes two successive draws, so the trials are the draw stream cut in pairs and a
// rejection only skips a pair: the draws are made in bulk, `count - k` trials at a time (never more than needed,
// so the engine stops where Paddle's does), and the accepted pairs kept in a cache-sized scratch block.  The
// passes are split so that all but the engine and glibc's logarithm (Paddle's bits: its logf / log) vectorize:
// uniforms and acceptance flags over a batch of trials, then the accepted pairs' compaction (scalar, no branch),
// then per piece of a block the squared radii, their logarithms (scalar calls), the multipliers (division and
// square root: exact in any width) and the scaled values, written once into out.  The first value of a pair is
// y's, the second (kept for the next call) x's.
template <typename T, typename Out>
void normal_into(Engine& e, Out* out, int64_t n, const T mean, const T std) {
  using Vec = at::vec::Vectorized<T>;
  const int64_t pairs = (n + 1) / 2;
  constexpr int64_t kTrials = kChunk / 2, kBlock = 1 << 15, kPiece = 256;
  uint64_t raw[kChunk];
  T v[kChunk];
  uint8_t keep[kTrials];
  std::vector<T> scratch(2 * std::min(pairs, kBlock));
  T* buf = scratch.data();  // the block's accepted pairs, (y, x)
  for (int64_t block = 0; block < pairs; block += kBlock) {
    const int64_t count = std::min(pairs - block, kBlock);
    for (int64_t k = 0; k < count;) {
      const int64_t trials = std::min(kTrials, count - k);
      e.fill(raw, 2 * trials);
      for (int64_t j = 0; j < 2 * trials; ++j) v[j] = T(2) * canonical<T>(raw[j]) - T(1);
      for (int64_t t = 0; t < trials; ++t) {
        const T x = v[2 * t], y = v[2 * t + 1], r2 = x * x + y * y;
        keep[t] = (r2 <= T(1)) & (r2 != T(0));  // `&`, not `&&`: no branch to mispredict
      }
      for (int64_t t = 0; t < trials; ++t) {
        buf[2 * k] = v[2 * t + 1];
        buf[2 * k + 1] = v[2 * t];
        k += keep[t];
      }
    }
    const int64_t pieces = (count + kPiece - 1) / kPiece;
    at::parallel_for(0, pieces, 16, [&, mean, std](int64_t first, int64_t last) {
      T r2[kPiece], lg[kPiece], mult[kPiece];
      for (int64_t piece = first; piece < last; ++piece) {
        const int64_t s = piece * kPiece, m = std::min(kPiece, count - s);
        const T* b = buf + 2 * s;
        for (int64_t i = 0; i < m; ++i) r2[i] = b[2 * i + 1] * b[2 * i + 1] + b[2 * i] * b[2 * i];
        for (int64_t i = 0; i < m; ++i) lg[i] = std::log(r2[i]);
        int64_t i = 0;  // sqrt(-2 * log(r2) / r2), as Polar::multiplier (the compiler keeps std::sqrt scalar)
        for (; i + Vec::size() <= m; i += Vec::size())
          (Vec(T(-2)) * Vec::loadu(lg + i) / Vec::loadu(r2 + i)).sqrt().store(mult + i);
        for (; i < m; ++i) mult[i] = std::sqrt(T(-2) * lg[i] / r2[i]);
        Out* o = out + 2 * (block + s);
        const bool odd_end = block + s + m == pairs && n % 2;  // the last pair's x value is not asked for
        const int64_t whole = odd_end ? m - 1 : m;
        for (int64_t j = 0; j < whole; ++j) {
          o[2 * j] = static_cast<Out>(b[2 * j] * mult[j] * std + mean);
          o[2 * j + 1] = static_cast<Out>(b[2 * j + 1] * mult[j] * std + mean);
        }
        if (odd_end) o[2 * whole] = static_cast<Out>(b[2 * whole] * mult[whole] * std + mean);
      }
    });
  }
}

// Paddle's gaussian kernels: float / double in their own type, float16 / bfloat16 from floats; complex64 /
// complex128 take their real and imaginary parts from successive draws of std / sqrt(2).
void normal_(at::Tensor state, at::Tensor out, double mean, double std) {
  TORCH_CHECK(out.is_contiguous() && out.device().is_cpu(), "pot_random.normal_: a contiguous CPU tensor");
  const float fm = static_cast<float>(mean), fs = static_cast<float>(std);
  Drawing d(state);
  const int64_t n = out.numel();
  switch (out.scalar_type()) {
    case at::kFloat: normal_into<float>(d.e, out.data_ptr<float>(), n, fm, fs); break;
    case at::kDouble: normal_into<double>(d.e, out.data_ptr<double>(), n, double(fm), double(fs)); break;
    case at::kHalf: normal_into<float>(d.e, out.data_ptr<at::Half>(), n, fm, fs); break;
    case at::kBFloat16: normal_into<float>(d.e, out.data_ptr<at::BFloat16>(), n, fm, fs); break;
    default: TORCH_CHECK(false, "pot_random.normal_: unsupported dtype ", out.scalar_type());
  }
}

// uniform_int_distribution<T>(low, high - 1) per element
void randint_(at::Tensor state, at::Tensor out, int64_t low, int64_t high) {
  TORCH_CHECK(out.is_contiguous() && out.device().is_cpu(), "pot_random.randint_: a contiguous CPU tensor");
  TORCH_CHECK(low < high, "pot_random.randint_: low must be less than high");
  const uint64_t range = static_cast<uint64_t>(high - 1) - static_cast<uint64_t>(low) + 1;
  Drawing d(state);
  const int64_t n = out.numel();
  if (out.scalar_type() == at::kLong) {
    int64_t* o = out.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<int64_t>(below(d.e, range) + static_cast<uint64_t>(low));
  } else if (out.scalar_type() == at::kInt) {
    int32_t* o = out.data_ptr<int32_t>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<int32_t>(below(d.e, range) + static_cast<uint64_t>(low));
  } else {
    TORCH_CHECK(false, "pot_random.randint_: unsupported dtype ", out.scalar_type());
  }
}

// std::shuffle of 0 .. n-1 (libstdc++: with a 64-bit engine, one draw picks the swap positions of two
// successive elements)
at::Tensor randperm(at::Tensor state, int64_t n) {
  at::Tensor out = at::arange(n, at::kLong);
  if (n <= 1) return out;
  int64_t* a = out.data_ptr<int64_t>();
  Drawing d(state);
  const uint64_t un = static_cast<uint64_t>(n);
  if (std::numeric_limits<uint64_t>::max() / un >= un) {
    int64_t i = 1;
    if (n % 2 == 0) {
      std::swap(a[i], a[below(d.e, 2)]);
      ++i;
    }
    while (i != n) {
      const uint64_t r = static_cast<uint64_t>(i) + 1;
      const uint64_t v = below(d.e, r * (r + 1));
      std::swap(a[i], a[v / (r + 1)]);
      ++i;
      std::swap(a[i], a[v % (r + 1)]);
      ++i;
    }
  } else {
    for (int64_t i = 1; i < n; ++i) std::swap(a[i], a[below(d.e, static_cast<uint64_t>(i) + 1)]);
  }
  return out;
}

// bernoulli: 1 where a uniform draw of x's type is below x
template <typename T>
void bernoulli_into(Engine& e, const T* p, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const T u = canonical<T>(e());
    TORCH_CHECK(p[i] <= T(1), "(OutOfRange) The probability should be <= 1, but got ", p[i]);
    TORCH_CHECK(p[i] >= T(0), "(OutOfRange) The probability should be >= 0, but got ", p[i]);
    out[i] = static_cast<T>(u < p[i]);
  }
}

at::Tensor bernoulli(at::Tensor state, at::Tensor x) {
  x = x.contiguous();
  at::Tensor out = at::empty_like(x);
  Drawing d(state);
  if (x.scalar_type() == at::kFloat)
    bernoulli_into<float>(d.e, x.data_ptr<float>(), out.data_ptr<float>(), x.numel());
  else if (x.scalar_type() == at::kDouble)
    bernoulli_into<double>(d.e, x.data_ptr<double>(), out.data_ptr<double>(), x.numel());
  else
    TORCH_CHECK(false, "pot_random.bernoulli: unsupported dtype ", x.scalar_type());
  return out;
}

// dropout's keep mask (uint8) for n elements: a float uniform draw per element, kept when not below p
at::Tensor dropout_mask(at::Tensor state, int64_t n, double p) {
  at::Tensor mask = at::empty({n}, at::kByte);
  uint8_t* m = mask.data_ptr<uint8_t>();
  const float fp = static_cast<float>(p);
  uint64_t raw[kChunk];
  Drawing d(state);
  for (int64_t start = 0; start < n; start += kChunk) {
    const int64_t k = std::min(kChunk, n - start);
    d.e.fill(raw, k);
    for (int64_t i = 0; i < k; ++i) m[start + i] = !(canonical<float>(raw[i]) < fp);
  }
  return mask;
}

// dropout's output and mask: kept elements are x / (1 - p) ("upscale_in_train") or x, the others 0
template <typename T>
void dropout_apply(const T* x, const uint8_t* m, T* y, int64_t n, T scale, bool upscale) {
  at::parallel_for(0, n, 32768, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) y[i] = m[i] ? (upscale ? static_cast<T>(x[i] / scale) : x[i]) : T(0);
  });
}

std::tuple<at::Tensor, at::Tensor> dropout(at::Tensor state, at::Tensor x, double p, bool upscale) {
  x = x.contiguous();
  const int64_t n = x.numel();
  at::Tensor mask = dropout_mask(state, n, p).view(x.sizes());
  at::Tensor out = at::empty_like(x);
  const float keep = 1.0f - static_cast<float>(p);
  const uint8_t* m = mask.data_ptr<uint8_t>();
  switch (x.scalar_type()) {
    case at::kFloat: dropout_apply<float>(x.data_ptr<float>(), m, out.data_ptr<float>(), n, keep, upscale); break;
    case at::kDouble:
      dropout_apply<double>(x.data_ptr<double>(), m, out.data_ptr<double>(), n, double(keep), upscale);
      break;
    case at::kBFloat16:
      dropout_apply<at::BFloat16>(x.data_ptr<at::BFloat16>(), m, out.data_ptr<at::BFloat16>(), n,
                                  at::BFloat16(keep), upscale);
      break;
    case at::kHalf:
      dropout_apply<at::Half>(x.data_ptr<at::Half>(), m, out.data_ptr<at::Half>(), n, at::Half(keep), upscale);
      break;
    default: TORCH_CHECK(false, "pot_random.dropout: unsupported dtype ", x.scalar_type());
  }
  return {out, mask};
}

// multinomial: per row, the normalised cumulative sums are searched with a uniform draw of x's type; without
// replacement the drawn category's mass is taken out and the rest renormalised
template <typename T>
void multinomial_rows(Engine& e, const T* in, int64_t* out, int64_t rows, int64_t cats, int64_t samples,
                      bool replacement) {
  std::vector<T> cum(cats);
  for (int64_t i = 0; i < rows; ++i) {
    T sum = 0;
    int64_t zeros = 0;
    for (int64_t j = 0; j < cats; ++j) {
      const T v = in[i * cats + j];
      TORCH_CHECK(v >= T(0), "(InvalidArgument) The input of multinomial distribution should be >= 0, but got ",
                  v, ".");
      sum += v;
      if (v == T(0)) ++zeros;
      cum[j] = sum;
    }
    TORCH_CHECK(sum > T(0), "(InvalidArgument) The sum of one multinomial distribution probability should be > 0, "
                "but got ", sum, ".");
    TORCH_CHECK(replacement || cats - zeros >= samples, "(InvalidArgument) When replacement is False, number of "
                "samples should be less than non-zero categories.");
    for (int64_t j = 0; j < cats; ++j) cum[j] /= sum;
    for (int64_t s = 0; s < samples; ++s) {
      const T u = canonical<T>(e());
      cum[cats - 1] = 1;
      int64_t left = 0, right = cats;
      while (right > left) {
        const int64_t mid = left + (right - left) / 2;
        if (cum[mid] < u)
          left = mid + 1;
        else
          right = mid;
      }
      out[i * samples + s] = left;
      if (!replacement && s < samples - 1) {
        const T before = left != 0 ? cum[left - 1] : T(0);
        const T mass = cum[left] - before;
        const T rest = T(1.0) - mass;
        for (int64_t j = 0; j < cats; ++j) {
          T v = cum[j];
          if (j >= left) v -= mass;
          cum[j] = v / rest;
        }
      }
    }
  }
}

at::Tensor multinomial(at::Tensor state, at::Tensor x, int64_t samples, bool replacement) {
  x = x.contiguous();
  const int64_t cats = x.size(-1), rows = x.dim() == 1 ? 1 : x.size(0);
  at::Tensor out = at::empty(x.dim() == 1 ? std::vector<int64_t>{samples} : std::vector<int64_t>{rows, samples},
                             at::kLong);
  Drawing d(state);
  if (x.scalar_type() == at::kFloat)
    multinomial_rows<float>(d.e, x.data_ptr<float>(), out.data_ptr<int64_t>(), rows, cats, samples, replacement);
  else if (x.scalar_type() == at::kDouble)
    multinomial_rows<double>(d.e, x.data_ptr<double>(), out.data_ptr<int64_t>(), rows, cats, samples,
                             replacement);
  else
    TORCH_CHECK(false, "pot_random.multinomial: unsupported dtype ", x.scalar_type());
  return out;
}

// std::poisson_distribution<int>(mean): products of uniforms below mean 12, else Devroye's rejection method as
// libstdc++ writes it (a fresh distribution object per element, so its normal draws start unsaved)
int poisson_one(Engine& e, double mean) {
  auto uniform = [&]() { return canonical<double>(e()); };
  if (mean >= 12) {
    const double m = std::floor(mean);
    const double lm_thr = std::log(mean), lfm = std::lgamma(m + 1), sm = std::sqrt(m);
    const double pi_4 = 0.7853981633974483096156608458198757L;
    const double dx = std::sqrt(2 * m * std::log(32 * m / pi_4));
    const double dd = std::round(std::max<double>(6.0, std::min(m, dx)));
    const double cx = 2 * m + dd, scx = std::sqrt(cx / 2), one_cx = 1 / cx;
    const double c2b = std::sqrt(pi_4 * cx) * std::exp(one_cx);
    const double cb = 2 * cx * std::exp(-dd * one_cx * (1 + dd / 2)) / dd;

    const double naf = (1 - std::numeric_limits<double>::epsilon()) / 2;
    const double thr = std::numeric_limits<int>::max() + naf;
    const double spi_2 = 1.2533141373155002512078826424055226L;
    const double c1 = sm * spi_2, c2 = c2b + c1, c3 = c2 + 1, c4 = c3 + 1;
    const double v178 = 0.0128205128205128205128205128205128L, e178 = 1.0129030479320018583185514777512983L;
    const double c5 = c4 + e178, c = cb + c5, two_cx = 2 * (2 * m + dd);
    NormalStream<double> normal(e);
    double x = 0;
    bool reject = true;
    do {
      const double u = c * uniform();
      const double ee = -std::log(1.0 - uniform());
      double w = 0.0;
      if (u <= c1) {
        const double nn = normal();
        const double y = -std::abs(nn) * sm - 1;
        x = std::floor(y);
        w = -nn * nn / 2;
        if (x < -m) continue;
      } else if (u <= c2) {
        const double nn = normal();
        const double y = 1 + std::abs(nn) * scx;
        x = std::ceil(y);
        w = y * (2 - y) * one_cx;
        if (x > dd) continue;
      } else if (u <= c3) {
        x = -1;
      } else if (u <= c4) {
        x = 0;
      } else if (u <= c5) {
        x = 1;
        w = v178;
      } else {
        const double v = -std::log(1.0 - uniform());
        const double y = dd + v * two_cx / dd;
        x = std::ceil(y);
        w = -dd * one_cx * (1 + y / 2);
      }
      reject = (w - ee - x * lm_thr > lfm - std::lgamma(x + m + 1));
      reject |= x + m >= thr;
    } while (reject);
    return static_cast<int>(x + m + naf);
  }
  const double lm_thr = std::exp(-mean);
  int x = 0;
  double prod = 1.0;
  do {
    prod *= uniform();
    x += 1;
  } while (prod > lm_thr);
  return x - 1;
}

at::Tensor poisson(at::Tensor state, at::Tensor x) {
  x = x.contiguous();
  at::Tensor out = at::empty_like(x);
  const int64_t n = x.numel();
  Drawing d(state);
  if (x.scalar_type() == at::kFloat) {
    const float* in = x.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(poisson_one(d.e, in[i]));
  } else if (x.scalar_type() == at::kDouble) {
    const double* in = x.data_ptr<double>();
    double* o = out.data_ptr<double>();
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<double>(poisson_one(d.e, in[i]));
  } else {
    TORCH_CHECK(false, "pot_random.poisson: unsupported dtype ", x.scalar_type());
  }
  return out;
}

// exponential: (-1 / lambda) * log(1 - u), in float (float, float16, bfloat16) or double
template <typename T, typename Out>
void exponential_into(Engine& e, Out* out, int64_t n, T lambda) {
  const T factor = T(-1.0) / lambda;
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<Out>(factor * std::log(T(1.0) - canonical<T>(e())));
}

void exponential_(at::Tensor state, at::Tensor out, double lambda) {
  TORCH_CHECK(out.is_contiguous() && out.device().is_cpu(), "pot_random.exponential_: a contiguous CPU tensor");
  const float fl = static_cast<float>(lambda);
  Drawing d(state);
  const int64_t n = out.numel();
  switch (out.scalar_type()) {
    case at::kFloat: exponential_into<float>(d.e, out.data_ptr<float>(), n, fl); break;
    case at::kDouble: exponential_into<double>(d.e, out.data_ptr<double>(), n, double(fl)); break;
    case at::kHalf: exponential_into<float>(d.e, out.data_ptr<at::Half>(), n, fl); break;
    case at::kBFloat16: exponential_into<float>(d.e, out.data_ptr<at::BFloat16>(), n, fl); break;
    default: TORCH_CHECK(false, "pot_random.exponential_: unsupported dtype ", out.scalar_type());
  }
}

// standard_gamma: Marsaglia and Tsang's method per element as Paddle's CPU kernel runs it (its sampler from torch's
// Distributions.h): each normal a fresh normal_distribution (one value of a new pair), each uniform a fresh
// uniform_real_distribution, alpha < 1 boosted by a uniform power, the result at least the type's smallest normal.
template <typename T>
T gamma_one(Engine& e, T alpha) {
  auto uniform = [&]() { return canonical<T>(e()); };
  auto normal = [&]() {
    Polar<T> polar(e);
    polar.draw();
    return polar.y * Polar<T>::multiplier(polar.r2);
  };
  T scale = 1.0f;
  if (alpha < 1.0f) {
    if (alpha == 0.f) return 0.f;
    scale *= std::pow(1 - uniform(), 1.0f / alpha);
    alpha += 1.0f;
  }
  const T d = alpha - 1.0f / 3.0f;
  const T c = 1.0f / std::sqrt(9.0f * d);
  for (;;) {
    T x, y;
    do {
      x = normal();
      y = 1.0f + c * x;
    } while (y <= 0);
    const T v = y * y * y;
    const T u = 1 - uniform();
    const T xx = x * x;
    if (u < 1.0f - 0.0331f * xx * xx) return scale * d * v;
    if (std::log(u) < 0.5f * xx + d * (1.0f - v + std::log(v))) return scale * d * v;
  }
}

at::Tensor standard_gamma(at::Tensor state, at::Tensor x) {
  x = x.contiguous();
  at::Tensor out = at::empty_like(x);
  const int64_t n = x.numel();
  Drawing d(state);
  auto run = [&](auto* in, auto* o) {
    using T = std::remove_reference_t<decltype(*o)>;
    for (int64_t i = 0; i < n; ++i) o[i] = std::max(std::numeric_limits<T>::min(), gamma_one<T>(d.e, in[i]));
  };
  if (x.scalar_type() == at::kFloat)
    run(x.data_ptr<float>(), out.data_ptr<float>());
  else if (x.scalar_type() == at::kDouble)
    run(x.data_ptr<double>(), out.data_ptr<double>());
  else
    TORCH_CHECK(false, "pot_random.standard_gamma: unsupported dtype ", x.scalar_type());
  return out;
}

// binomial(count, prob) per element as Paddle's CPU kernel computes it: Hormann's BTRS rejection where the mean
// (of the smaller of p, 1 - p) is at least 10, else inversion by geometric jumps.  The constants are double and
// the arithmetic mixes T and double exactly where Paddle's expressions do (same promotions, same order).
template <typename T>
T stirling_tail(int64_t k) {
  const T table[] = {0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                     0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                     0.00925546218271273, 0.00833056343336287};
  if (k <= 9) return table[k];
  const T kp1sq = (k + 1) * (k + 1);
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

template <typename T>
int64_t binomial_btrs(Engine& e, const T n, const T p) {
  const T stddev = std::sqrt(n * p * (1 - p));
  const T b = 1.15 + 2.53 * stddev;
  const T a = -0.0873 + 0.0248 * b + 0.01 * p;
  const T c = n * p + 0.5;
  const T v_r = 0.92 - 4.2 / b;
  const T r = p / (1 - p);
  const T alpha = (2.83 + 5.1 / b) * stddev;
  const T m = std::floor((n + 1) * p);
  for (;;) {
    const T U = canonical<T>(e()) - 0.5;
    T V = canonical<T>(e());
    const T us = 0.5 - std::abs(U);
    const int64_t k = static_cast<int64_t>(std::floor((2 * a / us + b) * U + c));
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && V <= v_r) return k;
    V = std::log(V * alpha / (a / (us * us) + b));
    const T bound = ((m + 0.5) * std::log((m + 1) / (r * (n - m + 1))) + (n + 1) * std::log((n - m + 1) / (n - k + 1)) +
                     (k + 0.5) * std::log(r * (n - k + 1) / (k + 1)) + stirling_tail<T>(m) + stirling_tail<T>(n - m) -
                     stirling_tail<T>(k) - stirling_tail<T>(n - k));
    if (V <= bound) return k;
  }
}

template <typename T>
int64_t binomial_inversion(Engine& e, const T n, const T p) {
  T geom_sum = 0.0;
  int64_t count = 0;
  const T logprob = std::log1p(-p);
  for (;;) {
    const T unif = canonical<T>(e());
    const T geom = std::ceil(std::log(unif) / logprob);
    geom_sum += geom;
    if (geom_sum > n) break;
    count = count + 1;
  }
  return count;
}

template <typename T>
int64_t binomial_one(Engine& e, const T n, const T p) {
  if (n <= 0.0 || p <= 0.0) return 0;
  if (p >= 1.0) return static_cast<int64_t>(n);
  if (p <= 0.5) return n * p >= 10.0 ? binomial_btrs<T>(e, n, p) : binomial_inversion<T>(e, n, p);
  const T q = 1.0 - p;
  return static_cast<int64_t>(n) - (n * q >= 10.0 ? binomial_btrs<T>(e, n, q) : binomial_inversion<T>(e, n, q));
}

at::Tensor binomial(at::Tensor state, at::Tensor count, at::Tensor prob) {
  count = count.contiguous();
  prob = prob.contiguous();
  TORCH_CHECK(count.scalar_type() == prob.scalar_type() && count.numel() == prob.numel(),
              "pot_random.binomial: count and prob of one dtype and size");
  at::Tensor out = at::empty(count.sizes(), at::kLong);
  int64_t* o = out.data_ptr<int64_t>();
  const int64_t n = count.numel();
  Drawing d(state);
  if (count.scalar_type() == at::kFloat) {
    const float *c = count.data_ptr<float>(), *p = prob.data_ptr<float>();
    for (int64_t i = 0; i < n; ++i) o[i] = binomial_one<float>(d.e, c[i], p[i]);
  } else if (count.scalar_type() == at::kDouble) {
    const double *c = count.data_ptr<double>(), *p = prob.data_ptr<double>();
    for (int64_t i = 0; i < n; ++i) o[i] = binomial_one<double>(d.e, c[i], p[i]);
  } else {
    TORCH_CHECK(false, "pot_random.binomial: unsupported dtype ", count.scalar_type());
  }
  return out;
}

// The inverse error function Paddle's truncated normal uses (a rational approximation in three pieces),
// with its mix of float and double steps where T is float.
template <typename T>
T erfinv_approx(T x) {
  if (x < -1 || x > 1) return std::numeric_limits<T>::quiet_NaN();
  if (x == 1.0) return std::numeric_limits<T>::infinity();
  if (x == -1.0) return -std::numeric_limits<T>::infinity();
  const T ln2 = 6.931471805599453094172321214581e-1;
  const T a[8] = {1.1975323115670912564578e0, 4.7072688112383978012285e1, 6.9706266534389598238465e2,
                  4.8548868893843886794648e3, 1.6235862515167575384252e4, 2.3782041382114385731252e4,
                  1.1819493347062294404278e4, 8.8709406962545514830200e2};
  const T b[8] = {1.0000000000000000000e0, 4.2313330701600911252e1, 6.8718700749205790830e2,
                  5.3941960214247511077e3, 2.1213794301586595867e4, 3.9307895800092710610e4,
                  2.8729085735721942674e4, 5.2264952788528545610e3};
  const T c[8] = {1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
                  3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
                  2.27238449892691845833e-2, 7.74545014278341407640e-4};
  const T d[8] = {1.4142135623730950488016887e0, 2.9036514445419946173133295e0, 2.3707661626024532365971225e0,
                  9.7547832001787427186894837e-1, 2.0945065210512749128288442e-1,
                  2.1494160384252876777097297e-2, 7.7441459065157709165577218e-4,
                  1.4859850019840355905497876e-9};
  const T f[8] = {6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
                  2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
                  2.71155556874348757815e-5, 2.01033439929228813265e-7};
  const T g[8] = {1.414213562373095048801689e0, 8.482908416595164588112026e-1, 1.936480946950659106176712e-1,
                  2.103693768272068968719679e-2, 1.112800997078859844711555e-3, 2.611088405080593625138020e-5,
                  2.010321207683943062279931e-7, 2.891024605872965461538222e-15};
  auto poly = [](const T* k, T r) {
    return (((((((k[7] * r + k[6]) * r + k[5]) * r + k[4]) * r + k[3]) * r + k[2]) * r + k[1]) * r + k[0]);
  };
  const T ax = std::abs(x);
  if (ax <= 0.85) {
    const T r = 0.180625 - 0.25 * x * x;  // in double, then rounded to T
    return x * poly(a, r) / poly(b, r);
  }
  T r = std::sqrt(ln2 - std::log(1.0 - ax));  // in double
  T num, den;
  if (r <= 5.0) {
    r = r - 1.6;
    num = poly(c, r);
    den = poly(d, r);
  } else {
    r = r - 5.0;
    num = poly(f, r);
    den = poly(g, r);
  }
  return x < 0 ? -num / den : num / den;
}

// truncated normal by inversion: a uniform draw in [FLT_MIN, 1) mapped between the bounds' normal CDFs, then
// through the inverse CDF and clamped to [a, b].  M is float for float / float16 / bfloat16, double for double.
template <typename M, typename Out>
void truncated_into(Engine& e, Out* out, int64_t n, M mean, M std, M a, M b) {
  auto cdf = [](M v) { return (1.0 + std::erf(v / std::sqrt(2.0))) / 2.0; };
  const M a_cdf = cdf((a - mean) / std), b_cdf = cdf((b - mean) / std);
  const M lo = std::numeric_limits<float>::min(), width = M(1.0) - lo;
  for (int64_t i = 0; i < n; ++i) {
    const M u = canonical<M>(e()) * width + lo;
    const M p = a_cdf + (b_cdf - a_cdf) * u;
    const M v = std::sqrt(2.0) * erfinv_approx<M>(2 * p - 1) * std + mean;
    out[i] = static_cast<Out>(std::clamp(v, a, b));
  }
}

void truncated_normal_(at::Tensor state, at::Tensor out, double mean, double std, double a, double b) {
  TORCH_CHECK(out.is_contiguous() && out.device().is_cpu(), "pot_random.truncated_normal_: a contiguous CPU tensor");
  Drawing d(state);
  const int64_t n = out.numel();
  const float fm = mean, fs = std, fa = a, fb = b;  // Paddle's float attributes
  switch (out.scalar_type()) {
    case at::kFloat: truncated_into<float>(d.e, out.data_ptr<float>(), n, fm, fs, fa, fb); break;
    case at::kDouble: truncated_into<double>(d.e, out.data_ptr<double>(), n, fm, fs, fa, fb); break;
    case at::kHalf: truncated_into<float>(d.e, out.data_ptr<at::Half>(), n, fm, fs, fa, fb); break;
    case at::kBFloat16: truncated_into<float>(d.e, out.data_ptr<at::BFloat16>(), n, fm, fs, fa, fb); break;
    default: TORCH_CHECK(false, "pot_random.truncated_normal_: unsupported dtype ", out.scalar_type());
  }
}

}  // namespace

// The schemas, and the kernels under the CPU key (a fake tensor, as static programs record on, reaches the fakes
// paddle_on_torch/_core/random.py registers).
TORCH_LIBRARY(pot_random, m) {
  m.def("seed_(Tensor(a!) state, int seed, bool sequence) -> ()");
  m.def("bits(Tensor(a!) state, int n) -> Tensor");
  m.def("uniform_(Tensor(a!) state, Tensor(b!) out, float low, float high) -> ()");
  m.def("normal_(Tensor(a!) state, Tensor(b!) out, float mean, float std) -> ()");
  m.def("randint_(Tensor(a!) state, Tensor(b!) out, int low, int high) -> ()");
  m.def("randperm(Tensor(a!) state, int n) -> Tensor");
  m.def("bernoulli(Tensor(a!) state, Tensor x) -> Tensor");
  m.def("dropout_mask(Tensor(a!) state, int n, float p) -> Tensor");
  m.def("dropout(Tensor(a!) state, Tensor x, float p, bool upscale) -> (Tensor, Tensor)");
  m.def("multinomial(Tensor(a!) state, Tensor x, int samples, bool replacement) -> Tensor");
  m.def("poisson(Tensor(a!) state, Tensor x) -> Tensor");
  m.def("standard_gamma(Tensor(a!) state, Tensor x) -> Tensor");
  m.def("binomial(Tensor(a!) state, Tensor count, Tensor prob) -> Tensor");
  m.def("exponential_(Tensor(a!) state, Tensor(b!) out, float lam) -> ()");
  m.def("truncated_normal_(Tensor(a!) state, Tensor(b!) out, float mean, float std, float a, float b) -> ()");
}

TORCH_LIBRARY_IMPL(pot_random, CPU, m) {
  m.impl("seed_", &seed_);
  m.impl("bits", &bits);
  m.impl("uniform_", &uniform_);
  m.impl("normal_", &normal_);
  m.impl("randint_", &randint_);
  m.impl("randperm", &randperm);
  m.impl("bernoulli", &bernoulli);
  m.impl("dropout_mask", &dropout_mask);
  m.impl("dropout", &dropout);
  m.impl("multinomial", &multinomial);
  m.impl("poisson", &poisson);
  m.impl("standard_gamma", &standard_gamma);
  m.impl("binomial", &binomial);
  m.impl("exponential_", &exponential_);
  m.impl("truncated_normal_", &truncated_normal_);
}
