"""Record PaddleNLP 3.0.0b4's auto-parallel LLaMA under real Paddle, one process (run with the oracle interpreter).

    /work/oracle/bin/python tools/record_llama_auto.py

Builds the tiny LlamaForCausalLM3DAuto of tests/llama_auto_cases.py on a 1-rank mesh (pp = dp = mp = 1) with
paddle.seed(SEED), writes its state dict with real paddle.save to tests/data/llama_auto/llama_auto.pdparams, and
stores in tests/data/llama_auto/losses.npz the losses of STEPS AdamW steps, once in the dynamic loop and once
through dist.to_static (each from the saved weights).  tests/dist_scripts/llama_auto.py holds every parallel
layout the shim runs to these numbers.
"""
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_llama_auto must run under real Paddle"

import paddlenlp.data  # noqa: E402,F401  (before paddlenlp.transformers: an import cycle)
import paddlenlp.transformers  # noqa: E402,F401

from tests import llama_auto_cases as C  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "llama_auto")


def _numpy2_fix():
    """Paddle 3.3.1's ProcessMesh.get_rank_by_dim_and_process_id calls int() on a 1-element array, which NumPy 2
    refuses (shard_dataloader calls it): the same lookup, reading the element."""
    from paddle.distributed.auto_parallel.process_mesh import ProcessMesh

    def get_rank_by_dim_and_process_id(self, dim, process_id):
        if process_id not in self._process_ids:
            return -1
        if dim is None:
            return 0
        axis = self._dim_names.index(dim) if isinstance(dim, str) else dim
        return int(np.where(self._mesh == process_id)[axis][0])

    ProcessMesh.get_rank_by_dim_and_process_id = get_rank_by_dim_and_process_id


# name, mode, recompute granularity, dist.Strategy config
RUNS = [
    ("dynamic", "dynamic", None, None),
    ("static", "static", None, None),
    ("dynamic_recompute_full", "dynamic", "full", None),
    ("dynamic_recompute_full_attn", "dynamic", "full_attn", None),
    ("dynamic_recompute_core_attn", "dynamic", "core_attn", None),
    ("static_recompute_full", "static", "full", {"recompute": {"enable": True}}),
    ("static_gradient_merge2", "static", None, {"gradient_merge": {"enable": True, "k_steps": 2, "avg": True}}),
    ("static_gradient_merge2_sum", "static", None, {"gradient_merge": {"enable": True, "k_steps": 2,
                                                                       "avg": False}}),
]


def main():
    _numpy2_fix()
    os.makedirs(OUT, exist_ok=True)
    weights = os.path.join(OUT, C.WEIGHTS + ".pdparams")
    model, _ = C.build(paddle)
    # (paddle.save refuses distributed tensors: the one-rank mesh's pieces are the whole values)
    paddle.save({k: paddle.distributed.unshard_dtensor(v) for k, v in model.state_dict().items()}, weights)
    result = {}
    for name, mode, recompute, strategy in RUNS:
        model, criterion = C.build(paddle, weights=weights, recompute=recompute)
        losses = C.train(paddle, model, criterion, C.optimizer(paddle, model), C.loader(paddle), mode=mode,
                         strategy=None if strategy is None else paddle.distributed.Strategy(strategy))
        result[name] = np.array(losses, dtype=np.float64)
        print(f"{name:24s} {np.round(losses, 7).tolist()}")
    np.savez_compressed(os.path.join(OUT, "losses.npz"), **result)
    print(f"weights {os.path.getsize(weights) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
