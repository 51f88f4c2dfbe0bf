"""The private distributed layer Paddle's libraries reach: collective's model-parallel ops, communication.stream /
group / reduce / batch_isend_irecv, fleet's recompute helpers, timers, logger and the module paths PaddleNLP
imports.  One 2-rank gloo job checks the collectives' values; the rest runs in this process."""
import importlib
import logging
import os
import random

import numpy as np
import pytest

from tests.test_distributed import SCRIPTS, _torchrun, dist_job

# what PaddleNLP 3.0.0b4 imports from paddle.distributed at module level, outside try blocks
PADDLENLP_IMPORTS = [
    ("paddle.distributed.communication", "stream"),
    ("paddle.distributed.communication.group", "Group"),
    ("paddle.distributed.communication.group", "_get_global_group"),
    ("paddle.distributed.communication.reduce", "ReduceOp"),
    ("paddle.distributed.communication.reduce", "_get_reduce_op"),
    ("paddle.distributed.fleet.layers.mpu", "mp_layers"),
    ("paddle.distributed.fleet.layers.mpu", "mp_ops"),
    ("paddle.distributed.fleet.layers.mpu.random", "get_rng_state_tracker"),
    ("paddle.distributed.fleet.meta_optimizers.dygraph_optimizer", "DygraphShardingOptimizer"),
    ("paddle.distributed.fleet.meta_optimizers.dygraph_optimizer", "HybridParallelOptimizer"),
    ("paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.dygraph_sharding_optimizer",
     "DygraphShardingOptimizer"),
    ("paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.dygraph_sharding_optimizer",
     "DygraphShardingOptimizerV2"),
    ("paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.hybrid_parallel_optimizer",
     "HybridParallelOptimizer"),
    ("paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.hybrid_parallel_optimizer",
     "_obtain_optimizer_parameters_list"),
    ("paddle.distributed.fleet.meta_parallel", "LocalSharedLayerDesc"),
    ("paddle.distributed.fleet.meta_parallel", "SharedLayerDesc"),
    ("paddle.distributed.fleet.meta_parallel.parallel_layers.random", "get_rng_state_tracker"),
    ("paddle.distributed.fleet.meta_parallel.sharding.group_sharded_optimizer_stage2",
     "GroupShardedOptimizerStage2"),
    ("paddle.distributed.fleet.meta_parallel.sharding.group_sharded_utils", "GroupShardedScaler"),
    ("paddle.distributed.fleet.model", "PipelineParallel"),
    ("paddle.distributed.fleet.recompute.recompute", "check_recompute_necessary"),
    ("paddle.distributed.fleet.recompute.recompute", "recompute"),
    ("paddle.distributed.fleet.recompute.recompute", "switch_rng_state_tracker"),
    ("paddle.distributed.fleet.utils.hybrid_parallel_util", "fused_allreduce_gradients"),
    ("paddle.distributed.fleet.utils.hybrid_parallel_util", "obtain_optimizer_parameters_list"),
    ("paddle.distributed.fleet.utils.log_util", "logger"),
    ("paddle.distributed.fleet.utils.timer_helper", "get_timers"),
    ("paddle.distributed.fleet.utils.timer_helper", "_GPUEventTimer"),
    ("paddle.distributed.parallel", "sync_params_buffers"),
    ("paddle.distributed", "in_auto_parallel_align_mode"),
    ("paddle.distributed", "stream"),
    ("paddle.distributed.collective", "_c_identity"),
    ("paddle.distributed.collective", "_c_concat"),
    ("paddle.distributed.collective", "_c_split"),
    ("paddle.distributed.collective", "_mp_allreduce"),
    ("paddle.distributed.collective", "_c_lookup_table"),
    ("paddle.distributed.collective", "_c_softmax_with_cross_entropy"),
    # used by PaddleNLP's refined recompute (refined_recompute.py)
    ("paddle.distributed.fleet.layers.mpu.mp_layers", "MPScale"),
    ("paddle.distributed.fleet.layers.mpu.mp_layers", "InnerOverlapLinear"),
    ("paddle.distributed.fleet.utils.sequence_parallel_utils", "SPInnerOverlapLinear"),
]


@pytest.mark.parametrize("module,name", PADDLENLP_IMPORTS)
def test_paddlenlp_imports_resolve(paddle, module, name):
    assert getattr(importlib.import_module(module), name) is not None


@dist_job
def test_private_collectives_two_ranks():
    out = _torchrun(2, os.path.join(SCRIPTS, "private_collectives.py"))
    assert "ALL OK" in out[0], out


def test_world_of_one(paddle):
    from paddle.distributed import collective, stream
    from paddle.distributed.communication.group import _get_global_group, is_initialized

    x = paddle.to_tensor([1.0, 2.0])
    assert is_initialized() is False
    for op in (collective._c_identity, collective._c_concat, collective._c_split, collective._mp_allreduce):
        assert op(x) is x  # no group in a world of one: nothing to communicate
    with pytest.raises(RuntimeError, match="global group is not initialized"):
        _get_global_group()
    with pytest.raises(RuntimeError, match="init_parallel_env"):
        collective._get_default_group()
    with pytest.raises(RuntimeError, match="use_calc_stream can only be true in sync op behavior"):
        stream.all_reduce(x, sync_op=False, use_calc_stream=True)
    with pytest.raises(RuntimeError, match="global group is not initialized"):
        stream.all_reduce(x)
    with pytest.raises(NotImplementedError, match=r"paddle\.distributed\.collective\.split"):
        collective.split
    with pytest.raises(AssertionError):
        collective._mp_allreduce(x, op=paddle.distributed.ReduceOp.MAX)


def test_module_attributes_are_paddles_functions(paddle):
    import types

    import paddle.distributed.communication.reduce  # noqa: F401  (the submodule)

    assert isinstance(paddle.distributed.communication.reduce, types.FunctionType)
    assert paddle.distributed.reduce is paddle.distributed.communication.reduce
    assert isinstance(paddle.distributed.launch, types.FunctionType)
    assert paddle.distributed.stream is paddle.distributed.communication.stream


def test_check_recompute_necessary_warns(paddle, caplog):
    from paddle.distributed.fleet.recompute.recompute import check_recompute_necessary

    from paddle_on_torch.distributed.fleet.utils.log_util import logger

    logger.propagate = True
    try:
        with caplog.at_level(logging.WARNING, logger=logger.name):
            check_recompute_necessary([paddle.ones([1]), (paddle.ones([1]),), 3])
        assert "NO need to recompute" in caplog.text
        caplog.clear()
        w = paddle.ones([1])
        w.stop_gradient = False
        with caplog.at_level(logging.WARNING, logger=logger.name):
            check_recompute_necessary([paddle.ones([1]), (w,)])
        assert caplog.text == ""
    finally:
        logger.propagate = False


def test_switch_rng_state_tracker(paddle):
    from paddle.distributed.fleet.meta_parallel import get_rng_state_tracker
    from paddle.distributed.fleet.recompute.recompute import switch_rng_state_tracker

    tracker = get_rng_state_tracker()
    tracker.reset()
    tracker.add("model_parallel_rng", 123)
    paddle.seed(7)
    state, states = paddle.get_rng_state(), tracker.get_states_tracker()
    first = paddle.rand([3]).numpy()
    with tracker.rng_state():
        first_mp = paddle.rand([3]).numpy()
    np_state, py_state = np.random.get_state(), random.getstate()
    np_first, py_first = np.random.rand(), random.random()
    # replay: the block sees the saved states, and the current ones come back after it
    with switch_rng_state_tracker(state, states, np_state, py_state):
        np.testing.assert_array_equal(paddle.rand([3]).numpy(), first)
        with tracker.rng_state():
            np.testing.assert_array_equal(paddle.rand([3]).numpy(), first_mp)
        assert np.random.rand() == np_first and random.random() == py_first
    # PaddleNLP 3.0.0b4 passes only the generator and tracker states
    with switch_rng_state_tracker(state, states):
        np.testing.assert_array_equal(paddle.rand([3]).numpy(), first)
    tracker.reset()


def test_rng_restored_after_switch(paddle):
    from paddle.distributed.fleet.meta_parallel import get_rng_state_tracker
    from paddle.distributed.fleet.recompute.recompute import switch_rng_state_tracker

    paddle.seed(3)
    saved = paddle.get_rng_state()
    paddle.rand([5])
    here = paddle.get_rng_state()
    expected = paddle.rand([2]).numpy()
    paddle.set_rng_state(here)
    with switch_rng_state_tracker(saved, get_rng_state_tracker().get_states_tracker()):
        paddle.rand([4])
    np.testing.assert_array_equal(paddle.rand([2]).numpy(), expected)


def test_detach_variable(paddle):
    from paddle.distributed.fleet.recompute.recompute import detach_variable

    a = paddle.ones([2])
    a.stop_gradient = False
    out = detach_variable([a, (a, paddle.zeros([1])), "x"])
    assert out[0] is not a and out[0].stop_gradient is False and out[1][1].stop_gradient is True and out[2] == "x"


def test_timers(paddle, capsys):
    from paddle.distributed.fleet.utils import timer_helper

    timer_helper._GLOBAL_TIMERS = None
    assert not timer_helper.is_timer_initialized()
    timer_helper.set_timers()
    timers = timer_helper.get_timers()
    t = timers("fwd")
    t.start()
    t.stop()
    assert timers("fwd") is t and t.elapsed(reset=False) >= 0.0
    timers.log(["fwd"])
    assert "time (ms) | fwd:" in capsys.readouterr().out
    with pytest.raises(AssertionError):
        timer_helper.set_timers()
    timer_helper._GLOBAL_TIMERS = None


def test_obtain_optimizer_parameters_list(paddle):
    from paddle.distributed.fleet.utils.hybrid_parallel_util import obtain_optimizer_parameters_list

    net = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.AdamW(parameters=net.parameters())
    assert [p.name for p in obtain_optimizer_parameters_list(opt)] == [p.name for p in net.parameters()]
    opt = paddle.optimizer.AdamW(parameters=[{"params": [net.weight]}, {"params": [net.bias]}])
    assert [p.name for p in obtain_optimizer_parameters_list(opt)] == [net.weight.name, net.bias.name]


def test_unsupported_classes_are_classes(paddle):
    from paddle.distributed.fleet.meta_optimizers.dygraph_optimizer.dygraph_sharding_optimizer import (
        DygraphShardingOptimizerV2)
    from paddle.distributed.fleet.meta_parallel.sharding.group_sharded_optimizer_stage2 import (
        GroupShardedOptimizerStage2)

    for cls in (DygraphShardingOptimizerV2, GroupShardedOptimizerStage2):
        assert isinstance(cls, type) and not isinstance(object(), cls)
        with pytest.raises(NotImplementedError, match=cls.__name__):
            cls(None, None)


def test_local_shared_layer_desc(paddle):
    from paddle.distributed.fleet.meta_parallel import LayerDesc, LocalSharedLayerDesc

    d = LocalSharedLayerDesc("emb", paddle.nn.Embedding, None, "weight", 4, 2)
    assert isinstance(d, LayerDesc) and d.shared_weight_attr == ["weight"] and d.layer_name == "emb"


def test_in_auto_parallel_align_mode(paddle):
    assert paddle.distributed.in_auto_parallel_align_mode() is False
    paddle.set_flags({"FLAGS_enable_auto_parallel_align_mode": True})
    try:
        assert paddle.distributed.in_auto_parallel_align_mode() is True
    finally:
        paddle.set_flags({"FLAGS_enable_auto_parallel_align_mode": False})


def test_attribute_paths_libraries_use_without_importing():
    """PaddleNLP writes `paddle.distributed.collective._c_identity(...)`, `paddle._C_ops.swiglu_grad(...)` and
    `nn.decode.BeamSearchDecoder` after a bare `import paddle`: the attributes resolve in a fresh process."""
    import subprocess
    import sys

    code = ("import paddle_on_torch; paddle_on_torch.install(); import paddle; "
            "print(paddle.distributed.collective._c_identity.__name__, paddle._C_ops.swiglu_grad.__name__, "
            "paddle.nn.decode.BeamSearchDecoder.__name__, paddle.distributed.stream.all_reduce.__name__, "
            "paddle._legacy_C_ops.box_coder.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["_c_identity", "swiglu_grad", "BeamSearchDecoder", "all_reduce", "box_coder"]
