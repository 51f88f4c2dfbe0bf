"""paddle.incubate.tensor.manipulation: Paddle's asynchronous device <-> pinned-host copies on a side CUDA stream
(async_offload, async_reload, create_async_load): not provided."""
from ... import _report

_WHY = ": asynchronous CUDA-stream offload to pinned host memory"
async_offload = _report.unsupported_function("paddle.incubate.tensor.manipulation.async_offload", _WHY)
async_reload = _report.unsupported_function("paddle.incubate.tensor.manipulation.async_reload", _WHY)
create_async_load = _report.unsupported_function("paddle.incubate.tensor.manipulation.create_async_load", _WHY)
async_offload_with_offset = _report.unsupported_function(
    "paddle.incubate.tensor.manipulation.async_offload_with_offset", _WHY)
