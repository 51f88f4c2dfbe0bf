"""paddle_on_torch.kernels: the torch custom ops behind Paddle's fused APIs and their kernels, one module per op.

  norm.py           norm_fwd / norm_bwd: RMS and layer norm with residual, bias and residual_alpha
                    (paddle.nn.functional.rms_norm / layer_norm, incubate fused_rms_norm / fused_layer_norm)
  rope.py           rope / rope_bwd: rotary position embedding (fused_rotary_position_embedding)
  swiglu.py         swiglu / swiglu_bwd: silu(x) * y (swiglu, fused_bias_act)
  cross_entropy.py  softmax_ce / softmax_ce_bwd: softmax cross entropy over a large vocabulary
  rnn.py            rnn / rnn_bwd: whole-sequence LSTM / GRU / SimpleRNN
  optim.py          adam_step / momentum_step / sgd_step: the optimizers' multi-tensor steps (lists updated in
                    place; no gradient, no Triton kernel: the reference composition runs off the CPU)
Each holds its op's schema and body (the reference composition: the default kernel and the tests' oracle), fake,
autograd formula and CUDA kernel (<op>_triton.py beside it); its CPU kernels (and, where it pays, the autograd
formula in C++: the eager fast path) are ext/<op>.cpp's, registered with the dispatcher by TORCH_LIBRARY_IMPL when
the extension loads.

  dispatch.py       the per-device table, the backend override (PADDLE_ON_TORCH_KERNELS), the extension's loading
  cpp.py            the loader of the C++ extension paddle_on_torch.kernels._C (sources in the top-level ext/)
  eager.py          the one check of whether a call may leave torch's usual route (plain eager mode)
  _triton.py        what the Triton kernels share

Installed as paddle_on_torch.kernels from the top-level kernels/ folder (setup.py's package_dir).
"""
