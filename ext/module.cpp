// paddle_on_torch.kernels._C: the C++ CPU kernels, one Python module.  Each kernel family binds its functions here;
// the torch custom ops that dispatch to them are defined in kernels/ (Python, torch.library).
#include <torch/extension.h>
#include <torch/headeronly/version.h>

#include <string>

void bind_fused(pybind11::module_& m);           // fused.cpp: norms, rotary, swiglu, cross entropy
void bind_fused_autograd(pybind11::module_& m);  // fused_autograd.cpp: their C++ autograd nodes
void bind_rnn(pybind11::module_& m);             // rnn.cpp: whole-sequence LSTM / GRU / SimpleRNN
void bind_optim(pybind11::module_& m);           // optim.cpp: Adam / AdamW / Momentum / SGD steps

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  bind_fused(m);
  bind_fused_autograd(m);
  bind_rnn(m);
  bind_optim(m);
  // what the loader (kernels/cpp.py) checks before it uses a build made at install time
  m.attr("torch_version") = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                            std::to_string(TORCH_VERSION_PATCH);
}
