"""Auto-parallel beyond placements: sharding stages, parallelize, sharded checkpoints, launch.

Single-process tests run in a world of one; the multi-rank ones (`dist_job`) start short gloo jobs
under torchrun (the `dist` lane) and assert on what every rank prints.
"""
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPTS = os.path.join(ROOT, "tests", "dist_scripts")
dist_job = pytest.mark.dist


def _env():
    return dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), OMP_NUM_THREADS="1")


def torchrun(nproc, *args, timeout=180, ok=True):
    """Run `python -m paddle_on_torch args` on `nproc` gloo ranks; returns (returncode, [stdout by rank], stderr)."""
    with tempfile.TemporaryDirectory() as logs:
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={nproc}",
               f"--log-dir={logs}", "--redirects=3", "-m", "paddle_on_torch", *args]
        p = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=timeout)
        outs = {int(os.path.basename(os.path.dirname(f))): open(f).read()
                for f in glob.glob(os.path.join(logs, "**", "stdout.log"), recursive=True)}
        errs = "".join(open(f).read()[-4000:] for f in glob.glob(os.path.join(logs, "**", "stderr.log"),
                                                                  recursive=True))
    if ok:
        assert p.returncode == 0, f"torchrun failed ({p.returncode}):\n{p.stderr[-3000:]}\n{errs}"
        assert sorted(outs) == list(range(nproc)), outs
    return p.returncode, [outs.get(r, "") for r in range(nproc)], p.stderr + errs


# ------------------------------------------------------------------ sharding stages
def test_sharding_stage_arguments(paddle):
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["dp"])
    net = paddle.nn.Linear(4, 2)
    opt = paddle.optimizer.AdamW(parameters=net.parameters())
    with pytest.raises(TypeError):
        dist.shard_optimizer(opt, shard_fn=lambda k, p, t: t)
    with pytest.raises(ValueError):
        dist.shard_optimizer(None)
    with pytest.raises(ValueError, match="sharding_mesh_dim"):
        dist.ShardingStage1("mp", mesh)
    with pytest.raises(ValueError, match="global mesh or shard_fn mesh"):
        dist.shard_optimizer(opt, dist.ShardingStage2("dp"))
    sopt = dist.shard_optimizer(opt, dist.ShardingStage1("dp", mesh), gradient_accumulation_steps=4)
    assert sopt.gradient_accumulation_steps == 4 and sopt._learning_rate == opt._learning_rate


def test_sharding_stage3_world_of_one_matches_plain(paddle):
    """Stage 3 with a mesh makes dense parameters distributed (as Paddle); a world of one computes the plain step."""
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["dp"])
    paddle.seed(3)
    net, ref = paddle.nn.Linear(4, 3), paddle.nn.Linear(4, 3)
    ref.set_state_dict(net.state_dict())
    opt = dist.shard_optimizer(paddle.optimizer.AdamW(0.1, parameters=net.parameters()),
                               dist.ShardingStage3("dp", mesh))
    ropt = paddle.optimizer.AdamW(0.1, parameters=ref.parameters())
    assert net.weight.is_dist() and net.weight.placements == [dist.Shard(0)]
    x = paddle.to_tensor(np.arange(8, dtype="float32").reshape(2, 4))
    for _ in range(2):
        net(dist.shard_tensor(x, mesh, [dist.Replicate()])).sum().backward()
        opt.step()
        opt.clear_grad()
        ref(x).sum().backward()
        ropt.step()
        ropt.clear_grad()
    np.testing.assert_allclose(dist.unshard_dtensor(net.weight).numpy(), ref.weight.numpy(), rtol=1e-6)
    sd = opt.state_dict()
    m = [v for k, v in sd.items() if "moment1" in k]
    assert m and all(v.is_dist() for v in m)


def test_shard_scaler_world_of_one(paddle, monkeypatch):
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["dp"])
    net = dist.shard_layer(paddle.nn.Linear(4, 2), mesh)
    opt = dist.shard_optimizer(paddle.optimizer.SGD(0.1, parameters=net.parameters()))
    from paddle_on_torch.amp import grad_scaler

    # Paddle disables loss scaling on CPU; pretend an accelerator to exercise the distributed unscale
    monkeypatch.setattr(grad_scaler._ac, "_accelerator", lambda: True)
    scaler = dist.shard_scaler(paddle.amp.GradScaler(init_loss_scaling=8.0, incr_every_n_steps=1))
    w0 = dist.unshard_dtensor(net.weight).numpy()
    x = dist.shard_tensor(paddle.ones([2, 4]), mesh, [dist.Replicate()])
    scaler.scale(net(x).sum()).backward()
    scaler.step(opt)
    scaler.update()
    np.testing.assert_allclose(dist.unshard_dtensor(net.weight).numpy(), w0 - 0.1 * 2, rtol=1e-6)
    assert not bool(scaler._found_inf)
    with pytest.raises(TypeError):
        dist.shard_scaler(object())


@dist_job
def test_sharding_stages_four_ranks_equal_one_process():
    """Stages none/1/2/3 on a 2x2 dp x mp mesh (with column/row tensor parallel), SGD and AdamW, global-norm
    clipping, a 1-D mesh of two of the four ranks: losses and parameters after 3 steps equal one process's
    to 1e-5; states, gradients (stage 2/3) and parameters (stage 3) are sharded over dp."""
    _, out, _ = torchrun(4, os.path.join(SCRIPTS, "ap_sharding.py"), timeout=240)
    for r in range(4):
        assert "ALL OK" in out[r], out[r]
        assert out[r].count("OK stage") == (8 if r < 2 else 7), out[r]


@dist_job
def test_stateful_optimizers_on_dist_parameters_two_ranks():
    """Adam, AdamW (amsgrad), Momentum (Nesterov, L2) and SGD on shard_tensor'd parameters, without
    shard_optimizer: accumulators are dist tensors with the parameter's placements (beta powers replicated),
    and 3 steps on 2 ranks, tensor parallel and data parallel (Partial gradients), equal one process to 1e-5."""
    _, out, _ = torchrun(2, os.path.join(SCRIPTS, "ap_stateful_optimizers.py"))
    for r in range(2):
        assert "ALL OK" in out[r], out[r]
        assert out[r].count("OK ") == 5, out[r]  # one line per optimizer


# ------------------------------------------------------------------ parallelize
def test_parallelize_arguments(paddle):
    import paddle.distributed as dist

    net = paddle.nn.Linear(4, 4)
    opt = paddle.optimizer.SGD(parameters=net.parameters())
    with pytest.warns(UserWarning):
        assert dist.parallelize(net, opt, None, None) == (net, opt)
    mesh = dist.ProcessMesh([0], dim_names=["dp"])
    with pytest.raises(ValueError, match="'mp'"):
        dist.parallelize(net, opt, mesh, {"mp_config": {"parallelize_plan": {"": dist.ColWiseParallel()}}})
    with pytest.raises(ValueError, match="'pp'"):
        dist.parallelize(net, opt, mesh, {"pp_config": {"split_spec": "x"}})
    with pytest.raises(TypeError):
        dist.parallelize(net, opt, [0], {"dp_config": {}})
    with pytest.raises(ValueError, match="names processes"):  # before any communication
        dist.parallelize(net, opt, dist.ProcessMesh([0, 1], dim_names=["dp"]), {"dp_config": {"sharding_level": 1}})
    with pytest.raises(NotImplementedError):
        dist.to_distributed(net, opt, None, 1)
    assert dist.SplitPoint.END.value == 1 and dist.SplitPoint.BEGINNING.value == 0


def test_parallelize_world_of_one(paddle):
    """A one-process mesh: the plans place parameters as Paddle does and the step equals the plain one."""
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([[0]], dim_names=["dp", "mp"])
    paddle.seed(5)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.Linear(8, 2))
    ref = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.Linear(8, 2))
    ref.set_state_dict(net.state_dict())
    opt = paddle.optimizer.AdamW(0.1, parameters=net.parameters())
    net, opt = dist.parallelize(net, opt, mesh, {"dp_config": {"sharding_level": 2},
                                                 "mp_config": {"parallelize_plan": {"0": dist.ColWiseParallel(),
                                                                                    "1": dist.RowWiseParallel()}}})
    assert net[0].weight.placements == [dist.Replicate(), dist.Shard(1)]
    assert net[0].bias.placements == [dist.Replicate(), dist.Shard(0)]
    assert net[1].weight.placements == [dist.Replicate(), dist.Shard(0)]
    assert net[1].bias.placements == [dist.Replicate(), dist.Replicate()]
    ropt = paddle.optimizer.AdamW(0.1, parameters=ref.parameters())
    x = paddle.to_tensor(np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4))
    for _ in range(2):
        net(dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Replicate()])).pow(2).mean().backward()
        opt.step()
        opt.clear_grad()
        ref(x).pow(2).mean().backward()
        ropt.step()
        ropt.clear_grad()
    for a, b in zip(net.parameters(), ref.parameters()):
        np.testing.assert_allclose(dist.unshard_dtensor(a).numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


@dist_job
def test_parallelize_four_ranks_equal_one_process():
    """dist.parallelize on 4 ranks: dp x mp with sequence parallel and stage 1; dp x mp with stage 3; pp x dp
    (split_spec prefix) with stage 2; pp x mp (SplitPoint dict): 3 AdamW steps equal one process to 1e-5.  Also
    the MoE sub-mesh views (api.moe_global_mesh_tensor / moe_sub_mesh_tensors) against closed-form values."""
    _, out, _ = torchrun(4, os.path.join(SCRIPTS, "ap_parallelize.py"), timeout=240)
    for r in range(4):
        assert "ALL OK" in out[r], out[r]
        assert out[r].count("OK ") == 5 and "OK moe-views" in out[r], out[r]
        assert ("OK pp-dp-stage2 loss" in out[r]) == (r >= 2), out[r]


# ------------------------------------------------------------------ sharded checkpoints
def test_checkpoint_world_of_one(paddle, tmp_path):
    import paddle.distributed as dist

    mesh = dist.ProcessMesh([0], dim_names=["x"])
    w = paddle.arange(32, dtype="float32").reshape([4, 8])
    sd = {"w": dist.shard_tensor(w, mesh, [dist.Shard(0)]), "d": paddle.ones([3], dtype="int64"),
          "meta": {"step": 3, "lr": [0.5]}}
    dist.save_state_dict(sd, str(tmp_path))
    target = {"w": dist.shard_tensor(paddle.zeros([4, 8]), mesh, [dist.Replicate()]),
              "d": paddle.zeros([3], dtype="int64"), "meta": {"step": 0, "lr": [0.0]}}
    dist.load_state_dict(target, str(tmp_path))
    np.testing.assert_array_equal(target["w"].numpy(), w.numpy())
    assert target["w"].placements == [dist.Replicate()] and target["d"].tolist() == [1, 1, 1]
    assert target["meta"] == {"step": 3, "lr": [0.5]}
    net, net2 = paddle.nn.Linear(3, 2), paddle.nn.Linear(3, 2)
    dist.save_state_dict(net.state_dict(), str(tmp_path), unique_id=2)
    sd2 = net2.state_dict()
    dist.load_state_dict(sd2, str(tmp_path), unique_id=2)
    np.testing.assert_array_equal(net2.weight.numpy(), net.weight.numpy())  # in place
    with pytest.raises(KeyError, match="nope"):
        dist.load_state_dict({"nope": paddle.zeros([1])}, str(tmp_path))
    with pytest.raises(FileNotFoundError):
        dist.load_state_dict(sd2, str(tmp_path / "missing"))
    with pytest.raises(TypeError):
        dist.save_state_dict([1], str(tmp_path))
    with pytest.raises(NotImplementedError):
        dist.save_state_dict(sd2, str(tmp_path), safetensors=True)


@dist_job
def test_checkpoint_saved_at_one_layout_loads_at_another(tmp_path):
    """Saved from dp x mp with ShardingStage1 (params and optimizer states sharded both ways), loaded into
    pp x dp with ShardingStage3 and into a dense model on every rank: the dense copy equals 2 single-process
    steps, and the resumed run after one more step equals 3."""
    _, out, _ = torchrun(4, os.path.join(SCRIPTS, "ap_checkpoint.py"), "save", str(tmp_path))
    assert all("SAVED" in o for o in out), out
    assert len(glob.glob(str(tmp_path / "*.distcp"))) == 4
    _, out, _ = torchrun(4, os.path.join(SCRIPTS, "ap_checkpoint.py"), "load", str(tmp_path))
    assert all("LOADED OK" in o for o in out), out


# ------------------------------------------------------------------ launch and failures
def test_launch_arguments_map_onto_torchrun():
    from paddle_on_torch.distributed.launch import torchrun_args

    assert torchrun_args(["--devices=0,1,2", "--log_dir=", "t.py", "--lr", "1"]) == [
        "--nproc-per-node=3", "--nnodes=1", "--max-restarts=0", "--rdzv-id=default", "--standalone",
        "-m", "paddle_on_torch", "t.py", "--lr", "1"]
    a = torchrun_args(["--nnodes", "2", "--master", "10.0.0.1:8090", "--rank", "1", "--nproc_per_node", "4",
                       "--log_dir", "logs", "--log_overwrite=True", "t.py"])
    assert a[:7] == ["--nproc-per-node=4", "--nnodes=2", "--max-restarts=0", "--rdzv-id=default",
                     "--master-addr=10.0.0.1", "--master-port=8090", "--node-rank=1"]
    # each rank writes Paddle's log/workerlog.N itself (Paddle's default log_dir is "log")
    assert a[7:] == ["-m", "paddle_on_torch.distributed.launch._worker", f"--log_dir={os.path.abspath('logs')}",
                     "--log_overwrite", "t.py"]
    assert f"--log_dir={os.path.abspath('log')}" in torchrun_args(["t.py"])
    with pytest.raises(ValueError, match="--master"):
        torchrun_args(["--nnodes=2", "t.py"])
    with pytest.raises(ValueError, match="IP:PORT"):
        torchrun_args(["--master=abc", "t.py"])
    with pytest.raises(NotImplementedError):
        torchrun_args(["--run_mode=ps", "t.py"])


@dist_job
def test_launch_two_processes(tmp_path):
    """`python -m paddle_on_torch -m paddle.distributed.launch --devices=0,1 --log_dir DIR script` (Paddle's form)."""
    cmd = [sys.executable, "-m", "paddle_on_torch", "-m", "paddle.distributed.launch", "--devices=0,1",
           f"--log_dir={tmp_path}", os.path.join(SCRIPTS, "ap_launch.py")]
    p = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    # Paddle's layout: DIR/workerlog.N (the rank's stdout and stderr), DIR/envlog.N; the console shows rank 0's
    for r in (0, 1):
        assert f"rank {r} world 2 sum 3.0" in (tmp_path / f"workerlog.{r}").read_text()
        assert f"LOCAL_RANK={r}\n" in (tmp_path / f"envlog.{r}").read_text()
    assert "rank 0 world 2 sum 3.0" in p.stdout and "rank 1 world" not in p.stdout


@dist_job
def test_launch_shows_a_failed_ranks_log(tmp_path):
    """A rank's error goes to its workerlog; the launcher prints that log's end and exits non-zero."""
    cmd = [sys.executable, "-m", "paddle_on_torch", "-m", "paddle.distributed.launch", "--devices=0,1",
           f"--log_dir={tmp_path}", os.path.join(SCRIPTS, "ap_fail.py")]
    p = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert p.returncode != 0
    assert "rank 1 fails on purpose" in (tmp_path / "workerlog.1").read_text()
    assert "ERROR LOG DETAIL" in p.stderr and "rank 1 fails on purpose" in p.stderr


@dist_job
def test_a_failing_rank_brings_the_job_down():
    """Rank 1 raises while rank 0 waits in all_reduce: torchrun stops the job (no hang) and the error shows."""
    code, out, err = torchrun(2, os.path.join(SCRIPTS, "ap_fail.py"), timeout=120, ok=False)
    assert code != 0
    assert "rank 1 fails on purpose" in err
    assert "should not get here" not in out[0]
