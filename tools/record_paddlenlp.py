"""Record PaddleNLP 3.0.0b4 models under real Paddle (run with the oracle interpreter, PaddleNLP installed).

    ~/oracle/bin/python tools/record_paddlenlp.py              # every case in tests/paddlenlp_cases.py
    ~/oracle/bin/python tools/record_paddlenlp.py llama gpt    # just these
    ~/oracle/bin/python tools/record_paddlenlp.py --trainer    # the Trainer run only

For each case: build the tiny model with paddle.seed(SEED), save its state dict with real paddle.save to
tests/data/paddlenlp/<weights>.pdparams (cases that differ only in a switch share one file), and store in
tests/data/paddlenlp/<case>.npz the eval-mode logits for the case's fixed inputs and the losses of STEPS
AdamW steps on the same batch.  Where real Paddle fails on the CPU, the error (type and message) is stored,
and, when the case names a REFERENCE case with the same weights, that case's results stand as the
reference the shim is held to (a fused path must compute what the plain one does).

The Trainer run (`trainer.npz`): PaddleNLP's Trainer with TrainingArguments on the LLaMA case's weights,
a tiny in-memory dataset (one batch = the whole set, so the sampler's order cannot change a loss), and the
losses it logs at every step.
"""
import os
import sys
import tempfile
import traceback
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_paddlenlp must run under real Paddle"

from tests import paddlenlp_cases as C  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "paddlenlp")


def record(name, cases=None, transformers=None, out=OUT):
    """Record one case (of tests/paddlenlp_cases.py, or of `cases` built from `transformers`: the PaddleFormers
    recorder passes its own) into `out`."""
    if transformers is None:
        import paddlenlp.data  # noqa: F401  (before paddlenlp.transformers: an import cycle)
        import paddlenlp.transformers as transformers
    case = (cases or C.CASES)[name]
    weights = os.path.join(out, case.weights + ".pdparams")
    result = {}
    try:
        paddle.seed(C.SEED)
        model = C.build(transformers, case)
        if case.weights == name:  # the case that owns the file writes it
            paddle.save(model.state_dict(), weights)
        else:
            model.set_state_dict(paddle.load(weights))
        logits, losses = C.run(paddle, model, case)
        result["logits"] = logits
        result["losses"] = np.array(losses, dtype=np.float64)
        status = f"logits {list(logits.shape)} losses {np.round(losses, 5).tolist()}"
    except Exception as e:  # real Paddle fails on the CPU: store what it raised
        result["error_type"] = np.array(type(e).__name__)
        result["error"] = np.array(str(e)[:500])
        status = f"FAILS: {type(e).__name__}: {str(e)[:200]}"
        if os.environ.get("RECORD_TRACEBACK"):
            traceback.print_exc()
    np.savez_compressed(os.path.join(out, name + ".npz"), **result)
    size = os.path.getsize(weights) if os.path.exists(weights) else 0
    print(f"{name:22s} {size / 1024:6.1f} KiB  {status}")


def record_trainer():
    import paddlenlp.data  # noqa: F401
    import paddlenlp.trainer
    import paddlenlp.transformers

    case = C.CASES[C.TRAINER_CASE]
    paddle.seed(C.SEED)
    model = C.build(paddlenlp.transformers, case)
    model.set_state_dict(paddle.load(os.path.join(OUT, case.weights + ".pdparams")))
    with tempfile.TemporaryDirectory() as tmp:
        losses = C.train_with_trainer(paddlenlp.trainer, model, tmp)
    np.savez_compressed(os.path.join(OUT, "trainer.npz"), losses=np.array(losses, dtype=np.float64))
    print(f"{'trainer':22s} losses {np.round(losses, 5).tolist()}")


def record_all(names, cases=None, transformers=None, out=OUT):
    cases = cases or C.CASES
    os.makedirs(out, exist_ok=True)
    paddle.set_device("cpu")
    # owners of weight files first, so that cases sharing them can load them
    for name in sorted(names, key=lambda n: cases[n].weights != n):
        record(name, cases, transformers, out)


def main(argv):
    if argv == ["--trainer"]:
        os.makedirs(OUT, exist_ok=True)
        paddle.set_device("cpu")
        return record_trainer()
    record_all(argv or list(C.CASES))
    if not argv:
        record_trainer()


if __name__ == "__main__":
    main(sys.argv[1:])
