"""paddle_on_torch.kernels: the torch custom ops behind Paddle's fused APIs and their kernels.

  dispatch.py       how a call reaches its kernel: per-device registration (CPU: C++, CUDA: Triton), the backend
                    override, the one eager fast path
  fused.py          the op definitions (torch.library, namespace `paddle_on_torch`): norms, rotary, swiglu,
                    with their reference compositions (the test oracle), fakes and autograd formulas
  cross_entropy.py  fused softmax cross entropy over a large vocabulary
  rnn.py            whole-sequence LSTM / GRU / SimpleRNN: the ops rnn / rnn_bwd and their eager fast path
  fused_triton.py   the Triton (CUDA) kernels
  cpp.py            the loader of the C++ CPU kernels (sources in the top-level ext/ folder)
  eager.py          the one check of whether a call may leave torch's usual route

Installed as paddle_on_torch.kernels from the top-level kernels/ folder (setup.py's package_dir).
"""
