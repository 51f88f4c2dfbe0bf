// C++ CPU kernel for whole-sequence LSTM / GRU / SimpleRNN (paddle_on_torch.kernels.rnn): the CPU kernels of the ops
// paddle_on_torch::rnn / rnn_bwd and their autograd kernel, registered with TORCH_LIBRARY_IMPL under the schemas
// kernels/rnn.py defines (bottom of this file).
//
// torch's CPU RNN (`_VF.lstm` / `gru`) runs every time step as a handful of ATen ops, each through the
// dispatcher, and its backward is autograd through those per-step ops: at the model sizes of a tagger
// (batch 3, hidden 24) the op overhead is the whole cost.  This kernel runs all layers and directions in
// one call:
//   * forward, per layer and direction: one GEMM for the input projection of all time steps
//     (x @ W_ih^T), then per step one GEMM h_prev @ W_hh^T and one vectorised pass that adds the biases,
//     applies the gate non-linearities and writes the new state, the output and what backward needs;
//   * backward: the reverse recurrence with the gate gradients fused in one pass per step and one
//     GEMM (dgates @ W_hh) for the state gradient, then batched GEMMs over all steps for dW_ih, dW_hh and
//     the input gradient, and column sums for the biases.
// GEMMs call the BLAS that libtorch links (MKL / OpenBLAS sgemm_ / dgemm_) directly, without the
// dispatcher; where libtorch exports no such symbol they go through ATen's mm.
//
// Layout: rows are (time, batch) pairs in the input's own order (time-major: t * B + b, batch-first:
// b * T + t), so neither layout is transposed.  Per layer and direction it keeps, for backward:
//   HP [rows, H]   the hidden state entering each step (h0 for the first step);
//   CP [rows, H]   LSTM only: the cell state entering each step;
//   ACT [rows, W]  gate activations: LSTM i, f, c~, o (4H); GRU r, z, c~ and W_hh h + b_hh of the
//                  candidate (4H); SimpleRNN the new state (H).
// Semantics are Paddle's fused `rnn` kernel (and torch's on packed sequences): with sequence lengths,
// step t of row b runs only while t < len[b], the state is held otherwise, outputs at padded steps are
// 0, the reverse direction starts at each row's last valid step, and final states are the states
// after each row's last valid step.
#include <torch/extension.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/TorchDispatchModeTLS.h>
#include <ATen/Parallel.h>
#include <ATen/cpu/vec/vec.h>
#include <ATen/cpu/vec/functional.h>
#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <string>
#include <vector>

using at::Tensor;
using at::vec::Vectorized;

enum Mode { LSTM = 0, GRU = 1, RNN_TANH = 2, RNN_RELU = 3 };

static int64_t n_gates(int64_t mode) { return mode == LSTM ? 4 : mode == GRU ? 3 : 1; }
static int64_t act_width(int64_t mode, int64_t H) { return mode == RNN_TANH || mode == RNN_RELU ? H : 4 * H; }

// GEMMs, three ways (gemm_path): tiny ones (the model zoo's: [3, 24] x [24, 96]) in a register-blocked loop
// here, where a BLAS call's fixed cost (~1 us) is several times the arithmetic; the others through the
// Fortran BLAS that libtorch links (MKL / OpenBLAS export sgemm_ / dgemm_, LP64), called directly instead
// of through the dispatcher (at::mm_out, a few us a call); ATen's mm where libtorch exports no such symbol
// (weak symbols: null there).  ATen's cpublas::gemm would do, but libtorch does not export it.
extern "C" {
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*, const float*, const int*,
            const float*, const int*, const float*, float*, const int*) __attribute__((weak));
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*) __attribute__((weak));
}
enum GemmPath { AUTO = 0, BLAS = 1, ATEN = 2, SMALL = 3 };
static int gemm_path = AUTO;  // tests force each path
static bool have_blas() { return sgemm_ != nullptr && dgemm_ != nullptr; }
constexpr int64_t kSmallMacs = 1 << 15;

static bool fits_int(int64_t v) { return v <= std::numeric_limits<int>::max(); }

// C[M, N] = A @ B + beta * C with A[m, k] at A[m * a_rs + k * a_cs] and B row-major [K, N] (ld ldb)
template <typename T>
static void small_gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t a_rs, int64_t a_cs, const T* B,
                       int64_t ldb, T beta, T* C, int64_t ldc) {
  using Vec = Vectorized<T>;
  constexpr int64_t VS = Vec::size();
  constexpr int64_t NB = 4;  // accumulators per row: 4 vectors of C stay in registers across K
  for (int64_t n0 = 0; n0 < N; n0 += NB * VS) {
    int64_t cnt[NB];
    for (int64_t q = 0; q < NB; ++q) cnt[q] = std::max<int64_t>(0, std::min<int64_t>(VS, N - n0 - q * VS));
    const bool full = cnt[NB - 1] == VS;
    for (int64_t m = 0; m < M; ++m) {
      T* c = C + m * ldc + n0;
      const T* a = A + m * a_rs;
      Vec acc[NB];
      for (int64_t q = 0; q < NB; ++q)
        acc[q] = beta == T(0) || cnt[q] == 0 ? Vec(T(0)) : Vec::loadu(c + q * VS, cnt[q]) * Vec(beta);
      if (full) {
        for (int64_t k = 0; k < K; ++k) {
          const Vec av(a[k * a_cs]);
          const T* b = B + k * ldb + n0;
          for (int64_t q = 0; q < NB; ++q) acc[q] = at::vec::fmadd(av, Vec::loadu(b + q * VS), acc[q]);
        }
      } else {
        for (int64_t k = 0; k < K; ++k) {
          const Vec av(a[k * a_cs]);
          const T* b = B + k * ldb + n0;
          for (int64_t q = 0; q < NB; ++q)
            if (cnt[q]) acc[q] = at::vec::fmadd(av, Vec::loadu(b + q * VS, cnt[q]), acc[q]);
        }
      }
      for (int64_t q = 0; q < NB; ++q)
        if (cnt[q]) acc[q].store(c + q * VS, cnt[q]);
    }
  }
}

template <typename T>
static std::vector<T> transposed(const T* W, int64_t rows, int64_t cols) {  // W [rows, cols] -> [cols, rows]
  std::vector<T> t(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) t[c * rows + r] = W[r * cols + c];
  return t;
}

template <typename T>
static void mm_aten(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const T* A, int64_t lda, const T* B,
                    int64_t ldb, T beta, T* C, int64_t ldc) {
  auto opt = at::TensorOptions().dtype(c10::CppTypeToScalarType<T>::value);
  auto view = [&](const T* p, int64_t r, int64_t c, int64_t ld, bool t) {
    Tensor v = at::from_blob(const_cast<T*>(p), {t ? c : r, t ? r : c}, {ld, 1}, opt);
    return t ? v.t() : v;
  };
  Tensor c = at::from_blob(C, {M, N}, {ldc, 1}, opt);
  if (beta == T(0)) at::mm_out(c, view(A, M, K, lda, ta), view(B, K, N, ldb, tb));
  else c.addmm_(view(A, M, K, lda, ta), view(B, K, N, ldb, tb), beta, T(1));
}

static bool use_small(int64_t M, int64_t N, int64_t K) {
  return gemm_path == SMALL || (gemm_path == AUTO && M * N * K <= kSmallMacs);
}

// row-major C[M, N] = op(A) @ op(B) + beta * C
template <typename T>
static void mm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const T* A, int64_t lda, const T* B, int64_t ldb,
               T beta, T* C, int64_t ldc) {
  if (M == 0 || N == 0) return;
  if (use_small(M, N, K)) {
    if (tb) {
      const std::vector<T> bt = transposed(B, N, K);  // op(B) = B^T, B [N, K] (ld ldb == K in every call here)
      TORCH_INTERNAL_ASSERT(ldb == K);
      small_gemm<T>(M, N, K, A, ta ? 1 : lda, ta ? lda : 1, bt.data(), N, beta, C, ldc);
    } else {
      small_gemm<T>(M, N, K, A, ta ? 1 : lda, ta ? lda : 1, B, ldb, beta, C, ldc);
    }
    return;
  }
  if (gemm_path == ATEN || !have_blas() || !fits_int(M) || !fits_int(N) || !fits_int(K) || !fits_int(lda) ||
      !fits_int(ldb) || !fits_int(ldc)) {
    mm_aten<T>(ta, tb, M, N, K, A, lda, B, ldb, beta, C, ldc);
    return;
  }
  // column-major BLAS: C^T = op(B)^T op(A)^T
  const char tA = tb ? 'T' : 'N', tB = ta ? 'T' : 'N';
  const int m = (int)N, n = (int)M, k = (int)K, la = (int)ldb, lb = (int)lda, lc = (int)ldc;
  const T one(1);
  if constexpr (std::is_same_v<T, float>) sgemm_(&tA, &tB, &m, &n, &k, &one, B, &la, A, &lb, &beta, C, &lc);
  else dgemm_(&tA, &tB, &m, &n, &k, &one, B, &la, A, &lb, &beta, C, &lc);
}

void set_gemm_path(const std::string& p) {
  TORCH_CHECK_VALUE(p == "auto" || p == "blas" || p == "aten" || p == "small", "gemm path: auto, blas, aten or small");
  gemm_path = p == "auto" ? AUTO : p == "blas" ? BLAS : p == "aten" ? ATEN : SMALL;
}
std::string get_gemm_path() {
  return gemm_path == AUTO ? "auto" : gemm_path == BLAS ? "blas" : gemm_path == ATEN ? "aten" : "small";
}

template <typename T>
static inline Vectorized<T> sigm(const Vectorized<T>& x) {
  const Vectorized<T> one(T(1));
  return one / (one + x.neg().exp());
}

// the loops below walk a row of H in vector chunks; the last chunk loads/stores `n` < VS lanes
#define CHUNKS(H) for (int64_t j = 0, n = std::min<int64_t>(VS, H); j < H; j += VS, n = std::min<int64_t>(VS, H - j))

struct Geometry {
  int64_t T, B, rows, ts, bs;  // time and batch strides in rows
  const int64_t* len;          // [B] or nullptr
  bool valid(int64_t t, int64_t b) const { return len == nullptr || t < len[b]; }
  int64_t row(int64_t t, int64_t b) const { return t * ts + b * bs; }
};

// one layer, one direction, forward.  X [rows, I]; writes Y[:, d*H:(d+1)*H] (ld ldy), hN / cN [B, H],
// HP / CP / ACT as described at the top of this file.
template <typename T>
static void layer_fwd(int64_t mode, const Geometry& g, bool reverse, const T* X, int64_t I, const T* Wih, const T* Whh,
                      const T* bih, const T* bhh, int64_t H, const T* h0, const T* c0, T* Y, int64_t ldy, T* hN,
                      T* cN, T* HP, T* CP, T* ACT, T* S) {
  using Vec = Vectorized<T>;
  constexpr int64_t VS = Vec::size();
  const int64_t G = n_gates(mode) * H, W = act_width(mode, H), B = g.B, T_ = g.T;
  // input projection of every step at once; ACT holds it until the step turns it into activations
  mm<T>(false, true, g.rows, G, I, X, I, Wih, I, T(0), ACT, W);
  const Vec zero(T(0)), one(T(1));
  // W_hh^T once, when the per-step GEMM is small enough for the loop here
  const std::vector<T> WhhT = use_small(B, G, H) ? transposed(Whh, G, H) : std::vector<T>();
  for (int64_t k = 0; k < T_; ++k) {
    const int64_t t = reverse ? T_ - 1 - k : k;
    const int64_t tn = reverse ? t - 1 : t + 1;  // the step the new state feeds
    const bool last = k == T_ - 1;
    if (k == 0) {
      for (int64_t b = 0; b < B; ++b) {
        std::memcpy(HP + g.row(t, b) * H, h0 + b * H, H * sizeof(T));
        if (mode == LSTM) std::memcpy(CP + g.row(t, b) * H, c0 + b * H, H * sizeof(T));
      }
    }
    const T* hp0 = HP + g.row(t, 0) * H;
    if (WhhT.empty()) mm<T>(false, true, B, G, H, hp0, g.bs * H, Whh, H, T(0), S, G);
    else small_gemm<T>(B, G, H, hp0, g.bs * H, 1, WhhT.data(), G, T(0), S, G);
    at::parallel_for(0, B, std::max<int64_t>(1, 16384 / std::max<int64_t>(W, 1)), [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t r = g.row(t, b);
      const T* hp = HP + r * H;
      T* hn = last ? hN + b * H : HP + g.row(tn, b) * H;
      T* y = Y + r * ldy;
      if (!g.valid(t, b)) {  // past this row's length: hold the state, output 0
        std::memcpy(hn, hp, H * sizeof(T));
        if (mode == LSTM) std::memcpy(last ? cN + b * H : CP + g.row(tn, b) * H, CP + r * H, H * sizeof(T));
        std::fill(y, y + H, T(0));
        continue;
      }
      T* a = ACT + r * W;
      const T* s = S + b * G;
      if (mode == LSTM) {
        const T* cp = CP + r * H;
        T* cn = last ? cN + b * H : CP + g.row(tn, b) * H;
        CHUNKS(H) {
          auto pre = [&](int64_t q) {
            return Vec::loadu(a + q * H + j, n) + Vec::loadu(s + q * H + j, n) + Vec::loadu(bih + q * H + j, n) +
                   Vec::loadu(bhh + q * H + j, n);
          };
          const Vec i = sigm(pre(0)), f = sigm(pre(1)), c_ = pre(2).tanh(), o = sigm(pre(3));
          const Vec c = f * Vec::loadu(cp + j, n) + i * c_;
          const Vec h = o * c.tanh();
          i.store(a + j, n); f.store(a + H + j, n); c_.store(a + 2 * H + j, n); o.store(a + 3 * H + j, n);
          c.store(cn + j, n); h.store(hn + j, n); h.store(y + j, n);
        }
      } else if (mode == GRU) {
        CHUNKS(H) {
          const Vec r_ = sigm(Vec::loadu(a + j, n) + Vec::loadu(bih + j, n) + Vec::loadu(s + j, n) +
                              Vec::loadu(bhh + j, n));
          const Vec z = sigm(Vec::loadu(a + H + j, n) + Vec::loadu(bih + H + j, n) + Vec::loadu(s + H + j, n) +
                             Vec::loadu(bhh + H + j, n));
          const Vec hc = Vec::loadu(s + 2 * H + j, n) + Vec::loadu(bhh + 2 * H + j, n);
          const Vec c = (Vec::loadu(a + 2 * H + j, n) + Vec::loadu(bih + 2 * H + j, n) + r_ * hc).tanh();
          const Vec h = (Vec::loadu(hp + j, n) - c) * z + c;  // Paddle: z * h_prev + (1 - z) * c
          r_.store(a + j, n); z.store(a + H + j, n); c.store(a + 2 * H + j, n); hc.store(a + 3 * H + j, n);
          h.store(hn + j, n); h.store(y + j, n);
        }
      } else {
        CHUNKS(H) {
          const Vec p = Vec::loadu(a + j, n) + Vec::loadu(s + j, n) + Vec::loadu(bih + j, n) + Vec::loadu(bhh + j, n);
          const Vec h = mode == RNN_TANH ? p.tanh() : at::vec::maximum(p, zero);
          h.store(a + j, n); h.store(hn + j, n); h.store(y + j, n);
        }
      }
    }
    });
  }
  (void)one;
}

// one layer, one direction, backward.  dY [rows, *] (ld ldy, may be null), dhN / dcN [B, H] (may be null).
// Writes dGx / dGh [rows, G] (gate gradients w.r.t. the x- and h-projections; the same buffer except for
// GRU), dh0 / dc0 [B, H].  dh / dh2 / dc are [B, H] scratch.
template <typename T>
static void layer_bwd(int64_t mode, const Geometry& g, bool reverse, const T* Whh, int64_t H, const T* HP,
                      const T* CP, const T* ACT, const T* dY, int64_t ldy, const T* dhN, const T* dcN, T* dGx, T* dGh,
                      T* dh0, T* dc0, T* dh, T* dh2, T* dc) {
  using Vec = Vectorized<T>;
  constexpr int64_t VS = Vec::size();
  const int64_t G = n_gates(mode) * H, W = act_width(mode, H), B = g.B, T_ = g.T;
  const Vec one(T(1)), zero(T(0));
  if (dhN) std::memcpy(dh, dhN, B * H * sizeof(T)); else std::fill(dh, dh + B * H, T(0));
  if (mode == LSTM) { if (dcN) std::memcpy(dc, dcN, B * H * sizeof(T)); else std::fill(dc, dc + B * H, T(0)); }
  for (int64_t k = T_ - 1; k >= 0; --k) {
    const int64_t t = reverse ? T_ - 1 - k : k;
    at::parallel_for(0, B, std::max<int64_t>(1, 16384 / std::max<int64_t>(W, 1)), [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t r = g.row(t, b);
      T* gx = dGx + r * G;
      T* gh = dGh + r * G;
      T* dhb = dh + b * H;
      T* dnext = dh2 + b * H;  // the part of dh_prev that does not go through W_hh
      if (!g.valid(t, b)) {
        std::fill(gx, gx + G, T(0));
        if (gh != gx) std::fill(gh, gh + G, T(0));
        std::memcpy(dnext, dhb, H * sizeof(T));
        continue;
      }
      const T* a = ACT + r * W;
      const T* dy = dY ? dY + r * ldy : nullptr;
      auto grad_h = [&](int64_t j, int64_t n) {
        Vec v = Vec::loadu(dhb + j, n);
        return dy ? v + Vec::loadu(dy + j, n) : v;
      };
      if (mode == LSTM) {
        const T* cp = CP + r * H;
        T* dcb = dc + b * H;
        CHUNKS(H) {
          const Vec i = Vec::loadu(a + j, n), f = Vec::loadu(a + H + j, n), c_ = Vec::loadu(a + 2 * H + j, n),
                    o = Vec::loadu(a + 3 * H + j, n), cprev = Vec::loadu(cp + j, n);
          const Vec tc = (f * cprev + i * c_).tanh();
          const Vec dhv = grad_h(j, n);
          const Vec dct = Vec::loadu(dcb + j, n) + dhv * o * (one - tc * tc);
          (dct * c_ * i * (one - i)).store(gx + j, n);
          (dct * cprev * f * (one - f)).store(gx + H + j, n);
          (dct * i * (one - c_ * c_)).store(gx + 2 * H + j, n);
          (dhv * tc * o * (one - o)).store(gx + 3 * H + j, n);
          (dct * f).store(dcb + j, n);
          zero.store(dnext + j, n);
        }
      } else if (mode == GRU) {
        const T* hp = HP + r * H;
        CHUNKS(H) {
          const Vec r_ = Vec::loadu(a + j, n), z = Vec::loadu(a + H + j, n), c = Vec::loadu(a + 2 * H + j, n),
                    hc = Vec::loadu(a + 3 * H + j, n);
          const Vec dhv = grad_h(j, n);
          const Vec dcp = dhv * (one - z) * (one - c * c);  // through the candidate's tanh
          const Vec dzp = dhv * (Vec::loadu(hp + j, n) - c) * z * (one - z);
          const Vec drp = dcp * hc * r_ * (one - r_);
          drp.store(gx + j, n); drp.store(gh + j, n);
          dzp.store(gx + H + j, n); dzp.store(gh + H + j, n);
          dcp.store(gx + 2 * H + j, n); (dcp * r_).store(gh + 2 * H + j, n);
          (dhv * z).store(dnext + j, n);
        }
      } else {
        CHUNKS(H) {
          const Vec h = Vec::loadu(a + j, n);
          const Vec dhv = grad_h(j, n);
          const Vec d = mode == RNN_TANH ? dhv * (one - h * h) : Vec::blendv(zero, dhv, h > zero);
          d.store(gx + j, n);
          zero.store(dnext + j, n);
        }
      }
    }
    });
    // dh_prev = (direct part) + dgates_h @ W_hh
    mm<T>(false, false, B, H, G, dGh + g.row(t, 0) * G, g.bs * G, Whh, H, T(1), dh2, H);
    std::swap(dh, dh2);
  }
  std::memcpy(dh0, dh, B * H * sizeof(T));
  if (mode == LSTM) std::memcpy(dc0, dc, B * H * sizeof(T));
}

template <typename T>
static void col_sum(const T* A, int64_t rows, int64_t cols, T* out) {
  using Vec = Vectorized<T>;
  constexpr int64_t VS = Vec::size();
  std::fill(out, out + cols, T(0));
  for (int64_t r = 0; r < rows; ++r) {
    const T* a = A + r * cols;
    CHUNKS(cols) { (Vec::loadu(out + j, n) + Vec::loadu(a + j, n)).store(out + j, n); }
  }
}

static Geometry geometry(const Tensor& x, bool batch_first, const c10::optional<Tensor>& lengths) {
  Geometry g;
  g.B = x.size(batch_first ? 0 : 1);
  g.T = x.size(batch_first ? 1 : 0);
  g.rows = g.T * g.B;
  g.ts = batch_first ? 1 : g.B;
  g.bs = batch_first ? g.T : 1;
  g.len = nullptr;
  if (lengths.has_value() && lengths->defined()) {
    TORCH_CHECK(lengths->scalar_type() == at::kLong && lengths->is_contiguous() && lengths->numel() == g.B,
                "rnn: sequence_length must be int64 [batch]");
    const int64_t* l = lengths->data_ptr<int64_t>();
    for (int64_t b = 0; b < g.B; ++b)
      TORCH_CHECK_VALUE(l[b] >= 0 && l[b] <= g.T, "sequence_length[", b, "] = ", l[b],
                        " is out of the range [0, ", g.T, "] of the time steps");
    g.len = l;
  }
  return g;
}

// -> [y, hN, cN (undefined unless LSTM), then what backward needs when need_saved: HP [L*D, rows, H],
//     CP [L*D or 0, rows, H], ACT [L*D, rows, W] (top of this file) and the outputs of the layers below the top
//     one [L-1, rows, D*H]].  Few, flat buffers: every tensor made or indexed here is a dispatcher call.
std::vector<Tensor> rnn_fwd(int64_t mode, const Tensor& x_, const c10::optional<Tensor>& h0_,
                            const c10::optional<Tensor>& c0_, std::vector<Tensor> weights, int64_t num_layers,
                            bool bidir, bool batch_first, const c10::optional<Tensor>& lengths, bool need_saved) {
  const int64_t D = bidir ? 2 : 1, L = num_layers;
  TORCH_CHECK((int64_t)weights.size() == 4 * L * D, "rnn: expected 4 weights per layer and direction");
  TORCH_CHECK(x_.device().is_cpu() && x_.dim() == 3, "rnn: the input must be a 3-D CPU tensor");
  const Tensor x = x_.contiguous();
  for (auto& w : weights) w = w.contiguous();
  const int64_t H = weights[1].size(1);
  const Geometry g = geometry(x, batch_first, lengths);
  // absent initial states are zeros (one buffer for both)
  const bool h_given = h0_.has_value() && h0_->defined(), c_given = c0_.has_value() && c0_->defined();
  const Tensor zeros = h_given && (mode != LSTM || c_given) ? Tensor() : at::zeros({L * D, g.B, H}, x.options());
  const Tensor h0 = h_given ? h0_->contiguous() : zeros;
  const Tensor c0 = mode != LSTM ? Tensor() : c_given ? c0_->contiguous() : zeros;
  auto same_kind = [&](const Tensor& t, const char* what) {
    TORCH_CHECK(t.device() == x.device() && t.scalar_type() == x.scalar_type(), "rnn: ", what,
                " must be on the input's device with its dtype (", x.scalar_type(), "), got ", t.scalar_type(),
                " on ", t.device());
  };
  same_kind(h0, "the initial state");
  TORCH_CHECK(h0.dim() == 3 && h0.size(0) == L * D && h0.size(1) == g.B && h0.size(2) == H,
              "rnn: the initial state must be [", L * D, ", ", g.B, ", ", H, "], got ", h0.sizes());
  if (mode == LSTM) {
    same_kind(c0, "the initial cell state");
    TORCH_CHECK(c0.sizes() == h0.sizes(), "rnn: the initial cell state must be [", L * D, ", ", g.B, ", ", H,
                "], got ", c0.sizes());
  }
  for (const auto& w : weights) same_kind(w, "the weights");
  const int64_t G_ = n_gates(mode) * H;
  for (int64_t ld = 0; ld < L * D; ++ld)
    TORCH_CHECK(weights[4 * ld].dim() == 2 && weights[4 * ld].size(0) == G_ &&
                    weights[4 * ld + 1].sizes() == at::IntArrayRef({G_, H}) &&
                    weights[4 * ld + 2].sizes() == at::IntArrayRef({G_}) &&
                    weights[4 * ld + 3].sizes() == at::IntArrayRef({G_}),
                "rnn: the weights of layer ", ld / D, " do not have the shapes of ", G_ / H, " gates of hidden size ", H);
  auto opt = x.options();
  const int64_t W = act_width(mode, H), G = n_gates(mode) * H, DH = D * H, BH = g.B * H;
  const int64_t slots = need_saved ? L * D : 1;  // without backward one set of buffers is reused
  Tensor hN = at::empty({L * D, g.B, H}, opt);
  Tensor cN = mode == LSTM ? at::empty({L * D, g.B, H}, opt) : Tensor();
  Tensor HP = at::empty({slots, g.rows, H}, opt);
  Tensor CP = at::empty({mode == LSTM ? slots : 0, g.rows, H}, opt);
  Tensor ACT = at::empty({slots, g.rows, W}, opt);
  Tensor Ys = at::empty({need_saved ? std::max<int64_t>(L - 1, 0) : std::min<int64_t>(L - 1, 2), g.rows, DH}, opt);
  Tensor y = batch_first ? at::empty({g.B, g.T, DH}, opt) : at::empty({g.T, g.B, DH}, opt);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "rnn_fwd", [&] {
    using T = scalar_t;
    std::vector<T> S(g.B * G);
    const T* in = x.data_ptr<T>();
    int64_t I = x.size(2);
    for (int64_t l = 0; l < L; ++l) {
      T* Y = l == L - 1 ? y.data_ptr<T>() : Ys.data_ptr<T>() + (need_saved ? l : l % 2) * g.rows * DH;
      for (int64_t d = 0; d < D; ++d) {
        const int64_t ld = l * D + d, slot = need_saved ? ld : 0;
        TORCH_CHECK(weights[4 * ld].size(1) == I, "rnn: weight_ih of layer ", l, " expects input size ",
                    weights[4 * ld].size(1), " but got ", I);
        layer_fwd<T>(mode, g, d == 1, in, I, weights[4 * ld].data_ptr<T>(), weights[4 * ld + 1].data_ptr<T>(),
                     weights[4 * ld + 2].data_ptr<T>(), weights[4 * ld + 3].data_ptr<T>(), H,
                     h0.data_ptr<T>() + ld * BH, mode == LSTM ? c0.data_ptr<T>() + ld * BH : nullptr, Y + d * H, DH,
                     hN.data_ptr<T>() + ld * BH, mode == LSTM ? cN.data_ptr<T>() + ld * BH : nullptr,
                     HP.data_ptr<T>() + slot * g.rows * H, mode == LSTM ? CP.data_ptr<T>() + slot * g.rows * H : nullptr,
                     ACT.data_ptr<T>() + slot * g.rows * W, S.data());
      }
      in = Y;
      I = DH;
    }
  });
  if (!need_saved) return {y, hN, cN};
  return {y, hN, cN, HP, CP, ACT, Ys};
}

// -> [dx, dh0, dc0 (undefined unless LSTM), then dW_ih, dW_hh, db_ih, db_hh per layer and direction]
std::vector<Tensor> rnn_bwd(int64_t mode, const Tensor& x_, std::vector<Tensor> weights, int64_t num_layers, bool bidir,
                            bool batch_first, const c10::optional<Tensor>& lengths, const std::vector<Tensor>& saved,
                            const c10::optional<Tensor>& dy_, const c10::optional<Tensor>& dhN_,
                            const c10::optional<Tensor>& dcN_) {
  const Tensor x = x_.contiguous();
  for (auto& w : weights) w = w.contiguous();
  const int64_t D = bidir ? 2 : 1, H = weights[1].size(1), L = num_layers;
  const Geometry g = geometry(x, batch_first, lengths);
  const int64_t G = n_gates(mode) * H, W = act_width(mode, H), DH = D * H, BH = g.B * H;
  auto opt = x.options();
  auto get = [](const c10::optional<Tensor>& t) { return t.has_value() && t->defined() ? t->contiguous() : Tensor(); };
  const Tensor dy = get(dy_), dhN = get(dhN_), dcN = get(dcN_);
  const Tensor &HP = saved.at(0), &CP = saved.at(1), &ACT = saved.at(2), &Ys = saved.at(3);
  Tensor dx = at::empty(x.sizes(), opt);
  Tensor dh0 = at::empty({L * D, g.B, H}, opt);
  Tensor dc0 = mode == LSTM ? at::empty({L * D, g.B, H}, opt) : Tensor();
  std::vector<Tensor> dW(4 * L * D);
  for (int64_t i = 0; i < 4 * L * D; ++i) dW[i] = at::empty(weights[i].sizes(), opt);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "rnn_bwd", [&] {
    using T = scalar_t;
    std::vector<T> dGx(g.rows * G), dGh(mode == GRU ? g.rows * G : 0), scratch(3 * BH), dXmid[2];
    const T* dY = dy.defined() ? dy.data_ptr<T>() : nullptr;  // the gradient of this layer's output
    for (int64_t l = L - 1; l >= 0; --l) {
      const T* in = l == 0 ? x.data_ptr<T>() : Ys.data_ptr<T>() + (l - 1) * g.rows * DH;
      const int64_t I = l == 0 ? x.size(2) : DH;
      T* dX;
      if (l == 0) {
        dX = dx.data_ptr<T>();
      } else {
        dXmid[l % 2].resize(g.rows * DH);
        dX = dXmid[l % 2].data();
      }
      T* gx = dGx.data();
      T* gh = mode == GRU ? dGh.data() : gx;
      for (int64_t d = 0; d < D; ++d) {
        const int64_t ld = l * D + d;
        const T* Wih = weights[4 * ld].data_ptr<T>();
        layer_bwd<T>(mode, g, d == 1, weights[4 * ld + 1].data_ptr<T>(), H, HP.data_ptr<T>() + ld * g.rows * H,
                     mode == LSTM ? CP.data_ptr<T>() + ld * g.rows * H : nullptr, ACT.data_ptr<T>() + ld * g.rows * W,
                     dY ? dY + d * H : nullptr, DH, dhN.defined() ? dhN.data_ptr<T>() + ld * BH : nullptr,
                     dcN.defined() ? dcN.data_ptr<T>() + ld * BH : nullptr, gx, gh, dh0.data_ptr<T>() + ld * BH,
                     mode == LSTM ? dc0.data_ptr<T>() + ld * BH : nullptr, scratch.data(), scratch.data() + BH,
                     scratch.data() + 2 * BH);
        T* dbih = dW[4 * ld + 2].data_ptr<T>();
        T* dbhh = dW[4 * ld + 3].data_ptr<T>();
        mm<T>(true, false, G, I, g.rows, gx, G, in, I, T(0), dW[4 * ld].data_ptr<T>(), I);
        mm<T>(true, false, G, H, g.rows, gh, G, HP.data_ptr<T>() + ld * g.rows * H, H, T(0),
              dW[4 * ld + 1].data_ptr<T>(), H);
        col_sum<T>(gx, g.rows, G, dbih);
        if (mode == GRU) col_sum<T>(gh, g.rows, G, dbhh); else std::memcpy(dbhh, dbih, G * sizeof(T));
        mm<T>(false, false, g.rows, I, G, gx, G, Wih, I, d == 0 ? T(0) : T(1), dX, I);
      }
      dY = dX;
    }
  });
  std::vector<Tensor> res{dx, dh0, dc0};
  res.insert(res.end(), dW.begin(), dW.end());
  return res;
}

// One autograd node in C++ (a Python autograd.Function costs ~28 us a call, the kernel itself ~22 + 25 us at
// the model zoo's sizes).  Backward is raw arithmetic, not differentiable: create_graph=True raises.
struct RNNFunction : public torch::autograd::Function<RNNFunction> {
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, int64_t mode, int64_t L,
                                                bool bidir, bool batch_first, const c10::optional<Tensor>& lengths,
                                                const Tensor& x, const c10::optional<Tensor>& h0,
                                                const c10::optional<Tensor>& c0, at::TensorList weights) {
    std::vector<Tensor> w(weights.begin(), weights.end());
    std::vector<Tensor> res = rnn_fwd(mode, x, h0, c0, w, L, bidir, batch_first, lengths, true);
    ctx->set_materialize_grads(false);  // an unused output's gradient stays undefined: no zeros to add
    std::vector<Tensor> keep{x};
    keep.insert(keep.end(), w.begin(), w.end());
    keep.insert(keep.end(), res.begin() + 3, res.end());
    ctx->save_for_backward(keep);
    ctx->saved_data["mode"] = mode;
    ctx->saved_data["L"] = L;
    ctx->saved_data["bidir"] = bidir;
    ctx->saved_data["batch_first"] = batch_first;
    ctx->saved_data["lengths"] = lengths.has_value() && lengths->defined() ? c10::IValue(*lengths) : c10::IValue();
    ctx->saved_data["h0"] = h0.has_value() && h0->defined();
    ctx->saved_data["c0"] = c0.has_value() && c0->defined();
    if (mode == LSTM) return {res[0], res[1], res[2]};
    return {res[0], res[1]};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    TORCH_CHECK(!at::GradMode::is_enabled(),
                "paddle_on_torch's RNN kernel has no double backward (create_graph=True)");
    const int64_t mode = ctx->saved_data["mode"].toInt(), L = ctx->saved_data["L"].toInt();
    const bool bidir = ctx->saved_data["bidir"].toBool(), batch_first = ctx->saved_data["batch_first"].toBool();
    const c10::IValue& len = ctx->saved_data["lengths"];
    const c10::optional<Tensor> lengths = len.isNone() ? c10::optional<Tensor>() : len.toTensor();
    const int64_t nw = 4 * L * (bidir ? 2 : 1);
    const torch::autograd::variable_list saved = ctx->get_saved_variables();
    const std::vector<Tensor> w(saved.begin() + 1, saved.begin() + 1 + nw), inner(saved.begin() + 1 + nw, saved.end());
    auto grad = [&](size_t i) {
      return i < grads.size() && grads[i].defined() ? c10::optional<Tensor>(grads[i]) : c10::optional<Tensor>();
    };
    std::vector<Tensor> g = rnn_bwd(mode, saved[0], w, L, bidir, batch_first, lengths, inner, grad(0), grad(1), grad(2));
    // one entry per forward argument: mode, L, bidir, batch_first, lengths, x, h0, c0, then each weight
    torch::autograd::variable_list out{Tensor(), Tensor(), Tensor(), Tensor(), Tensor(), g[0],
                                       ctx->saved_data["h0"].toBool() ? g[1] : Tensor(),
                                       ctx->saved_data["c0"].toBool() ? g[2] : Tensor()};
    out.insert(out.end(), g.begin() + 3, g.end());
    return out;
  }
};

// ------------------------------------------------------------ the ops (schemas: kernels/rnn.py)

// The kernel computes in float32 / float64; other dtypes run it in float32 and come back in theirs.
static bool kernel_dtype(const Tensor& x) { return x.scalar_type() == at::kFloat || x.scalar_type() == at::kDouble; }
static c10::optional<Tensor> to_f(const c10::optional<Tensor>& t) {
  return t.has_value() && t->defined() ? c10::optional<Tensor>(t->to(at::kFloat)) : t;
}
static std::vector<Tensor> to_f(at::TensorList ts) {
  std::vector<Tensor> r;
  for (const Tensor& t : ts) r.push_back(t.to(at::kFloat));
  return r;
}
static c10::optional<Tensor> nonempty(const c10::optional<Tensor>& t) {
  return t.has_value() && t->defined() && t->numel() ? t : c10::nullopt;
}

// y, h_n, c_n (empty unless LSTM)
std::tuple<Tensor, Tensor, Tensor> rnn_cpu(int64_t mode, const Tensor& x, const c10::optional<Tensor>& h0,
                                           const c10::optional<Tensor>& c0, at::TensorList weights, int64_t num_layers,
                                           bool bidir, bool batch_first, const c10::optional<Tensor>& lengths) {
  if (!kernel_dtype(x)) {
    auto r = rnn_cpu(mode, x.to(at::kFloat), to_f(h0), to_f(c0), to_f(weights), num_layers, bidir, batch_first, lengths);
    return {std::get<0>(r).to(x.scalar_type()), std::get<1>(r).to(x.scalar_type()), std::get<2>(r).to(x.scalar_type())};
  }
  std::vector<Tensor> w(weights.begin(), weights.end());
  std::vector<Tensor> r = rnn_fwd(mode, x, h0, c0, w, num_layers, bidir, batch_first, lengths, false);
  return {r[0], r[1], mode == LSTM ? r[2] : x.new_empty({0})};
}

// [dx, dh0, dc0 (empty unless LSTM), then one gradient per weight]; the activations are recomputed (the op returns
// only y, h_n, c_n: what a fake and the reference can give).
std::vector<Tensor> rnn_bwd_cpu(int64_t mode, const Tensor& x, const c10::optional<Tensor>& h0,
                                const c10::optional<Tensor>& c0, at::TensorList weights, int64_t num_layers, bool bidir,
                                bool batch_first, const c10::optional<Tensor>& lengths, const c10::optional<Tensor>& dy,
                                const c10::optional<Tensor>& dh, const c10::optional<Tensor>& dc) {
  if (!kernel_dtype(x)) {
    std::vector<Tensor> g = rnn_bwd_cpu(mode, x.to(at::kFloat), to_f(h0), to_f(c0), to_f(weights), num_layers, bidir,
                                        batch_first, lengths, to_f(dy), to_f(dh), to_f(dc));
    g[0] = g[0].to(x.scalar_type());
    for (size_t i = 1; i < 3; ++i) g[i] = g[i].to(x.scalar_type());
    for (size_t i = 3; i < g.size(); ++i) g[i] = g[i].to(weights[i - 3].scalar_type());
    return g;
  }
  std::vector<Tensor> w(weights.begin(), weights.end());
  std::vector<Tensor> fwd = rnn_fwd(mode, x, h0, c0, w, num_layers, bidir, batch_first, lengths, true);
  std::vector<Tensor> saved(fwd.begin() + 3, fwd.end());
  std::vector<Tensor> g = rnn_bwd(mode, x, w, num_layers, bidir, batch_first, lengths, saved, nonempty(dy),
                                  nonempty(dh), nonempty(dc));
  if (mode != LSTM) g[2] = x.new_empty({0});
  return g;
}

using RnnSig = std::tuple<Tensor, Tensor, Tensor>(int64_t, const Tensor&, const c10::optional<Tensor>&,
                                                  const c10::optional<Tensor>&, at::TensorList, int64_t, bool, bool,
                                                  const c10::optional<Tensor>&);
using RnnBwdSig = std::vector<Tensor>(int64_t, const Tensor&, const c10::optional<Tensor>&,
                                      const c10::optional<Tensor>&, at::TensorList, int64_t, bool, bool,
                                      const c10::optional<Tensor>&, const c10::optional<Tensor>&,
                                      const c10::optional<Tensor>&, const c10::optional<Tensor>&);
static c10::TypedOperatorHandle<RnnSig> rnn_op() {
  static const auto op = c10::Dispatcher::singleton().findSchemaOrThrow("paddle_on_torch::rnn", "").typed<RnnSig>();
  return op;
}

// The formula of the op on inputs the kernel cannot run directly (fake tensors under torch.compile / export /
// opcheck, a dispatch mode, tensor subclasses, dtypes other than float32 / float64): the op and rnn_bwd through the
// dispatcher below the autograd keys (rnn_bwd recomputes the activations).
struct RNNOpFunction : public torch::autograd::Function<RNNOpFunction> {
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, int64_t mode, const Tensor& x,
                                                const c10::optional<Tensor>& h0, const c10::optional<Tensor>& c0,
                                                at::TensorList weights, int64_t L, bool bidir, bool batch_first,
                                                const c10::optional<Tensor>& lengths) {
    std::vector<Tensor> keep{x, h0.has_value() ? *h0 : Tensor(), c0.has_value() ? *c0 : Tensor(),
                             lengths.has_value() ? *lengths : Tensor()};
    keep.insert(keep.end(), weights.begin(), weights.end());
    ctx->save_for_backward(keep);
    ctx->saved_data["m"] = std::vector<int64_t>{mode, L, bidir, batch_first};
    ctx->set_materialize_grads(false);
    at::AutoDispatchBelowADInplaceOrView below;
    auto r = rnn_op().call(mode, x, h0, c0, weights, L, bidir, batch_first, lengths);
    return {std::get<0>(r), std::get<1>(r), std::get<2>(r)};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    TORCH_CHECK(!at::GradMode::is_enabled(), "paddle_on_torch's RNN kernel has no double backward (create_graph=True)");
    static const auto op =
        c10::Dispatcher::singleton().findSchemaOrThrow("paddle_on_torch::rnn_bwd", "").typed<RnnBwdSig>();
    const torch::autograd::variable_list s = ctx->get_saved_variables();
    const std::vector<int64_t> m = ctx->saved_data["m"].toIntVector();
    auto opt = [](const Tensor& t) { return t.defined() ? c10::optional<Tensor>(t) : c10::nullopt; };
    const std::vector<Tensor> w(s.begin() + 4, s.end());
    at::AutoDispatchBelowADInplaceOrView below;
    std::vector<Tensor> g = op.call(m[0], s[0], opt(s[1]), opt(s[2]), w, m[1], m[2], m[3], opt(s[3]), opt(grads[0]),
                                    opt(grads[1]), m[0] == LSTM ? opt(grads[2]) : c10::nullopt);
    // one entry per forward argument: mode, x, h0, c0, then each weight (a TensorList input), L, bidir,
    // batch_first, lengths
    torch::autograd::variable_list out{Tensor(), g[0], s[1].defined() ? g[1] : Tensor(), s[2].defined() ? g[2] : Tensor()};
    out.insert(out.end(), g.begin() + 3, g.end());
    out.insert(out.end(), {Tensor(), Tensor(), Tensor(), Tensor()});
    return out;
  }
};

// Whether the kernel may run here directly under its own node (RNNFunction, which keeps the activations): plain
// CPU tensors of its dtypes, no dispatch mode (make_fx / FakeTensorMode / DTensor's).
static bool direct(const Tensor& x, at::TensorList weights) {
  if (!kernel_dtype(x) || c10::impl::dispatch_mode_enabled()) return false;
  const c10::DispatchKeySet python(c10::DispatchKeySet::RAW, c10::DispatchKeySet(c10::DispatchKey::Python).raw_repr() |
                                   c10::DispatchKeySet(c10::DispatchKey::Functionalize).raw_repr());
  if (x.key_set().has_any(python)) return false;
  for (const Tensor& w : weights)
    if (w.key_set().has_any(python)) return false;
  return true;
}

// The autograd kernel of paddle_on_torch::rnn on the CPU: the eager fast path (RNNFunction, one C++ node whose
// backward uses the saved activations) for plain tensors, the op's formula (RNNOpFunction) otherwise.
static std::tuple<Tensor, Tensor, Tensor> rnn_autograd_cpu(int64_t mode, const Tensor& x,
                                                           const c10::optional<Tensor>& h0,
                                                           const c10::optional<Tensor>& c0, at::TensorList weights,
                                                           int64_t L, bool bidir, bool batch_first,
                                                           const c10::optional<Tensor>& lengths) {
  bool needs = at::GradMode::is_enabled() && (x.requires_grad() || (h0.has_value() && h0->requires_grad()) ||
                                               (c0.has_value() && c0->requires_grad()));
  for (const Tensor& w : weights) needs = needs || (at::GradMode::is_enabled() && w.requires_grad());
  if (!needs) {
    at::AutoDispatchBelowADInplaceOrView below;
    return rnn_op().call(mode, x, h0, c0, weights, L, bidir, batch_first, lengths);
  }
  if (direct(x, weights)) {
    torch::autograd::variable_list r = RNNFunction::apply(mode, L, bidir, batch_first, lengths, x, h0, c0, weights);
    return {r[0], r[1], mode == LSTM ? r[2] : x.new_empty({0})};
  }
  torch::autograd::variable_list r = RNNOpFunction::apply(mode, x, h0, c0, weights, L, bidir, batch_first, lengths);
  return {r[0], r[1], r[2]};
}

TORCH_LIBRARY_IMPL(paddle_on_torch, CPU, m) {
  m.impl("rnn", &rnn_cpu);
  m.impl("rnn_bwd", &rnn_bwd_cpu);
}

TORCH_LIBRARY_IMPL(paddle_on_torch, AutogradCPU, m) { m.impl("rnn", &rnn_autograd_cpu); }

// What is not an op: the GEMM path switch (tests/test_rnn_kernel.py).  The kernels are reached through the ops only.
void bind_rnn(pybind11::module_& m) {
  m.def("set_gemm_path", &set_gemm_path);
  m.def("get_gemm_path", &get_gemm_path);
}
