// paddle_on_torch.kernels._C: the C++ CPU kernels, one extension (built by setup.py, or by kernels/cpp.py's JIT
// fallback from the same ext/*.cpp).  Loading it registers the fused ops' CPU and autograd kernels with the
// dispatcher (TORCH_LIBRARY_IMPL in ext/norm.cpp, rope.cpp, swiglu.cpp, cross_entropy.cpp, optim.cpp, under the
// schemas kernels/<op>.py define) and ext/random.cpp's ops; what is not an op is bound here as Python functions.
#include <torch/extension.h>
#include <torch/headeronly/version.h>

#include <string>
#include <vector>

void bind_rnn(pybind11::module_& m);    // rnn.cpp: the RNN kernel's GEMM path switch
void bind_fastpath(pybind11::module_& m);  // fastpath.cpp: paddle.Tensor's per-op fast path
// output_cache.cpp: the cache of freed output blocks, and the instruction set the kernels were built for
void empty_cache();
int64_t set_cache_limit(int64_t bytes);
int64_t cached_bytes();
std::string capability();

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  bind_rnn(m);
  bind_fastpath(m);
  m.def("empty_cache", &empty_cache);
  m.def("set_cache_limit", &set_cache_limit);
  m.def("cached_bytes", &cached_bytes);
  m.def("capability", &capability);
  // what the loader (kernels/cpp.py) checks before it uses a build made at install time
  m.attr("torch_version") = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
                            std::to_string(TORCH_VERSION_PATCH);
}
