"""paddle.device.cpu: the CPU's device module (what paddle.get_device_module gives for 'cpu'), as in Paddle's CPU
build: no accelerator counted, the default CPU generator's state, no memory statistics."""
from ..framework.random import default_generator


def device_count():
    """The number of GPUs: 0 (the CPU module counts none, as Paddle's does)."""
    return 0


def get_rng_state(device=None):
    return default_generator("cpu").get_state()


def set_rng_state(new_state, device=None):
    default_generator("cpu").set_state(new_state)


def manual_seed(seed):
    default_generator("cpu").manual_seed(int(seed))


def _no_memory_stats(api):
    def f(device=None):
        raise ValueError(f"The API paddle.device.{api} is not supported in CPU PaddlePaddle. Please reinstall "
                         "PaddlePaddle with GPU or XPU support to call this API.")

    f.__name__ = f.__qualname__ = api
    return f


max_memory_allocated = _no_memory_stats("max_memory_allocated")
max_memory_reserved = _no_memory_stats("max_memory_reserved")
reset_max_memory_allocated = _no_memory_stats("reset_max_memory_allocated")
reset_max_memory_reserved = _no_memory_stats("reset_max_memory_reserved")
