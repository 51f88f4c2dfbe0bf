"""paddle.base.core's CUDA-build names and the CUDA places where torch can use CUDA (skipped without it; on the CPU
these names are missing, as in Paddle's CPU build: tests/test_api_kinds.py and tests/cases/framework_core.py)."""
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")


def test_cuda_places(paddle):
    core = paddle.base.core
    p = paddle.CUDAPlace(0)
    try:
        placed = paddle.set_device("gpu:0")
        t = paddle.to_tensor([1.0])
        assert isinstance(p, paddle.CUDAPlace) and isinstance(p, core.Place) and not isinstance(p, paddle.CPUPlace)
        assert type(placed) is paddle.CUDAPlace and placed == p and str(p) == "Place(gpu:0)"
        assert t.place == p and not isinstance(t.place, paddle.CUDAPlace) and t.place.is_gpu_place()
        assert type(paddle.base.framework._current_expected_place()) is paddle.CUDAPlace
        with pytest.raises(ValueError):
            paddle.CUDAPlace(torch.cuda.device_count())
    finally:
        paddle.set_device("cpu")


def test_cuda_build_names(paddle):
    core = paddle.base.core
    assert core.get_cuda_device_count() == torch.cuda.device_count()
    core.nvprof_start()
    core.nvprof_enable_record_event()
    core.nvprof_nvtx_push("step")
    (paddle.ones([4], dtype="float32").cuda() * 2).numpy()
    core.nvprof_nvtx_pop()
    core.nvprof_disable_record_event()
    core.nvprof_stop()
    g = core.default_cuda_generator(0)
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    assert core.device_memory_stat_current_value("Allocated", 0) == torch.cuda.memory_allocated(0)
