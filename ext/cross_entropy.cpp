// paddle_on_torch::softmax_ce / softmax_ce_bwd (kernels/cross_entropy.py: softmax cross entropy with hard labels over
// a large vocabulary): the CPU kernels, registered with TORCH_LIBRARY_IMPL under the schema kernels/cross_entropy.py
// defines.  No autograd kernel here: at these sizes the op's Python formula costs nothing that counts.
//
//   CPU  softmax_ce_cpu / softmax_ce_bwd_cpu: per row two passes (max, sum of exp), only the row log-sum-exp is
//        kept; the backward writes g * (softmax - onehot) into one buffer.  float64 and empty inputs take the ATen
//        composition (kernels/cross_entropy.py's reference, in C++).
#include "cpu_kernels.h"

using at::Tensor;

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


static Tensor logit_rows(const Tensor& logits) { return logits.stride(-1) == 1 ? logits : logits.contiguous(); }
static at::ScalarType acc_type(const Tensor& t) { return t.scalar_type() == at::kDouble ? at::kDouble : at::kFloat; }

std::tuple<Tensor, Tensor> softmax_ce_cpu(const Tensor& logits, const Tensor& labels, int64_t ignore_index) {
  if (fast_dtype(logits) && logits.dim() == 2) {
    std::vector<Tensor> r = ce_fwd(logit_rows(logits), labels, ignore_index);  // checks the labels itself
    return {r[0].to(logits.scalar_type()), r[1]};
  }
  const int64_t V = logits.size(-1);
  const Tensor valid = labels != ignore_index;
  const Tensor bad = (valid & ((labels < 0) | (labels >= V))).nonzero();
  if (bad.size(0)) {
    const int64_t v = labels.reshape({-1})[bad[0][0].item<int64_t>()].item<int64_t>();
    TORCH_CHECK_INDEX(false, "label value should less than the shape of axis dimension when label value(", v,
                      ") not equal to ignore_index(", ignore_index, "), But received label value as ", v,
                      " and shape of axis dimension is ", V);
  }
  const Tensor xf = logits.to(acc_type(logits));
  const Tensor lse = at::logsumexp(xf, {-1});
  const Tensor picked = xf.gather(-1, at::where(valid, labels, 0).unsqueeze(1)).squeeze(1);
  const Tensor loss = at::where(valid, lse - picked, at::zeros({}, xf.options()));
  return {loss.to(logits.scalar_type()), lse.to(at::kFloat)};
}

// g * (exp(logits - lse) - onehot(labels)); a label outside [0, V) lives on another vocabulary shard.
Tensor softmax_ce_bwd_cpu(const Tensor& logits, const Tensor& labels, const Tensor& lse, const Tensor& g,
                          int64_t ignore_index) {
  if (fast_dtype(logits) && logits.dim() == 2) return ce_bwd(logit_rows(logits), labels, lse, g, ignore_index);
  const Tensor xf = logits.to(acc_type(logits));
  const Tensor valid = labels != ignore_index;
  const Tensor gv = at::where(valid, g.to(xf.scalar_type()), 0).unsqueeze(1);
  Tensor d = at::exp(xf - lse.unsqueeze(1).to(xf.scalar_type())) * gv;
  const Tensor mine = valid & (labels >= 0) & (labels < logits.size(-1));
  d = d.scatter_add(-1, at::where(mine, labels, 0).unsqueeze(1), -at::where(mine.unsqueeze(1), gv, 0));
  return d.to(logits.scalar_type());
}

TORCH_LIBRARY_IMPL(paddle_on_torch, CPU, m) {
  m.impl("softmax_ce", &softmax_ce_cpu);
  m.impl("softmax_ce_bwd", &softmax_ce_bwd_cpu);
}
