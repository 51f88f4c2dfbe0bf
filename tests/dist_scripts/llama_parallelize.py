"""PaddleNLP's plain LLaMA (LlamaForCausalLMNet, tests/llama_parallelize_cases.py) parallelised by
`dist.parallelize(model, optimizer, config=...)` with the model's own plan (its `auto_dist_config`, merged by
`_generate_auto_dist_config` as PaddleNLP's AutoTrainer does), against real Paddle's one-process losses
(tests/data/llama_parallelize/losses.npz, tools/record_llama_parallelize.py).

    torchrun --nproc-per-node=8 -m paddle_on_torch tests/dist_scripts/llama_parallelize.py CASE [CASE ...]

The case `auto_trainer` drives PaddleNLP's AutoTrainer (--use_intermediate_api) at data parallel over all ranks.
Each case prints `OK <case> <max abs error>` on every rank (`-` where the rank holds no loss: an earlier
pipeline stage).  The mesh is fleet.auto.create_mesh([("pp", pp), ("dp", dp), ("mp", mp)]), as
AutoTrainingArguments makes it.
"""
import os
import sys
import time

import numpy as np
import paddle
import paddle.distributed as dist

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
import paddlenlp.data  # noqa: E402,F401  (before paddlenlp.transformers: an import cycle)
import paddlenlp.transformers  # noqa: E402,F401

from tests import llama_parallelize_cases as C  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "llama_parallelize")
WEIGHTS = os.path.join(DATA, C.WEIGHTS + ".pdparams")
TOL = 1e-4

# name -> (pp, dp, mp), auto_dist_degree keywords (tp / pp / dp / sharding / sp: the sequence-parallel plan)
CASES = {
    "mp2": ((1, 1, 2), dict(tp=True)),
    "mp2_sp": ((1, 1, 2), dict(tp=True, sp=True)),
    "pp2": ((2, 1, 1), dict(pp=True)),
    "dp2": ((1, 2, 1), dict(dp=True)),
    "dp2mp2pp2": ((2, 2, 2), dict(tp=True, pp=True, dp=True)),
    "dp2mp2pp2_stage1": ((2, 2, 2), dict(tp=True, pp=True, dp=True, sharding="stage1")),
    "dp2mp2pp2_sp": ((2, 2, 2), dict(tp=True, pp=True, dp=True, sp=True)),
    "dp2mp2pp2_sp_stage1": ((2, 2, 2), dict(tp=True, pp=True, dp=True, sp=True, sharding="stage1")),
    "dp4mp2_stage2": ((1, 4, 2), dict(tp=True, dp=True, sharding="stage2")),
    "dp2mp4_stage3": ((1, 2, 4), dict(tp=True, dp=True, sharding="stage3")),
    "mp2pp4": ((4, 1, 2), dict(tp=True, pp=True)),
    "dp8": ((1, 8, 1), dict(dp=True)),
}


def run_auto_trainer(intermediate=True):
    """PaddleNLP's AutoTrainer, data parallel over the launch's ranks, with --use_intermediate_api or without it
    (the model's parameters stay dense and meet the dataloader's distributed batches), against real Paddle's
    one-process AutoTrainer (which runs without the intermediate API: Paddle refuses it in one process)."""
    import tempfile

    t0 = time.time()
    # what paddle.distributed.launch gives each worker (this launch is torchrun's): TrainingArguments reads it
    os.environ.setdefault("PADDLE_RANK_IN_NODE", os.environ.get("LOCAL_RANK", "0"))
    with np.load(os.path.join(DATA, "losses.npz")) as f:
        want = f["auto_trainer"]
    with tempfile.TemporaryDirectory() as tmp:
        losses = C.auto_trainer_losses(paddle, WEIGHTS, tmp, dp=dist.get_world_size(), intermediate=intermediate)
    err = float(np.abs(np.array(losses) - want).max())
    assert len(losses) == len(want) and err <= TOL, (losses, want.tolist())
    print(f"OK auto_trainer{'' if intermediate else '_plain'} {err:.2e} {time.time() - t0:.1f}s", flush=True)


def run(name):
    if name in ("auto_trainer", "auto_trainer_plain"):
        return run_auto_trainer(intermediate=name == "auto_trainer")
    t0 = time.time()
    (pp, dp, mp), deg = CASES[name]
    with np.load(os.path.join(DATA, "losses.npz")) as f:
        want = f["dynamic"]
    dist.fleet.auto.create_mesh([("pp", pp), ("dp", dp), ("mp", mp)])
    model, criterion = C.build(paddle, mp=mp)
    config = model._generate_auto_dist_config(C.degrees(**deg))
    opt = C.optimizer(paddle, model)
    model, opt = dist.parallelize(model, opt, config=config)
    C.initialize(paddle, model, WEIGHTS)
    losses = C.train(paddle, model, criterion, opt, C.loader(paddle, pp))
    last = dist.fleet.auto.get_mesh().get_mesh_with_dim("pp")[pp - 1]
    last_stage = dist.get_rank() in last.process_ids
    held = [v is not None for v in losses]
    assert all(held) == last_stage and any(held) == last_stage, (name, losses)
    err = float(np.abs(np.array(losses) - want).max()) if last_stage else None
    assert err is None or err <= TOL, (name, losses, want.tolist())
    print(f"OK {name} {'-' if err is None else f'{err:.2e}'} {time.time() - t0:.1f}s", flush=True)


if __name__ == "__main__":
    if os.environ.get("LLAMA_PARALLELIZE_STACKS"):  # debugging a hang: every rank's stacks after N seconds
        import faulthandler

        faulthandler.dump_traceback_later(int(os.environ["LLAMA_PARALLELIZE_STACKS"]), exit=True)
    t0 = time.time()
    dist.init_parallel_env()
    print(f"ready {time.time() - t0:.1f}s", flush=True)
    for case in sys.argv[1:] or [*CASES, "auto_trainer", "auto_trainer_plain"]:
        with paddle.utils.unique_name.guard():  # names as in a fresh process
            run(case)
    dist.barrier()
