"""paddle.device, paddle.device.cuda/xpu, paddle.cuda: what a machine without accelerators answers.

Recorded from Paddle's CPU build.  Most answers depend on the machine having no GPU, so on a
machine where torch sees an accelerator these cases are not registered.
"""
import contextlib
import io

import torch

from tests.cases import case

_NO_ACCELERATOR = not (torch.cuda.is_available() or (hasattr(torch, "xpu") and torch.xpu.is_available())
                       or (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()))
cpu_case = case if _NO_ACCELERATOR else (lambda f: f)


@cpu_case
def queries(paddle):
    d = paddle.device
    return [d.get_device(), d.get_all_device_type(), d.get_all_custom_device_type(), d.get_available_device(),
            d.get_available_custom_device(), d.device_count(), d.is_available(), d.get_cudnn_version(),
            d.is_bf16_supported(), d.is_compiled_with_ipu(), d.is_compiled_with_xpu(), d.is_compiled_with_cinn(),
            d.is_compiled_with_custom_device("npu"), d.is_current_stream_capturing(), paddle.get_device()]


@case
def set_device_spellings(paddle):
    d = paddle.device
    out = [str(d.set_device("cpu")), str(d.set_device("CPU")), str(d.set_device(paddle.CPUPlace())),
           str(d.set_device(0)), d.get_device()]
    return out


@cpu_case
def set_device_gpu_unavailable(paddle):
    paddle.device.set_device("gpu")


@cpu_case
def set_device_gpu_index_unavailable(paddle):
    paddle.device.set_device("gpu:1")


@cpu_case
def set_device_xpu_unavailable(paddle):
    paddle.device.set_device("xpu:0")


@case
def set_device_unknown_name(paddle):
    paddle.device.set_device("foo")


@case
def set_device_cpu_with_index(paddle):
    paddle.device.set_device("cpu:0")


@cpu_case
def set_device_index_on_cpu(paddle):
    paddle.device.set_device(1)


@case
def set_device_negative_index(paddle):
    paddle.device.set_device(-1)


@cpu_case
def synchronize_on_cpu(paddle):
    paddle.device.synchronize()


@cpu_case
def memory_stats_on_cpu(paddle):
    paddle.device.max_memory_allocated()


@cpu_case
def reset_peak_on_cpu(paddle):
    paddle.device.reset_peak_memory_stats()


@cpu_case
def cuda_memory_on_cpu(paddle):
    paddle.device.cuda.memory_allocated()


@cpu_case
def cuda_max_memory_reserved_on_cpu(paddle):
    paddle.device.cuda.max_memory_reserved()


@cpu_case
def cuda_properties_on_cpu(paddle):
    paddle.device.cuda.get_device_name()


@cpu_case
def cuda_synchronize_on_cpu(paddle):
    paddle.device.cuda.synchronize()


@cpu_case
def cuda_counts(paddle):
    return [paddle.device.cuda.device_count(), paddle.device.cuda.empty_cache(), paddle.device.xpu.device_count()]


@cpu_case
def xpu_memory_on_cpu(paddle):
    paddle.device.xpu.max_memory_allocated()


@cpu_case
def xpu_synchronize_on_cpu(paddle):
    paddle.device.xpu.synchronize()


@cpu_case
def ipc_collect_on_cpu(paddle):
    paddle.device.ipc_collect()


@cpu_case
def ipu_place(paddle):
    paddle.device.IPUPlace()


@cpu_case
def xpu_place(paddle):
    paddle.device.XPUPlace(0)


@cpu_case
def torch_style_cuda_namespace(paddle):
    c = paddle.cuda
    return [c.is_available(), c.device_count(), c.current_device(), c.is_initialized(), c.is_bf16_supported(),
            c.set_device("cpu"), c.manual_seed(3), c.manual_seed_all(3)]


@cpu_case
def cuda_mem_get_info_on_cpu(paddle):
    paddle.cuda.mem_get_info()


@cpu_case
def cuda_set_device_index_on_cpu(paddle):
    paddle.cuda.set_device(0)


@case
def device_context_managers(paddle):
    seen = []
    with paddle.device.device("cpu"):
        seen.append(paddle.device.get_device())
    with paddle.device.device_guard("cpu"):
        seen.append(paddle.device.get_device())
    with paddle.cuda.device("cpu"):
        seen.append(paddle.device.get_device())
    seen.append(paddle.device.get_device())
    return seen


@case
def device_guard_bad_argument(paddle):
    paddle.device.device_guard(3)


@case
def device_objects(paddle):
    a, b, c = paddle.device("cpu"), paddle.device("cuda:1"), paddle.device("xpu", 2)
    return [str(a), a.type, a.index, str(b), b.type, b.index, str(c), paddle.device(0), isinstance(a, str)]


@case
def device_object_bad_type(paddle):
    paddle.device("tpu")


@case
def tensor_device_id_and_factories(paddle):
    x = paddle.to_tensor([1, 2, 3], place=paddle.CPUPlace())
    return [paddle.get_device(x), paddle.device.get_device(x), paddle.device.FloatTensor([1, 2]),
            paddle.cuda.LongTensor([3])]


@case
def rng_state_restores_draws(paddle):
    state = paddle.device.get_rng_state()
    a = paddle.randn([3]).numpy()
    paddle.device.set_rng_state(state)
    b = paddle.randn([3]).numpy()
    state = paddle.cuda.get_rng_state()
    c = paddle.rand([2]).numpy()
    paddle.cuda.set_rng_state(state)
    d = paddle.rand([2]).numpy()
    return [bool((a == b).all()), bool((c == d).all())]


@case
def manual_seed_repeats(paddle):
    paddle.device.manual_seed(5)
    a = paddle.rand([4]).numpy()
    paddle.device.manual_seed(5)
    b = paddle.rand([4]).numpy()
    return bool((a == b).all())


@cpu_case
def run_check_messages(paddle):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        paddle.utils.run_check()
    return buf.getvalue()


@case
def cuda_amp_and_nvtx_namespaces(paddle):
    """paddle.cuda.amp is paddle.device.amp (autocast for the GPU: a CPU computation stays float32); paddle.cuda.nvtx
    is a class of its own; CudaError a RuntimeError class outside paddle.cuda.__all__."""
    out = [paddle.cuda.amp is paddle.device.amp, paddle.cuda.nvtx is paddle.device.nvtx,
           sorted(n for n in dir(paddle.cuda.amp) if not n.startswith("__")),
           type(paddle.cuda.amp.autocast_mode).__name__, issubclass(paddle.cuda.CudaError, RuntimeError),
           "CudaError" in paddle.cuda.__all__]
    layer = paddle.nn.Linear(2, 2)
    for ctx in (paddle.cuda.amp.autocast(), paddle.cuda.amp.autocast(dtype=paddle.bfloat16),
                paddle.cuda.amp.autocast(enabled=False), paddle.cuda.amp.autocast_mode.autocast()):
        with ctx:
            out.append(str(layer(paddle.ones([1, 2])).dtype))
    return out


@cpu_case
def cuda_nvtx_push_on_cpu(paddle):
    paddle.cuda.nvtx.range_push("step")


@cpu_case
def device_nvtx_pop_on_cpu(paddle):
    paddle.device.nvtx.range_pop()


@cpu_case
def cuda_error_on_cpu(paddle):
    return paddle.cuda.CudaError(1)


@cpu_case
def cuda_check_error_on_cpu(paddle):
    return paddle.cuda.check_error(0)
