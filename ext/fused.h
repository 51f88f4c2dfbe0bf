// The entry points of the fused CPU kernels (fused.cpp) that the backward ops and the C++ autograd nodes
// (fused_autograd.cpp) call.
#pragma once

#include <torch/extension.h>

#include <vector>

// x: [M, N] contiguous.  Returns out, residual_out (empty without a residual), mean (empty for rms), rstd (fp32).
// `out` may be given (contiguous [M, N] of x's dtype); `shape` is what out / residual_out are allocated as
// ([M, N] when empty).
std::vector<at::Tensor> norm_fwd_impl(const at::Tensor& x, const c10::optional<at::Tensor>& residual,
                                      const c10::optional<at::Tensor>& bias, const c10::optional<at::Tensor>& weight,
                                      const c10::optional<at::Tensor>& norm_bias, double eps, double alpha, bool rms,
                                      at::Tensor out, at::IntArrayRef shape = {});
// dy with row stride sdy (0: one row broadcast over all rows); returns ds, dweight, dbias (each may be empty).
std::vector<at::Tensor> norm_bwd_impl(const at::Tensor& dy, int64_t sdy, const at::Tensor& s, const at::Tensor& mean,
                                      const at::Tensor& rstd, const c10::optional<at::Tensor>& weight, bool rms,
                                      bool want_ds, bool want_dw, bool want_db);
at::Tensor rope_fwd(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin, bool neox);
at::Tensor swiglu_fwd_impl(const at::Tensor& x, const at::Tensor& y, at::IntArrayRef shape);
// g, x, y: [M, N] with unit column stride (g contiguous); returns dx, dy ([M, N], contiguous).
std::vector<at::Tensor> swiglu_bwd_impl(const at::Tensor& g, const at::Tensor& x, const at::Tensor& y);
