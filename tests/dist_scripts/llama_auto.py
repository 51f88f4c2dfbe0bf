"""PaddleNLP's auto-parallel LLaMA (LlamaForCausalLM3DAuto, tests/llama_auto_cases.py) under torchrun, layout by
layout, against real Paddle's one-process losses (tests/data/llama_auto/losses.npz, tools/record_llama_auto.py).

    torchrun --nproc-per-node=8 -m paddle_on_torch tests/dist_scripts/llama_auto.py CASE [CASE ...]

Every case builds the model from the Paddle-saved weights on its layout, trains STEPS AdamW steps and checks
the losses on the processes that hold them (the last pipeline stage's) to 1e-4; each prints
`OK <case> <max abs error>` on every rank.  One launch runs several cases (start-up is the costly part).
"""
import json
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


def case(layout, stage=None, mode="dynamic", recompute=None, want="dynamic", **groups):
    """layout (pp, dp, mp), sharding stage on "dp", 'dynamic' / 'static' (dist.to_static with a Strategy of
    `groups`), PaddleNLP's recompute granularity, and the key of real Paddle's one-process losses it must equal."""
    return dict(layout=layout, stage=stage, mode=mode, recompute=recompute, want=want, groups=groups)


PIPE = dict(accumulate_steps=2, micro_batch_size=2)  # the 4 rows a dp rank holds, in 2 micro-batches
CASES = {
    "one": case((1, 1, 1)),  # the shim in one process (no torchrun)
    "dp2": case((1, 2, 1)),
    "mp2": case((1, 1, 2)),
    "pp2": case((2, 1, 1)),
    "dp2mp2pp2": case((2, 2, 2)),
    "dp2mp2pp2_static": case((2, 2, 2), mode="static", want="static"),
    # sharding stages on the 4 ranks of a dp2 x mp2 mesh (ranks 4-7 of an 8-rank job are outside it)
    "dp2mp2_stage1": case((1, 2, 2), 1),
    "dp2mp2_stage2": case((1, 2, 2), 2),
    "dp2mp2_stage3": case((1, 2, 2), 3),
    "dp2mp2_stage1_static": case((1, 2, 2), 1, "static", want="static",
                                 sharding=dict(stage=1, degree=2)),
    "dp2mp2_stage2_static": case((1, 2, 2), 2, "static", want="static",
                                 sharding=dict(stage=2, degree=2)),
    "dp2mp2_stage3_static": case((1, 2, 2), 3, "static", want="static",
                                 sharding=dict(stage=3, degree=2)),
    "dp4_stage3": case((1, 4, 1), 3),
    "dp2mp2pp2_stage1": case((2, 2, 2), 1),
    # pipeline schedules (to_static): the mean of the micro-batch losses, one optimizer step
    "pp2_FThenB": case((2, 2, 2), mode="static", pipeline=dict(PIPE, schedule_mode="FThenB")),
    "pp2_1F1B": case((2, 2, 2), mode="static", pipeline=dict(PIPE, schedule_mode="1F1B")),
    "pp2_1F1B_stage2": case((2, 2, 2), 2, "static", pipeline=dict(PIPE, schedule_mode="1F1B"),
                            sharding=dict(stage=2, degree=2)),
    "one_gradient_merge2": case((1, 1, 1), mode="static", want="static_gradient_merge2",
                                gradient_merge=dict(k_steps=2, avg=True)),
    "one_gradient_merge2_sum": case((1, 1, 1), mode="static", want="static_gradient_merge2_sum",
                                    gradient_merge=dict(k_steps=2, avg=False)),
    # VPP: modeling_auto places its layers in contiguous blocks (each stage's mesh visited once); Paddle's
    # vpp_seg_method deals the decoder layers out into vpp_degree chunks per stage (mesh0, mesh1, mesh0, mesh1)
    "pp2_VPP": case((2, 2, 2), mode="static", pipeline=dict(PIPE, schedule_mode="VPP", vpp_degree=2,
                                                            vpp_seg_method="LlamaDecoderLayerAuto")),
    # gradient merge: two micro-batches, one step; Paddle returns the first micro-batch's loss.  On pp2 x mp2
    # (4 ranks, no dp) the micro-batches are one process's; with dp each rank cuts its own rows, so the first
    # micro-batch (and the loss returned) is another set of rows
    "gradient_merge2": case((2, 1, 2), mode="static", want="static_gradient_merge2",
                            gradient_merge=dict(k_steps=2, avg=True)),
    "gradient_merge2_sum": case((2, 1, 2), mode="static", want="static_gradient_merge2_sum",
                                gradient_merge=dict(k_steps=2, avg=False)),
    # recompute, PaddleNLP's granularities (whole decoder layer, attention block, core attention)
    "recompute_full": case((2, 2, 2), recompute="full", want="dynamic_recompute_full"),
    "recompute_full_attn": case((2, 2, 2), recompute="full_attn", want="dynamic_recompute_full_attn"),
    "recompute_core_attn": case((2, 2, 2), recompute="core_attn", want="dynamic_recompute_core_attn"),
    "recompute_full_static": case((2, 2, 2), mode="static", recompute="full", want="static_recompute_full",
                                  recompute_cfg=dict()),
    # fused passes Paddle's Strategy names (kernel fusions of the compiled program: values unchanged);
    # paddle.distributed.Strategy's FusePasses takes these two flags (fused_passes_list is fleet.auto.Strategy's)
    "fused_passes": case((2, 2, 2), mode="static", want="static",
                         fused_passes=dict(gemm_epilogue=True, dropout_add=True)),
}


# checkpoints across layouts: two steps at dp2 x mp2 x pp2 and a sharded checkpoint of the model and the
# optimizer (dist.save_state_dict); it loads at dp4 x mp2 and into one process (`python -m paddle_on_torch
# llama_auto.py ckpt_load_one`, no torchrun), each into a model built from other weights, and the last two steps
# there equal the uninterrupted run's.  The one process also merges the checkpoint's model weights into
# safetensors files (flex_checkpoint's merge_sharded_state_dict) and checks them through torch's own reader.
CHECKPOINTS = {
    "ckpt_save_dp2mp2pp2": ((2, 2, 2), "save"),
    "ckpt_load_dp4mp2": ((1, 4, 2), "load"),
    "ckpt_load_one": ((1, 1, 1), "load"),
}
SPLIT = 2  # steps before the checkpoint


def checkpoint(name):
    (pp, dp, mp), what = CHECKPOINTS[name]
    path = os.environ["LLAMA_AUTO_CKPT"]
    if what == "save":
        model, criterion = C.build(paddle, pp=pp, dp=dp, mp=mp, weights=WEIGHTS)
        opt = C.optimizer(paddle, model)
        losses = C.train(paddle, model, criterion, opt, C.loader(paddle, pp, 0, SPLIT))
        dist.save_state_dict({"model": model.state_dict(), "opt": opt.state_dict()}, path)
        return losses, slice(0, SPLIT)
    model, criterion = C.build(paddle, pp=pp, dp=dp, mp=mp)  # its own (seeded) weights, overwritten by the load
    opt = C.optimizer(paddle, model)
    osd = opt.state_dict()  # the (distributed) states to load into, as in Paddle
    dist.load_state_dict({"model": model.state_dict(), "opt": osd}, path)
    opt.set_state_dict(osd)
    if dist.get_world_size() == 1:
        to_safetensors(model, path)
    losses = C.train(paddle, model, criterion, opt, C.loader(paddle, pp, SPLIT, C.STEPS))
    return losses, slice(SPLIT, C.STEPS)


def to_safetensors(model, path):
    """The checkpoint's model weights, whole (load_merged_state_dict) and as safetensors files read by torch's
    safetensors.torch.load_file, equal the loaded model's; the files hold the names real Paddle's state dict
    has (the Paddle-saved weights' keys)."""
    from safetensors.torch import load_file

    own = {k: v.numpy() for k, v in model.state_dict().items()}
    merged = dist.load_merged_state_dict(path, prefix="model")
    assert sorted(merged) == sorted(own), (sorted(merged), sorted(own))
    for k, v in merged.items():
        assert not v.is_dist() and np.array_equal(v.numpy(), own[k]), k
    out = os.path.join(path, "safetensors")
    from paddle.distributed.flex_checkpoint.dcp.load_state_dict import merge_sharded_state_dict

    # (the optimizer's states left out by their suffixes, as Paddle asks: every key kept must be under `prefix`)
    merge_sharded_state_dict(path, out, prefix="model",
                             skip_postfix_list=["moment1_0", "moment2_0", "beta1_pow_acc_0", "beta2_pow_acc_0"])
    with open(os.path.join(out, "model.safetensors.index.json")) as f:
        index = json.load(f)
    files = sorted(set(index["weight_map"].values()))
    assert files == ["model-00001-of-00001.safetensors"], files
    tensors = load_file(os.path.join(out, files[0]))  # plain torch tensors
    assert sorted(tensors) == sorted(paddle.load(WEIGHTS)), sorted(tensors)
    assert sorted(index["weight_map"]) == sorted(f"model.{k}" for k in tensors)  # (Paddle's index: saved keys)
    for k, v in tensors.items():
        assert np.array_equal(v.numpy(), own[k]), k
    assert index["metadata"]["total_size"] == sum(v.numel() * v.element_size() for v in tensors.values())
    print(f"OK safetensors {len(tensors)} tensors", flush=True)


def run(name):
    global T0
    T0 = time.time()
    run_case(name)


def run_case(name):
    f = dict(np.load(os.path.join(DATA, "losses.npz")))
    want = f["dynamic"]
    if name in CHECKPOINTS:
        losses, steps = checkpoint(name)
        want, pp = want[steps], CHECKPOINTS[name][0][0]
    else:
        c = CASES[name]
        (pp, dp, mp), groups = c["layout"], dict(c["groups"])
        if "recompute_cfg" in groups:  # (Strategy.recompute: "recompute" is the case's own argument)
            groups["recompute"] = groups.pop("recompute_cfg")
        want = f[c["want"]]
        model, criterion = C.build(paddle, pp=pp, dp=dp, mp=mp, weights=WEIGHTS, recompute=c["recompute"])
        opt = C.optimizer(paddle, model, c["stage"])
        losses = C.train(paddle, model, criterion, opt, C.loader(paddle, pp), mode=c["mode"],
                         strategy=strategy(**groups) if groups else None)
    held = [v is not None for v in losses]
    last_stage = dist.get_rank() in C.stage_mesh(paddle, -1).process_ids
    assert all(held) == last_stage and any(held) == last_stage, (name, losses)
    err = float(np.abs(np.array(losses) - want).max()) if last_stage else None
    assert err is None or err <= TOL, (name, losses, want.tolist())
    shown = [float(v) for v in losses] if last_stage else []
    print(f"OK {name} {'-' if err is None else f'{err:.2e}'} losses={json.dumps(shown)} {time.time() - T0:.1f}s",
          flush=True)


if __name__ == "__main__":
    import faulthandler
    import signal

    faulthandler.register(signal.SIGUSR1, all_threads=True)  # a hung job's stacks: kill -USR1 <rank pid>
    T0 = time.time()
    if "WORLD_SIZE" in os.environ:
        dist.init_parallel_env()
    print(f"ready {time.time() - T0:.1f}s", flush=True)
    for case in sys.argv[1:]:
        with paddle.utils.unique_name.guard():  # names (parameters', optimizer states') as in a fresh process
            run(case)
    if "WORLD_SIZE" in os.environ:
        dist.barrier()
