"""PaddleNLP's auto-parallel LLaMA (LlamaForCausalLM3DAuto, tests/llama_auto_cases.py) under torchrun, layout by
layout, against real Paddle's one-process losses (tests/data/llama_auto/losses.npz, tools/record_llama_auto.py).

    torchrun --nproc-per-node=8 -m paddle_on_torch tests/dist_scripts/llama_auto.py CASE [CASE ...]

Every case builds the model from the Paddle-saved weights on its layout, trains STEPS AdamW steps and checks
the losses on the processes that hold them (the last pipeline stage's) to 1e-4; each prints
`OK <case> <max abs error>` on every rank.  One launch runs several cases (start-up is the costly part).
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

from tests import llama_auto_cases as C  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "llama_auto")
WEIGHTS = os.path.join(DATA, C.WEIGHTS + ".pdparams")
TOL = 1e-4


def strategy(**groups):
    return dist.Strategy({k: dict(v, enable=True) for k, v in groups.items()})


# name -> (pp, dp, mp), sharding stage, mode, Strategy groups
CASES = {
    "dp2": ((1, 2, 1), None, "dynamic", {}),
    "mp2": ((1, 1, 2), None, "dynamic", {}),
    "pp2": ((2, 1, 1), None, "dynamic", {}),
    "dp2mp2pp2": ((2, 2, 2), None, "dynamic", {}),
    "dp2mp2pp2_static": ((2, 2, 2), None, "static", {}),
    "dp2mp2_stage1": ((1, 2, 2), 1, "dynamic", {}),
    "dp2mp2_stage2": ((1, 2, 2), 2, "dynamic", {}),
    "dp2mp2_stage3": ((1, 2, 2), 3, "dynamic", {}),
    "dp2mp2_stage1_static": ((1, 2, 2), 1, "static", {}),
    "dp2mp2_stage2_static": ((1, 2, 2), 2, "static", {}),
    "dp2mp2_stage3_static": ((1, 2, 2), 3, "static", {}),
    "dp4_stage3": ((1, 4, 1), 3, "dynamic", {}),
}


def run(name):
    global T0
    T0 = time.time()
    (pp, dp, mp), stage, mode, groups = CASES[name]
    model, criterion = C.build(paddle, pp=pp, dp=dp, mp=mp, weights=WEIGHTS)
    opt = C.optimizer(paddle, model, stage)
    losses = C.train(paddle, model, criterion, opt, C.loader(paddle, pp), mode=mode,
                     strategy=strategy(**groups) if groups else None)
    with np.load(os.path.join(DATA, "losses.npz")) as f:
        want = f["dynamic"]
    held = [v is not None for v in losses]
    last_stage = dist.get_rank() in C.stage_mesh(paddle, -1).process_ids
    assert all(held) == last_stage and any(held) == last_stage, (name, losses)
    err = float(np.abs(np.array(losses) - want).max()) if last_stage else None
    assert err is None or err <= TOL, (name, losses, want.tolist())
    print(f"OK {name} {'-' if err is None else f'{err:.2e}'} {time.time() - T0:.1f}s", flush=True)


if __name__ == "__main__":
    T0 = time.time()
    dist.init_parallel_env()
    print(f"ready {time.time() - T0:.1f}s", flush=True)
    for case in sys.argv[1:]:
        run(case)
    dist.barrier()
