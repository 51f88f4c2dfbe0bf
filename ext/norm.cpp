// paddle_on_torch::norm_fwd / norm_bwd (kernels/norm.py: RMS and layer norm with residual, bias and residual_alpha):
// the CPU kernels and the autograd kernel, registered with TORCH_LIBRARY_IMPL under the schema kernels/norm.py
// defines.
//
//   CPU          norm_fwd_cpu / norm_bwd_cpu: one pass over each row in fp32 (bf16 / fp16 rows converted row by
//                row); float64 and empty inputs take the ATen composition below (kernels/norm.py's reference, in
//                C++), so every input the op takes has a CPU kernel here
//   AutogradCPU  NormFunction: the autograd formula in C++ (the op's Python formula, register_autograd, serves the
//                other devices).  It calls norm_fwd and norm_bwd through the dispatcher below the autograd keys, so
//                fake tensors (torch.compile, export, opcheck) reach the fake kernel and a forced backend
//                (kernels/dispatch.py) its kernel; eager CPU calls never enter Python after the op call.
#include "cpu_kernels.h"

#include <torch/csrc/autograd/custom_function.h>

using at::Tensor;
using c10::optional;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// ------------------------------------------------------------ norm forward
// x: [M, N] contiguous.  Returns out [M, N], residual_out [M, N] (empty if no residual),
// mean [M] (layer norm; empty for rms), rstd [M] (float32).  The outputs of 1 MiB and more come from the cache
// of freed blocks (output_cache.cpp): a fresh 64 MiB one would cost ~16k page faults on first touch, more than the
// kernel itself.
std::vector<at::Tensor> norm_fwd_impl(const at::Tensor& x, const c10::optional<at::Tensor>& residual,
                                 const c10::optional<at::Tensor>& bias, const c10::optional<at::Tensor>& weight,
                                 const c10::optional<at::Tensor>& norm_bias, double eps, double alpha, bool rms,
                                 at::IntArrayRef shape = {}) {
  // shape: the sizes out / residual_out are allocated with ([M, N] when empty; the C++ autograd node passes x's
  // original shape, so that its outputs are not views)
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "norm_fwd: x must be a contiguous 2-D tensor");
  const int64_t M = x.size(0), N = x.size(1);
  const bool has_res = residual.has_value() && residual->defined();
  at::Tensor res = has_res ? residual->contiguous() : at::Tensor();
  at::Tensor b = has_res ? as_float(bias) : at::Tensor();  // Paddle adds bias only together with residual
  at::Tensor w = as_float(weight), nb = as_float(norm_bias);
  at::Tensor out = big_empty(shape.empty() ? x.sizes() : shape, x.options());
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

// ------------------------------------------------------------ the ATen composition (float64, empty inputs)
// kernels/norm.py's ref_norm / ref_norm_bwd, for the dtypes the row kernels above do not take.

static at::ScalarType acc_type(const Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

static std::vector<Tensor> norm_fwd_aten(const Tensor& x, const optional<Tensor>& residual, const optional<Tensor>& bias,
                                         const optional<Tensor>& weight, const optional<Tensor>& norm_bias, double eps,
                                         double alpha, bool rms) {
  const auto acc = acc_type(x);
  Tensor s = x.to(acc), res_out = x.new_empty({0});
  if (given(residual)) {
    s = s + alpha * residual->to(acc);
    if (given(bias)) s = s + bias->to(acc);
    res_out = s.to(x.scalar_type());  // the kernels normalise the unrounded sum
  }
  Tensor mean = s.new_empty({0}), rstd, y;
  if (rms) {
    rstd = at::rsqrt(s.pow(2).mean(-1) + eps);
    y = s * rstd.unsqueeze(1);
  } else {
    mean = s.mean(-1);
    const Tensor c = s - mean.unsqueeze(1);
    rstd = at::rsqrt(c.pow(2).mean(-1) + eps);
    y = c * rstd.unsqueeze(1);
  }
  if (given(weight)) y = y * weight->to(acc);
  if (given(norm_bias)) y = y + norm_bias->to(acc);
  return {y.to(x.scalar_type()).contiguous(), res_out.contiguous(), mean.to(at::kFloat), rstd.to(at::kFloat)};
}

static std::vector<Tensor> norm_bwd_aten(const Tensor& g, const Tensor& s, const Tensor& mean, const Tensor& rstd,
                                         const optional<Tensor>& weight, bool rms, bool want_ds, bool want_dw,
                                         bool want_db) {
  const auto acc = acc_type(s);
  const Tensor dyf = g.to(acc), sf = s.to(acc), r = rstd.to(acc).unsqueeze(1);
  const Tensor xhat = (rms ? sf : sf - mean.to(acc).unsqueeze(1)) * r;
  Tensor ds;
  if (want_ds) {
    const Tensor gw = given(weight) ? dyf * weight->to(acc) : dyf;
    const int64_t n = s.size(1);
    ds = gw - xhat * ((gw * xhat).sum(-1, true) / n);
    if (!rms) ds = ds - gw.sum(-1, true) / n;
    ds = (ds * r).to(s.scalar_type());
  }
  return {ds, want_dw ? (dyf * xhat).sum(0).to(at::kFloat) : Tensor(),
          want_db ? dyf.sum(0).to(at::kFloat) : Tensor()};
}

// ------------------------------------------------------------ the CPU kernels of the ops

static void rows_of(const Tensor& x, int64_t begin_norm_axis, int64_t& M, int64_t& N) {
  TORCH_CHECK(begin_norm_axis >= 0 && begin_norm_axis < std::max<int64_t>(x.dim(), 1),
              "norm_fwd: begin_norm_axis out of range");
  M = 1;
  for (int64_t i = 0; i < begin_norm_axis; ++i) M *= x.size(i);
  N = 1;
  for (int64_t i = begin_norm_axis; i < x.dim(); ++i) N *= x.size(i);
}

// x: any shape, rows of N = prod(shape[begin_norm_axis:]); residual: x's shape; bias, weight, norm_bias: [N].
// out and residual_out come back in x's shape, mean / rstd as [M] float32 (mean empty for rms, residual_out
// empty without a residual).
std::tuple<Tensor, Tensor, Tensor, Tensor> norm_fwd_cpu(const Tensor& x, const optional<Tensor>& residual,
                                                        const optional<Tensor>& bias, const optional<Tensor>& weight,
                                                        const optional<Tensor>& norm_bias, double eps, double alpha,
                                                        bool rms, int64_t begin_norm_axis) {
  int64_t M, N;
  rows_of(x, begin_norm_axis, M, N);
  const bool has_res = given(residual);
  TORCH_CHECK_VALUE(!has_res || residual->sizes() == x.sizes(), "norm_fwd: residual must have x's shape");
  for (const auto* t : {&bias, &weight, &norm_bias})
    TORCH_CHECK_VALUE(!given(*t) || ((*t)->dim() == 1 && (*t)->numel() == N), "norm_fwd: weights and biases must be "
                      "1-D of the ", N, " elements of a row, got ", (*t)->sizes());
  const optional<Tensor> res = has_res ? optional<Tensor>(residual->reshape({M, N})) : c10::nullopt;
  const optional<Tensor> b = has_res ? bias : c10::nullopt;  // Paddle adds the bias only together with a residual
  std::vector<Tensor> r;
  if (fast_dtype(x)) {
    r = norm_fwd_impl(x.reshape({M, N}).contiguous(), res, b, weight, norm_bias, eps, alpha, rms, x.sizes());
  } else {
    r = norm_fwd_aten(x.reshape({M, N}), res, b, weight, norm_bias, eps, alpha, rms);
    r[0] = r[0].view(x.sizes());
    if (has_res) r[1] = r[1].view(x.sizes());
  }
  return {r[0], r[1], r[2], r[3]};
}

// The backward of norm_fwd, whole.  s: x (or residual_out with a residual), x's shape; g_out: the gradient of out
// (undefined: zero; a row broadcast over all rows, the gradient of a sum(), is read as that one row); g_res: that
// of residual_out (undefined: zero).  Returns dx (s's shape and dtype: x's gradient), dres (the residual's:
// alpha * dx; empty when alpha == 1, then it is dx), dbias, dweight, dnorm_bias (float32 [N]); each empty unless
// wanted (want_dx: x's or the residual's).
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> norm_bwd_cpu(
    const optional<Tensor>& g_out, const optional<Tensor>& g_res, const Tensor& s_, const Tensor& mean,
    const Tensor& rstd, const optional<Tensor>& weight, double alpha, bool rms, bool has_res, bool want_dx,
    bool want_dbias, bool want_dw, bool want_db, int64_t begin_norm_axis) {
  int64_t M, N;
  rows_of(s_, begin_norm_axis, M, N);
  const Tensor s = s_.reshape({M, N}).contiguous();
  const bool want_ds = want_dx || (has_res && want_dbias);
  std::vector<Tensor> r;
  if (fast_dtype(s)) {
    Tensor g;
    int64_t sdy = N;
    if (!given(g_out)) {
      g = at::zeros({N}, s.options());
      sdy = 0;
    } else {
      g = g_out->reshape({M, N});
      if (M > 1 && g.stride(0) == 0) {
        g = g.select(0, 0).contiguous();
        sdy = 0;
      } else {
        g = g.contiguous();
      }
    }
    r = norm_bwd_impl(g, sdy, s, mean, rstd, weight, rms, want_ds, want_dw, want_db);
  } else {
    const Tensor g = given(g_out) ? g_out->reshape({M, N}) : at::zeros({M, N}, s.options());
    r = norm_bwd_aten(g, s, mean, rstd, weight, rms, want_ds, want_dw, want_db);
  }
  Tensor ds = r[0], dres, dbias;
  if (want_ds && has_res) {
    if (given(g_res)) ds = ds.add_(g_res->reshape({M, N}));  // ds is this call's own buffer
    if (want_dx && alpha != 1.0) dres = (ds * alpha).view(s_.sizes());
    if (want_dbias) dbias = ds.to(at::kFloat).sum(0);
  }
  auto or_empty = [&](const Tensor& t, at::ScalarType dt) { return t.defined() ? t : at::empty({0}, s.options().dtype(dt)); };
  return {want_dx ? ds.view(s_.sizes()) : or_empty(Tensor(), s.scalar_type()), or_empty(dres, s.scalar_type()),
          or_empty(dbias, at::kFloat), or_empty(r[1], at::kFloat), or_empty(r[2], at::kFloat)};
}

// ------------------------------------------------------------ the autograd kernel

using NormFwdSig = std::tuple<Tensor, Tensor, Tensor, Tensor>(const Tensor&, const optional<Tensor>&,
                                                              const optional<Tensor>&, const optional<Tensor>&,
                                                              const optional<Tensor>&, double, double, bool, int64_t);
using NormBwdSig = std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor>(
    const optional<Tensor>&, const optional<Tensor>&, const Tensor&, const Tensor&, const Tensor&,
    const optional<Tensor>&, double, bool, bool, bool, bool, bool, bool, int64_t);

// A gradient in its input's dtype (weights are [N]: the op's contract).
static Tensor as_dtype(const Tensor& g, const c10::IValue& dtype) {
  return g.scalar_type() == dtype.toScalarType() ? g : g.to(dtype.toScalarType());
}

struct NormFunction : public torch::autograd::Function<NormFunction> {
  static variable_list forward(AutogradContext* ctx, const Tensor& x, const optional<Tensor>& residual,
                               const optional<Tensor>& bias, const optional<Tensor>& weight,
                               const optional<Tensor>& norm_bias, double eps, double alpha, bool rms,
                               int64_t begin_norm_axis) {
    static const auto op = op_handle<NormFwdSig>("paddle_on_torch::norm_fwd");
    at::AutoDispatchBelowADInplaceOrView below;
    auto out = op.call(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis);
    const bool has_res = given(residual);
    // residual_out is saved as the output itself (a view of it would keep this node alive through its base)
    ctx->save_for_backward({has_res ? std::get<1>(out) : x, std::get<2>(out), std::get<3>(out),
                            given(weight) ? *weight : Tensor()});
    // flags: residual, bias, norm bias, rms; the axis; the dtypes the weights' gradients go back in
    ctx->saved_data["f"] = int64_t(has_res) | int64_t(given(bias)) << 1 | int64_t(given(norm_bias)) << 2 |
                           int64_t(rms) << 3;
    ctx->saved_data["a"] = alpha;
    ctx->saved_data["k"] = begin_norm_axis;
    if (given(bias)) ctx->saved_data["tb"] = bias->scalar_type();
    if (given(weight)) ctx->saved_data["tw"] = weight->scalar_type();
    if (given(norm_bias)) ctx->saved_data["tn"] = norm_bias->scalar_type();
    ctx->mark_non_differentiable({std::get<2>(out), std::get<3>(out)});
    ctx->set_materialize_grads(false);  // no zeros for the statistics' (and an unused residual_out's) gradients
    return {std::get<0>(out), std::get<1>(out), std::get<2>(out), std::get<3>(out)};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    TORCH_CHECK(!at::GradMode::is_enabled(), "paddle_on_torch's fused norm op has no double backward "
                "(create_graph=True)");
    static const auto op = op_handle<NormBwdSig>("paddle_on_torch::norm_bwd");
    const variable_list saved = ctx->get_saved_variables();
    auto& data = ctx->saved_data;
    const Tensor &s = saved[0], &mean = saved[1], &rstd = saved[2], &weight = saved[3];
    const int64_t f = data["f"].toInt();
    const bool has_res = f & 1, has_bias = f & 2, has_nb = f & 4, rms = f & 8;
    const double alpha = data["a"].toDouble();
    // needs_input_grad counts only the tensors given: x, residual?, bias?, weight?, norm_bias?
    const size_t e_bias = 1 + has_res, e_w = e_bias + has_bias, e_nb = e_w + weight.defined();
    const bool want_dx = ctx->needs_input_grad(0) || (has_res && ctx->needs_input_grad(1));
    const bool want_dbias = has_res && has_bias && ctx->needs_input_grad(e_bias);
    const bool want_dw = weight.defined() && ctx->needs_input_grad(e_w);
    const bool want_db = has_nb && ctx->needs_input_grad(e_nb);
    at::AutoDispatchBelowADInplaceOrView below;
    auto r = op.call(grads[0].defined() ? optional<Tensor>(grads[0]) : c10::nullopt,
                     has_res && grads[1].defined() ? optional<Tensor>(grads[1]) : c10::nullopt, s, mean, rstd,
                     weight.defined() ? optional<Tensor>(weight) : c10::nullopt, alpha, rms, has_res, want_dx,
                     want_dbias, want_dw, want_db, data["k"].toInt());
    Tensor dx, dres, dbias, dw, db;
    if (want_dx) {
      dx = std::get<0>(r);
      if (has_res) dres = alpha != 1.0 ? std::get<1>(r) : dx;
    }
    if (want_dbias) dbias = as_dtype(std::get<2>(r), data["tb"]);
    if (want_dw) dw = as_dtype(std::get<3>(r), data["tw"]);
    if (want_db) db = as_dtype(std::get<4>(r), data["tn"]);
    return {dx, dres, dbias, dw, db, Tensor(), Tensor(), Tensor(), Tensor()};
  }
};

static std::tuple<Tensor, Tensor, Tensor, Tensor> norm_fwd_autograd(
    const Tensor& x, const optional<Tensor>& residual, const optional<Tensor>& bias, const optional<Tensor>& weight,
    const optional<Tensor>& norm_bias, double eps, double alpha, bool rms, int64_t begin_norm_axis) {
  if (!grad_needed(x, residual, bias, weight, norm_bias)) {
    static const auto op = op_handle<NormFwdSig>("paddle_on_torch::norm_fwd");
    at::AutoDispatchBelowADInplaceOrView below;
    return op.call(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis);
  }
  auto r = NormFunction::apply(x, residual, bias, weight, norm_bias, eps, alpha, rms, begin_norm_axis);
  return {r[0], r[1], r[2], r[3]};
}

TORCH_LIBRARY_IMPL(paddle_on_torch, CPU, m) {
  m.impl("norm_fwd", &norm_fwd_cpu);
  m.impl("norm_bwd", &norm_bwd_cpu);
}

TORCH_LIBRARY_IMPL(paddle_on_torch, AutogradCPU, m) { m.impl("norm_fwd", &norm_fwd_autograd); }
