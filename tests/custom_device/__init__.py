"""A test device on torch's open registration: PrivateUse1 renamed 'custom_cpu' (the name of Paddle's own test
plugin), with host memory.

host_backend.cpp gives the kernels (allocation, copies, views; the rest through torch's CPU fallback); this file
builds it with torch.utils.cpp_extension (cached: a rebuild only when the source changes) and registers with torch,
from Python, what a vendor extension such as torch_npu registers: the backend name, the device guard and hooks,
the generated Tensor / Module methods (`.custom_cpu()`), and the device module `torch.custom_cpu` (is_available,
device_count, synchronize, RNG state, memory statistics, the dtypes AMP may use).  paddle_on_torch's device
registry then finds it as a custom device by the PrivateUse1 name alone (docs/devices.md).

`load()` may be called once per process (torch renames PrivateUse1 once): run it in a subprocess of the tests.
"""
import os

import torch

NAME = "custom_cpu"
_HERE = os.path.dirname(os.path.abspath(__file__))


class HostDeviceModule:
    """torch.custom_cpu: one device; its random numbers come from the host's generator (the CPU fallback draws
    them there), so the RNG functions are the CPU's."""

    @staticmethod
    def is_available():
        return True

    @staticmethod
    def is_initialized():
        return True

    @staticmethod
    def device_count():
        return 1

    @staticmethod
    def current_device():
        return 0

    @staticmethod
    def set_device(device):
        index = torch.device(device).index if isinstance(device, (str, torch.device)) else device
        if index not in (None, 0):
            raise RuntimeError(f"{NAME} has one device, not {index}")

    @staticmethod
    def synchronize(device=None):
        return None  # kernels run synchronously on the host

    @staticmethod
    def _is_in_bad_fork():
        return False

    @staticmethod
    def manual_seed(seed):
        torch.default_generator.manual_seed(int(seed))

    manual_seed_all = manual_seed

    @staticmethod
    def get_rng_state(device=None):
        return torch.get_rng_state()

    @staticmethod
    def set_rng_state(state, device=None):
        torch.set_rng_state(state)

    @staticmethod
    def memory_allocated(device=None):
        return int(torch.ops.host_device.memory_allocated())

    @staticmethod
    def get_amp_supported_dtype():
        return [torch.float16, torch.bfloat16]


def build():
    """Compile (or find cached) host_backend.cpp and load it into this process."""
    from torch.utils import cpp_extension

    cpp_extension.load(name="pot_test_host_device", sources=[os.path.join(_HERE, "host_backend.cpp")],
                       extra_cflags=["-O1"], is_python_module=False, verbose=False)


def load():
    """Build the kernels and register the device with torch as 'custom_cpu'; returns the name."""
    from torch.utils.backend_registration import _setup_privateuseone_for_python_backend

    build()
    _setup_privateuseone_for_python_backend(NAME, backend_module=HostDeviceModule())
    return NAME
