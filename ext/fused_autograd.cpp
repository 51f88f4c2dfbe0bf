// The backward of each fused CPU op, written once, and the C++ autograd nodes of the eager fast path.
//
// norm_bwd / rope_bwd / swiglu_bwd below are the whole backward of norm_fwd / rope / swiglu on the CPU: the CPU
// kernels of the backward ops paddle_on_torch::norm_bwd / rope_bwd / swiglu_bwd (kernels/fused.py registers them),
// which the ops' autograd formulas (register_autograd) call, and what the nodes' backward calls here.  A node only
// saves what its op's formula saves and gives the gradients back in its inputs' shapes and dtypes; the arithmetic
// is the backward op's.
//
// Plain eager CPU calls of fused_norm / fused_rope / fused_swiglu (paddle_on_torch.kernels.fused) go through
// these `torch::autograd::Function`s instead of the custom op's Python autograd: forward and backward then
// run without entering Python, which was most of the fixed cost of a call (a Python node cost ~20-40 us per
// forward + backward, as much as the whole kernel at [32, 768]).  Like the ops' formulas, the backward is computed
// by kernels, so it is differentiable once (no double backward through these nodes).
#include "fused.h"

#include <torch/csrc/autograd/custom_function.h>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

static inline bool given(const c10::optional<at::Tensor>& t) { return t.has_value() && t->defined(); }

// The [M, N] view swiglu's kernels take: rows of the last axis, unit column stride (no copy for chunked halves).
static at::Tensor as_rows(const at::Tensor& t) {
  at::Tensor t2 = t.dim() != 2 ? t.reshape({-1, t.size(-1)}) : t;
  return t2.stride(-1) == 1 ? t2 : t2.contiguous();
}

// ------------------------------------------------------------ the backward ops' CPU kernels

// The backward of norm_fwd.  s: [M, N] (x, or residual_out with a residual; any layout), mean / rstd: norm_fwd's.
// g_out: the gradient of out, any shape of M * N elements (undefined: zero; a row broadcast over all rows, the
// gradient of a sum(), is read as that one row); g_res: the gradient of residual_out (undefined: zero).
// Returns dx [M, N] (s's dtype: the gradient of x), dres (that of the residual: alpha * dx; undefined when
// alpha == 1, then it is dx itself), dbias (float32 [N]: the sum of dx over rows), dweight, dnorm_bias (float32
// [N]); each undefined unless wanted (want_dx: that of x or the residual).
std::vector<at::Tensor> norm_bwd(const c10::optional<at::Tensor>& g_out, const c10::optional<at::Tensor>& g_res,
                                 const at::Tensor& s_, const at::Tensor& mean, const at::Tensor& rstd,
                                 const c10::optional<at::Tensor>& weight, double alpha, bool rms, bool has_res,
                                 bool want_dx, bool want_dbias, bool want_dw, bool want_db) {
  const at::Tensor s = s_.contiguous();
  const int64_t N = s.size(1);
  at::Tensor g;
  int64_t sdy = N;
  if (!given(g_out)) {
    g = at::zeros({N}, s.options());
    sdy = 0;
  } else {
    g = g_out->reshape(s.sizes());
    if (g.size(0) > 1 && g.stride(0) == 0) {
      g = g.select(0, 0).contiguous();
      sdy = 0;
    } else {
      g = g.contiguous();
    }
  }
  const bool want_ds = want_dx || (has_res && want_dbias);
  std::vector<at::Tensor> r = norm_bwd_impl(g, sdy, s, mean, rstd, weight, rms, want_ds, want_dw, want_db);
  at::Tensor ds = r[0], dres, dbias;
  if (want_ds && has_res) {
    if (given(g_res)) ds.add_(g_res->reshape(s.sizes()));  // ds is this call's own buffer
    if (want_dx && alpha != 1.0) dres = ds * alpha;
    if (want_dbias) dbias = ds.to(at::kFloat).sum(0);
  }
  return {want_dx ? ds : at::Tensor(), dres, dbias, r[1], r[2]};
}

// sin' with rope(., cos, sin') = the transpose of rope(., cos, sin): the backward of a rotation is the transposed
// rotation (kernels/fused.py: rope_transpose_sin is the reference composition's)
static at::Tensor rope_sin_transposed(const at::Tensor& sin, bool neox) {
  if (neox)
    return at::neg(at::stack({sin.slice(-1, 1, c10::nullopt, 2), sin.slice(-1, 0, c10::nullopt, 2)}, -1).flatten(-2));
  const int64_t h = sin.size(-1) / 2;
  return at::neg(at::cat({sin.slice(-1, h), sin.slice(-1, 0, h)}, -1));
}

// The backward of rope: dx for the gradient g of its output ([A0, A1, H, D], any layout).
at::Tensor rope_bwd(const at::Tensor& g, const at::Tensor& cos, const at::Tensor& sin, bool neox) {
  return rope_fwd(g.contiguous(), cos, rope_sin_transposed(sin, neox), neox);
}

// The backward of swiglu: dx, dy in x's and y's shapes (g, x, y of one shape; x and y may be strided, e.g. the
// two halves of one tensor).
std::vector<at::Tensor> swiglu_bwd(const at::Tensor& g, const at::Tensor& x, const at::Tensor& y) {
  std::vector<at::Tensor> d = swiglu_bwd_impl(as_rows(g.contiguous()), as_rows(x), as_rows(y));
  return {d[0].view(x.sizes()), d[1].view(y.sizes())};
}

// ------------------------------------------------------------ the C++ autograd nodes (the eager fast path)

// The backwards are kernels autograd cannot differentiate: refuse create_graph=True (grad mode on inside
// the backward) instead of returning gradients with no graph behind them.
static inline void once_differentiable(const char* op) {
  TORCH_CHECK(!at::GradMode::is_enabled(), "paddle_on_torch's fused ", op,
              " op has no double backward (create_graph=True)");
}

// A gradient in its input's dtype and shape; no dispatcher call (~0.5 us each) when it already is.
static at::Tensor as_input(at::Tensor g, const c10::IValue& dtype, const c10::IValue& sizes) {
  if (g.scalar_type() != dtype.toScalarType()) g = g.to(dtype.toScalarType());
  const std::vector<int64_t> shape = sizes.toIntVector();
  return g.sizes() == at::IntArrayRef(shape) ? g : g.view(shape);
}

// x: any shape whose elements form rows of n (the normalised size); residual: x's element count; weight, bias,
// norm_bias: n elements each, any shape.  out and residual_out come back in x's shape (allocated so, not views:
// in-place ops on them stay allowed), mean / rstd as [rows]: the reshapes happen inside the node, so that they add
// no view nodes to the graph (each cost ~8-14 us of backward).
struct NormNode : public torch::autograd::Function<NormNode> {
  static variable_list forward(AutogradContext* ctx, const at::Tensor& x, const c10::optional<at::Tensor>& residual,
                               const c10::optional<at::Tensor>& bias, const c10::optional<at::Tensor>& weight,
                               const c10::optional<at::Tensor>& norm_bias, double eps, double alpha, bool rms,
                               int64_t n) {
    const at::Tensor x2 = x.reshape({-1, n});
    auto vec = [n](const c10::optional<at::Tensor>& t) -> c10::optional<at::Tensor> {
      if (!given(t)) return c10::nullopt;
      TORCH_CHECK_VALUE(t->numel() == n, "fused norm: weight / bias must have ", n, " elements, got ", t->numel());
      return t->reshape({n});
    };
    const bool has_res = given(residual);
    const c10::optional<at::Tensor> w = vec(weight);
    const at::Tensor xc = x2.contiguous();  // x itself, or the copy the backward reads too
    std::vector<at::Tensor> out = norm_fwd_impl(
        xc, has_res ? c10::optional<at::Tensor>(residual->reshape(x2.sizes())) : c10::nullopt,
        has_res ? vec(bias) : c10::nullopt, w,  // Paddle adds the bias only together with a residual
        vec(norm_bias), eps, alpha, rms, at::Tensor(), x.sizes());
    // residual_out is saved as the output itself (a view of it would keep this node alive through its base)
    ctx->save_for_backward({has_res ? out[1] : xc, out[2], out[3], w ? *w : at::Tensor()});
    ctx->saved_data["n"] = n;
    // flags: residual, bias, norm bias, rms; shapes and dtypes the gradients go back in
    ctx->saved_data["f"] = int64_t(has_res) | int64_t(given(bias)) << 1 | int64_t(given(norm_bias)) << 2 |
                           int64_t(rms) << 3;
    ctx->saved_data["a"] = alpha;
    ctx->saved_data["sx"] = x.sizes();
    if (has_res) ctx->saved_data["sr"] = residual->sizes();
    if (given(bias)) ctx->saved_data["sb"] = bias->sizes(), ctx->saved_data["tb"] = bias->scalar_type();
    if (given(weight)) ctx->saved_data["sw"] = weight->sizes(), ctx->saved_data["tw"] = weight->scalar_type();
    if (given(norm_bias)) ctx->saved_data["sn"] = norm_bias->sizes(), ctx->saved_data["tn"] = norm_bias->scalar_type();
    ctx->mark_non_differentiable({out[2], out[3]});
    ctx->set_materialize_grads(false);  // no zeros for the statistics' (and an unused residual_out's) gradients
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    once_differentiable("norm");
    const variable_list saved = ctx->get_saved_variables();
    auto& data = ctx->saved_data;
    const at::Tensor s = saved[0].reshape({-1, data["n"].toInt()});
    const at::Tensor &mean = saved[1], &rstd = saved[2], &weight = saved[3];
    const int64_t f = data["f"].toInt();
    const bool has_res = f & 1, has_bias = f & 2, has_nb = f & 4, rms = f & 8;
    const double alpha = data["a"].toDouble();
    // needs_input_grad counts only the tensors given: x, residual?, bias?, weight?, norm_bias?
    const size_t e_bias = 1 + has_res, e_w = e_bias + has_bias, e_nb = e_w + weight.defined();
    const bool want_dx = ctx->needs_input_grad(0) || (has_res && ctx->needs_input_grad(1));
    const bool want_dbias = has_res && has_bias && ctx->needs_input_grad(e_bias);
    const bool want_dw = weight.defined() && ctx->needs_input_grad(e_w);
    const bool want_db = has_nb && ctx->needs_input_grad(e_nb);
    std::vector<at::Tensor> r = norm_bwd(grads[0], has_res ? grads[1] : at::Tensor(), s, mean, rstd,
                                         weight.defined() ? c10::optional<at::Tensor>(weight) : c10::nullopt, alpha,
                                         rms, has_res, want_dx, want_dbias, want_dw, want_db);
    at::Tensor ds, dres, dbias, dw, db;
    if (want_dx) {
      ds = r[0].view(data["sx"].toIntVector());
      if (has_res) dres = (r[1].defined() ? r[1] : r[0]).view(data["sr"].toIntVector());
    }
    if (want_dbias) dbias = as_input(r[2], data["tb"], data["sb"]);
    if (want_dw) dw = as_input(r[3], data["tw"], data["sw"]);
    if (want_db) db = as_input(r[4], data["tn"], data["sn"]);
    return {ds, dres, dbias, dw, db, at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

struct RopeNode : public torch::autograd::Function<RopeNode> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin,
                            bool neox) {
    ctx->save_for_backward({cos, sin});
    ctx->saved_data["n"] = neox;
    return rope_fwd(x.contiguous(), cos, sin, neox);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    once_differentiable("rotary embedding");
    const variable_list saved = ctx->get_saved_variables();
    const bool neox = ctx->saved_data["n"].toBool();
    return {rope_bwd(grads[0], saved[0], saved[1], neox), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

struct SwigluNode : public torch::autograd::Function<SwigluNode> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& y) {
    ctx->save_for_backward({x, y});
    return swiglu_fwd_impl(as_rows(x), as_rows(y), x.sizes());  // allocated in x's shape: not a view
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    once_differentiable("swiglu");
    const variable_list saved = ctx->get_saved_variables();
    return swiglu_bwd(grads[0], saved[0], saved[1]);
  }
};

void bind_fused_autograd(pybind11::module_& m) {
  m.def("norm_bwd", &norm_bwd);
  m.def("rope_bwd", &rope_bwd);
  m.def("swiglu_bwd", &swiglu_bwd);
  m.def("norm_node", [](const at::Tensor& x, const c10::optional<at::Tensor>& residual,
                        const c10::optional<at::Tensor>& bias, const c10::optional<at::Tensor>& weight,
                        const c10::optional<at::Tensor>& norm_bias, double eps, double alpha, bool rms, int64_t n) {
    return NormNode::apply(x, residual, bias, weight, norm_bias, eps, alpha, rms, n);
  });
  m.def("rope_node", [](const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin, bool neox) {
    return RopeNode::apply(x, cos, sin, neox);
  });
  m.def("swiglu_node", [](const at::Tensor& x, const at::Tensor& y) { return SwigluNode::apply(x, y); });
}
