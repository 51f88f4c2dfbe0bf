// C++ autograd nodes for the fused CPU kernels of fused.cpp.
//
// Plain eager CPU calls of fused_norm / fused_rope / fused_swiglu (paddle_on_torch.kernels.fused) go through
// these `torch::autograd::Function`s instead of a Python `torch.autograd.Function`: forward and backward then
// run without entering Python, which was most of the fixed cost of a call (a Python node cost ~20-40 us per
// forward + backward, as much as the whole kernel at [32, 768]).  The formulas are those of the custom ops'
// Python autograd (kernels/fused.py: _norm_backward, _rope_backward, _swiglu_backward); like them, the backward is
// computed by the kernels, so it is differentiable once (no double backward through these nodes).
#include "fused.h"

#include <torch/csrc/autograd/custom_function.h>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

static inline bool given(const c10::optional<at::Tensor>& t) { return t.has_value() && t->defined(); }

// The backwards below are kernels autograd cannot differentiate: refuse create_graph=True (grad mode on inside
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

// The [M, N] view swiglu's kernels take: rows of the last axis, unit column stride (no copy for chunked halves).
static at::Tensor as_rows(const at::Tensor& t) {
  at::Tensor t2 = t.dim() != 2 ? t.reshape({-1, t.size(-1)}) : t;
  return t2.stride(-1) == 1 ? t2 : t2.contiguous();
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
    const bool want_dw = weight.defined() && ctx->needs_input_grad(e_w);
    const bool want_db = has_nb && ctx->needs_input_grad(e_nb);
    const bool want_ds = ctx->needs_input_grad(0) || (has_res && ctx->needs_input_grad(1)) ||
                         (has_res && has_bias && ctx->needs_input_grad(e_bias));
    // the gradient of a sum() is one value broadcast: the kernel reads one row of it (row stride 0)
    at::Tensor g;
    int64_t sdy = s.size(1);
    if (!grads[0].defined()) {
      g = at::zeros({s.size(1)}, s.options());
      sdy = 0;
    } else {
      g = grads[0].reshape(s.sizes());
      if (g.stride(0) == 0) {
        g = g.select(0, 0).contiguous();
        sdy = 0;
      } else {
        g = g.contiguous();
      }
    }
    std::vector<at::Tensor> r = norm_bwd_impl(g, sdy, s.contiguous(), mean, rstd,
                                              weight.defined() ? c10::optional<at::Tensor>(weight) : c10::nullopt,
                                              rms, want_ds, want_dw, want_db);
    at::Tensor ds = r[0], dres, dbias, dw, db;
    if (want_ds) {
      if (has_res && grads[1].defined()) ds = ds + grads[1].reshape(s.sizes());
      if (has_res) dres = (alpha != 1.0 ? ds * alpha : ds).view(data["sr"].toIntVector());
      if (has_res && has_bias && ctx->needs_input_grad(e_bias))
        dbias = as_input(ds.to(at::kFloat).sum(0), data["tb"], data["sb"]);
      ds = ds.view(data["sx"].toIntVector());
    }
    if (want_dw) dw = as_input(r[1], data["tw"], data["sw"]);
    if (want_db) db = as_input(r[2], data["tn"], data["sn"]);
    return {ds, dres, dbias, dw, db, at::Tensor(), at::Tensor(), at::Tensor(), at::Tensor()};
  }
};

// sin' with rope(., cos, sin') = the transpose (the backward) of rope(., cos, sin); ops/fused.py: rope_transpose_sin
static at::Tensor rope_sin_transposed(const at::Tensor& sin, bool neox) {
  if (neox)
    return at::neg(at::stack({sin.slice(-1, 1, c10::nullopt, 2), sin.slice(-1, 0, c10::nullopt, 2)}, -1).flatten(-2));
  const int64_t h = sin.size(-1) / 2;
  return at::neg(at::cat({sin.slice(-1, h), sin.slice(-1, 0, h)}, -1));
}

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
    at::Tensor dx = rope_fwd(grads[0].contiguous(), saved[0], rope_sin_transposed(saved[1], neox), neox);
    return {dx, at::Tensor(), at::Tensor(), at::Tensor()};
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
    const at::Tensor &x = saved[0], &y = saved[1];
    std::vector<at::Tensor> d = swiglu_bwd(as_rows(grads[0].contiguous()), as_rows(x), as_rows(y));
    return {d[0].reshape(x.sizes()), d[1].reshape(y.sizes())};
  }
};

void bind_fused_autograd(pybind11::module_& m) {
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
