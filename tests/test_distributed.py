"""paddle.distributed: single-process semantics in-process, plus a few real gloo jobs under torchrun.

The multi-rank tests (decorated `dist_job`) start `python -m torch.distributed.run --standalone` in a
subprocess with a timeout and assert on what the ranks print; a failing rank takes the job down.
"""
import os
import re
import subprocess
import sys

import numpy as np
import pytest


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(os.path.dirname(ROOT), "shared", "seed_examples")
SCRIPTS = os.path.join(ROOT, "tests", "dist_scripts")
# The torchrun jobs (the whole file took 244 s on 2 busy cores; the two 8-rank seed jobs about 35-45 s each,
# the 4-rank to_static pipeline job about 35 s); they are the `dist` lane.
dist_job = pytest.mark.dist


# ------------------------------------------------------------------ single process
def test_world_of_one(paddle):
    import paddle.distributed as dist

    assert dist.get_rank() == 0 and dist.get_world_size() == 1
    assert dist.init_parallel_env() is None  # Paddle initialises nothing for one process
    assert dist.is_initialized() is False
    env = dist.ParallelEnv()
    assert (env.rank, env.world_size, env.nranks, env.local_rank) == (0, 1, 1, 0)
    with pytest.raises(RuntimeError, match="global group is not initialized"):
        dist.all_reduce(paddle.to_tensor([1.0]))
    with pytest.raises(RuntimeError):
        dist.barrier()


def test_reduce_op_and_placements(paddle):
    import paddle.distributed as dist

    assert (dist.ReduceOp.SUM, dist.ReduceOp.MAX, dist.ReduceOp.MIN, dist.ReduceOp.PROD, dist.ReduceOp.AVG) == \
        (0, 1, 2, 3, 4)
    assert repr(dist.Shard(1)) == "Shard(dim=1)" and repr(dist.Replicate()) == "Replicate()"
    assert repr(dist.Partial()) == "Partial(reduce_type=SUM)"
    assert repr(dist.Partial(dist.ReduceType.kRedMax)) == "Partial(reduce_type=MAX)"
    assert dist.Shard(0) == dist.Shard(0) and dist.Shard(0) != dist.Shard(1)
    assert dist.Partial() != dist.Partial(dist.ReduceType.kRedAvg)
    assert dist.Shard(0).is_shard() and dist.Shard(0).is_shard(0) and not dist.Shard(0).is_shard(1)
    assert dist.Replicate().is_replicated() and dist.Partial().is_partial()
    assert dist.Partial().reduce_type() == dist.ReduceType.kRedSum and dist.ReduceType.kRedAvg == 4


def test_process_mesh(paddle):
    import paddle.distributed as dist

    m = dist.ProcessMesh([[0, 2, 4], [1, 3, 5]], dim_names=["x", "y"])
    assert m.shape == [2, 3] and m.process_ids == [0, 2, 4, 1, 3, 5] and m.dim_names == ["x", "y"]
    assert m.ndim == 2 and m.get_dim_size("y") == 3
    assert str(m) == "shape [2, 3], process_ids [0, 2, 4, 1, 3, 5], dim_names ['x', 'y']"
    t = m.get_mesh_with_dim("y")
    assert t.shape == [3, 2] and t.process_ids == [0, 1, 2, 3, 4, 5] and t.dim_names == ["y", "x"]
    sub = m.get_submesh_with_dim("y")  # the row holding rank 0
    assert sub.process_ids == [0, 2, 4] and sub.dim_names == ["y"]
    assert m.get_submesh_with_dim("x").process_ids == [0, 1]
    assert m == dist.ProcessMesh([[0, 2, 4], [1, 3, 5]]) and m != dist.ProcessMesh([[0, 1, 2], [3, 4, 5]])
    assert m.get_rank_by_dim_and_process_id("y", 4) == 2 and m.get_rank_by_dim_and_process_id("x", 3) == 1
    assert m[1].process_ids == [1, 3, 5] and dist.ProcessMesh([2, 4, 5]).dim_names == ["d0"]
    with pytest.raises(ValueError):
        dist.ProcessMesh("0,1")
    with pytest.raises(AssertionError):
        dist.ProcessMesh([0, 0])


def test_shard_tensor_single_process(paddle):
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["x"])
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    d = dist.shard_tensor(x, mesh, [dist.Shard(0)])
    assert d.is_dist() and not x.is_dist() and d.shape == [2, 2]
    assert d.placements == [dist.Shard(0)] and d.process_mesh == mesh and x.placements is None
    assert str(d.process_mesh) == "{shape: [1], process_ids: [0], dim_names: [x]}"
    np.testing.assert_array_equal(d._local_value().numpy(), x.numpy())
    assert str(d).startswith("Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True, "
                             "process_mesh={shape: [1], process_ids: [0], dim_names: [x]}, "
                             "placements=[Shard(dim=0)], GlobalDenseTensor=")
    r = dist.reshard(dist.shard_tensor(x, mesh, [dist.Partial()]), mesh, [dist.Replicate()])
    assert r.placements == [dist.Replicate()]
    np.testing.assert_array_equal(dist.unshard_dtensor(r).numpy(), x.numpy())
    assert not dist.unshard_dtensor(r).is_dist()
    w = dist.shard_tensor(x, mesh, [dist.Replicate()], stop_gradient=False)
    (w * w).sum().backward()
    np.testing.assert_allclose(w.grad._local_value().numpy(), 2 * x.numpy())


def test_shard_tensor_bad_input(paddle):
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["x"])
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError):
        dist.shard_tensor(x, mesh, [dist.Shard(2)])  # (real Paddle segfaults here)
    with pytest.raises(ValueError):
        dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Shard(1)])  # more placements than mesh dims
    with pytest.raises(ValueError, match="names processes"):
        dist.shard_tensor(x, dist.ProcessMesh([0, 1]), [dist.Shard(0)])  # a mesh bigger than the world
    with pytest.raises(TypeError):
        dist.shard_tensor(x, [0], [dist.Shard(0)])
    with pytest.raises(ValueError):
        dist.reshard(x, mesh, [dist.Replicate()])  # not distributed


def test_shard_layer_and_optimizer_single_process(paddle):
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["x"])
    net = paddle.nn.Linear(4, 2)
    ref = paddle.nn.Linear(4, 2)
    ref.set_state_dict(net.state_dict())
    dist.shard_layer(net, mesh)
    assert all(p.is_dist() for p in net.parameters())
    opt = dist.shard_optimizer(paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters()))
    ref_opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=ref.parameters())
    x = paddle.to_tensor(np.arange(8, dtype="float32").reshape(2, 4))
    dx = dist.shard_tensor(x, mesh, [dist.Replicate()])
    net(dx).sum().backward()
    opt.step()
    ref(x).sum().backward()
    ref_opt.step()
    np.testing.assert_allclose(dist.unshard_dtensor(net.weight).numpy(), ref.weight.numpy(), rtol=1e-6)


def test_data_parallel_single_process(paddle):
    net = paddle.nn.Linear(3, 2)
    dp = paddle.DataParallel(net)
    x = paddle.ones([2, 3])
    np.testing.assert_allclose(dp(x).numpy(), net(x).numpy())
    assert list(dp.state_dict().keys()) == ["weight", "bias"]
    with pytest.raises(TypeError):
        paddle.DataParallel(object())


# ------------------------------------------------------------------ real gloo jobs
def _torchrun(nproc, *args, timeout=120):
    """Run a job; returns each rank's stdout (a list, by rank).  Ranks write to their own log files
    (torchrun --redirects), so lines from different ranks cannot interleave."""
    import glob
    import tempfile

    with tempfile.TemporaryDirectory() as logs:
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={nproc}",
               f"--log-dir={logs}", "--redirects=3", "-m", "paddle_on_torch", *args]
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        outs = {}
        for path in glob.glob(os.path.join(logs, "**", "stdout.log"), recursive=True):
            outs[int(os.path.basename(os.path.dirname(path)))] = open(path).read()
        errs = "".join(open(f).read()[-3000:] for f in glob.glob(os.path.join(logs, "**", "stderr.log"),
                                                                  recursive=True))
    assert p.returncode == 0, f"torchrun failed ({p.returncode}):\n{p.stderr[-3000:]}\n{errs}"
    assert sorted(outs) == list(range(nproc)), outs
    return [outs[r] for r in range(nproc)]


@dist_job
def test_collectives_two_ranks():
    out = _torchrun(2, os.path.join(SCRIPTS, "collectives.py"))
    assert "ALL OK" in out[0], out


@dist_job
def test_data_parallel_buckets_two_ranks():
    """Bucketed all-reduce overlapped with the backward: no_sync accumulation, a parameter used on one rank only
    and one used nowhere, several buckets, against one process's gradients."""
    out = _torchrun(2, os.path.join(SCRIPTS, "dp_buckets.py"))
    assert all(f"rank {r} OK" in out[r] for r in range(2)), out


@dist_job
@pytest.mark.skipif(not os.path.isdir(SEEDS), reason="../shared/seed_examples is not beside the checkout")
def test_seed_shard_tensor_six_ranks():
    out = _torchrun(6, os.path.join(SEEDS, "shard_tensor.py"))
    # mesh [[0,2,4],[1,3,5]], placements [Shard(0), Shard(1)]: rows 4/2, columns 3/3 on every rank
    for r in range(6):
        assert out[r].strip() == f"{r} paddle.Size([4, 3]) paddle.Size([2, 1])", out


@dist_job
@pytest.mark.skipif(not os.path.isdir(SEEDS), reason="../shared/seed_examples is not beside the checkout")
def test_seed_to_static_two_ranks_equals_one_process():
    out = _torchrun(2, os.path.join(SCRIPTS, "seeded.py"), os.path.join(SEEDS, "to_static.py"))
    got = [{int(s): float(v) for s, v in re.findall(r"^(\d+) ([0-9.e-]+)$", o, re.M)} for o in out]
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    ref = subprocess.run([sys.executable, "-m", "paddle_on_torch", os.path.join(SCRIPTS, "to_static_reference.py")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True).stdout
    want = {int(s): float(v) for s, v in re.findall(r"^(\d+) ([0-9.e-]+)$", ref, re.M)}
    assert sorted(want) == list(range(8)), ref
    for rank in range(2):
        assert sorted(got[rank]) == list(range(8)), out
        np.testing.assert_allclose([got[rank][s] for s in range(8)], [want[s] for s in range(8)], rtol=1e-5)


def _lines(text, key):
    """{step or name: values} from `key ...` lines."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == key:
            out[parts[1]] = [float(re.sub(r"np\.float64\((.*)\)", r"\1", v)) for v in parts[2:]]
    return out


def _reference(script, *args):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "paddle_on_torch", os.path.join(SCRIPTS, script), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, check=True).stdout


@dist_job
@pytest.mark.skipif(not os.path.isdir(SEEDS), reason="../shared/seed_examples is not beside the checkout")
def test_seed_hybrid_mlp_eight_ranks_equals_one_process():
    """hybrid_mlp.py unchanged (dp x mp on two 2x2 meshes, cross-mesh reshard, shard_dataloader over two
    meshes, shard_optimizer with AdamW), 3 steps: losses and parameters equal one process's to 1e-5."""
    steps = "3"
    out = _torchrun(8, os.path.join(SCRIPTS, "hybrid_run.py"), os.path.join(SEEDS, "hybrid_mlp.py"), steps,
                    timeout=240)
    ref = _reference("hybrid_reference.py", steps)
    want_loss, want_param = _lines(ref, "loss"), _lines(ref, "param")
    assert sorted(want_loss) == ["0", "1", "2"], ref
    for rank in range(8):
        losses, params = _lines(out[rank], "loss"), _lines(out[rank], "param")
        if rank >= 4:  # the loss lives on the second mesh
            assert sorted(losses) == sorted(want_loss), out[rank]
            for k in want_loss:
                np.testing.assert_allclose(losses[k], want_loss[k], rtol=1e-5, atol=1e-6)
        assert list(params) == (["w1"] if rank >= 4 else ["w0"]), out[rank]
        for k, v in params.items():
            np.testing.assert_allclose(v, want_param[k], rtol=1e-5)


def test_strategy_fields(paddle):
    import paddle.distributed as dist

    s = dist.Strategy()
    assert (s.pipeline.enable, s.pipeline.schedule_mode, s.pipeline.vpp_degree, s.pipeline.micro_batch_size,
            s.pipeline.accumulate_steps) == (False, "1F1B", 1, 1, 1)
    assert (s.sharding.enable, s.sharding.stage, s.sharding.degree) == (False, 1, 8)
    assert (s.gradient_merge.k_steps, s.gradient_merge.avg) == (1, True)
    assert (s.fused_passes.enable, s.fused_passes.gemm_epilogue, s.amp.dtype, s._recompute.enable) == \
        (False, False, "float16", False)
    s2 = dist.Strategy({"pipeline": {"enable": True, "accumulate_steps": 4}})
    assert s2.pipeline.enable and s2.pipeline.accumulate_steps == 4 and s2.pipeline.schedule_mode == "1F1B"
    with pytest.raises(ValueError):
        dist.Strategy("x")
    net = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    s.sharding.enable = True  # accepted: sharding of the optimizer states comes from shard_optimizer's placements
    assert dist.to_static(net, None, paddle.nn.MSELoss(), opt, strategy=s) is not None
    s3 = dist.Strategy()
    s3.pipeline.enable = True
    s3.pipeline.schedule_mode = "interleaved"
    with pytest.raises(ValueError, match="schedule_mode"):
        dist.to_static(net, None, paddle.nn.MSELoss(), opt, strategy=s3)
    # fleet.auto.Strategy is another class (as in Paddle 3.3.1) that to_static reads too
    legacy = dist.fleet.auto.Strategy({"gradient_merge": {"enable": True, "k_steps": 2}})
    assert not isinstance(legacy, dist.Strategy)
    model = dist.to_static(net, None, paddle.nn.MSELoss(), opt, strategy=legacy)
    assert isinstance(model._strategy, dist.Strategy) and model._strategy.gradient_merge.k_steps == 2
    legacy.pipeline.enable, legacy.pipeline.schedule_mode = True, "interleaved"
    with pytest.raises(ValueError, match="schedule_mode"):
        dist.to_static(net, None, paddle.nn.MSELoss(), opt, strategy=legacy)
    with pytest.raises(TypeError):
        dist.to_static(net, None, paddle.nn.MSELoss(), opt, strategy={"pipeline": {}})


@dist_job
@pytest.mark.skipif(not os.path.isdir(SEEDS), reason="../shared/seed_examples is not beside the checkout")
def test_seed_strategy_pipeline_eight_ranks_equals_one_process():
    """strategy.py unchanged: a two-stage pipeline (dp 2 per stage, ranks 4-7 idle), 1F1B, 4 micro-batches;
    the last stage's losses equal one process's gradient-accumulation run to 1e-5; earlier stages get None."""
    out = _torchrun(8, os.path.join(SCRIPTS, "seeded.py"), os.path.join(SEEDS, "strategy.py"), timeout=240)
    ref = _reference("strategy_reference.py")
    want = {int(s): float(v) for s, v in re.findall(r"^(\d+) ([0-9.e-]+)$", ref, re.M)}
    assert sorted(want) == [0, 2, 4, 6], ref
    for rank in range(8):
        if rank in (2, 3):
            got = {int(s): float(v) for s, v in re.findall(r"^(\d+) ([0-9.e-]+)$", out[rank], re.M)}
            assert sorted(got) == [0, 2, 4, 6], out[rank]
            np.testing.assert_allclose([got[k] for k in want], [want[k] for k in want], rtol=1e-5)
        else:
            assert re.findall(r"^(\d+) None$", out[rank], re.M) == ["0", "2", "4", "6"], out[rank]


PIPELINE_CASES = ["dp2_1F1B", "dp2_FThenB", "dp2_Eager1F1B", "pp4_1F1B_4", "pp4_FThenB_8", "pp4_1F1B_2", "vpp"]


@dist_job
def test_to_static_pipeline_schedules_four_ranks_equal_one_process():
    """Strategy.pipeline on torch.distributed.pipelining (tests/dist_scripts/ap_pipeline.py): 1F1B, FThenB, Eager1F1B
    over two data-parallel stages, 1F1B / FThenB / 1F1B with fewer micro-batches than stages over four
    parallelize(pp_config) stages, VPP over two meshes visited twice; losses and parameters after 3 AdamW
    steps equal one process's gradient-accumulation run to 1e-5 (checked in the script)."""
    out = _torchrun(4, os.path.join(SCRIPTS, "ap_pipeline.py"), *PIPELINE_CASES, timeout=300)
    for rank in range(4):
        done = re.findall(r"^OK (\S+) rank=", out[rank], re.M)
        assert done == PIPELINE_CASES, out[rank]


def test_to_static_pipeline_on_one_mesh_accumulates_micro_batches(paddle):
    """A world of one: a pipeline Strategy on a model on one mesh accumulates micro-batches in the
    process (no stages to schedule) and equals the plain loop."""
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["x"])
    paddle.seed(3)
    net = paddle.nn.Linear(4, 2)
    w0, b0 = net.weight.numpy(), net.bias.numpy()
    dist.shard_layer(net, mesh)
    opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    s = dist.Strategy()
    s.pipeline.enable, s.pipeline.accumulate_steps = True, 2
    dm = dist.to_static(net, None, paddle.nn.MSELoss(), opt, strategy=s)
    x, y = np.arange(16, dtype="float32").reshape(4, 4) / 10, np.ones([4, 2], "float32")
    loss = dm(dist.shard_tensor(x, mesh, [dist.Replicate()]), dist.shard_tensor(y, mesh, [dist.Replicate()]))
    ref = paddle.nn.Linear(4, 2)
    ref.weight.set_value(w0)
    ref.bias.set_value(b0)
    parts = [paddle.nn.functional.mse_loss(ref(paddle.to_tensor(x[i:i + 2])), paddle.to_tensor(y[i:i + 2]))
             for i in (0, 2)]
    np.testing.assert_allclose(float(loss), float(sum(parts) / 2), rtol=1e-6)
    (sum(parts) / 2).backward()
    np.testing.assert_allclose(net.weight.numpy(), w0 - 0.1 * ref.weight.grad.numpy(), rtol=1e-5, atol=1e-7)
