"""Record PaddleNLP 3.0.0b4's plain LLaMA (LlamaForCausalLMNet) under real Paddle, one process, no parallelisation
(run with the oracle interpreter).

    /work/oracle/bin/python tools/record_llama_parallelize.py

Builds the tiny model of tests/llama_parallelize_cases.py with paddle.seed(SEED), writes its state dict with real
paddle.save to tests/data/llama_parallelize/llama_net.pdparams, and stores in tests/data/llama_parallelize/losses.npz
the losses of STEPS AdamW steps from those weights on the whole batch.  tests/dist_scripts/llama_parallelize.py runs
the same model through dist.parallelize on several layouts to these numbers.  Also the losses of PaddleNLP's
AutoTrainer (--use_intermediate_api, llama_parallelize_cases.auto_trainer_losses) from the same weights.
"""
import os
import sys
import tempfile
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_llama_parallelize must run under real Paddle"

import paddlenlp.data  # noqa: E402,F401  (before paddlenlp.transformers: an import cycle)
import paddlenlp.transformers  # noqa: E402,F401

from tests import llama_parallelize_cases as C  # noqa: E402
from tools.record_llama_auto import _numpy2_fix  # noqa: E402  (AutoTrainingArguments.data_parallel_rank too)

OUT = os.path.join(ROOT, "tests", "data", "llama_parallelize")


def main():
    os.makedirs(OUT, exist_ok=True)
    weights = os.path.join(OUT, C.WEIGHTS + ".pdparams")
    model, _ = C.build(paddle)
    C.initialize(paddle, model)
    paddle.save(model.state_dict(), weights)
    model, criterion = C.build(paddle)
    C.initialize(paddle, model, weights)
    losses = C.train(paddle, model, criterion, C.optimizer(paddle, model), C.plain_loader(paddle))
    print("dynamic", np.round(losses, 7).tolist())
    _numpy2_fix()
    with tempfile.TemporaryDirectory() as tmp:
        trainer = C.auto_trainer_losses(paddle, weights, tmp, intermediate=False)
    print("auto_trainer", np.round(trainer, 7).tolist())
    np.savez_compressed(os.path.join(OUT, "losses.npz"), dynamic=np.array(losses, dtype=np.float64),
                        auto_trainer=np.array(trainer, dtype=np.float64))
    print(f"weights {os.path.getsize(weights) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
