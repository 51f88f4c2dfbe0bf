"""Paddle's libraries on the shim vs real Paddle: ms per forward and per training step, one thread.

    python bench/libraries.py                       # every workload, both sides, one run
    python bench/libraries.py llama llama_small     # just these
    python bench/libraries.py --rounds 5            # more turns per side (default 3)
    python bench/libraries.py --wall                # wall-clock time instead of process CPU time
    python bench/libraries.py --profile llama_small # where the shim's time goes (cProfile, train step)

Run it with an interpreter that has torch, real Paddle and the libraries (the oracle environment plus PaddleNLP,
tests/requirements-libs.txt).  Sides: `shim` (paddle_on_torch.install(), then the library code as written) and
`paddle` (real Paddle 3.3.1).  Each side runs in its own worker process at one thread (OMP_NUM_THREADS=1, which
is also Paddle's own default: `import paddle` sets it), the sides take turns `rounds` times, and each cell is the
best over all repeats.  Before timing, both sides must compute the same first loss (the weights are set from one
seeded NumPy draw on each side).  Target (issue 17): shim / Paddle at most 0.8 in geometric mean.

Workloads (WORKLOADS below): PaddleNLP 3.0.0b4's LlamaForCausalLM at the tests' tiny size (`llama`, the
recorded weights of tests/data/paddlenlp) and at a small size (`llama_small`: 4 layers, hidden 256, 8 heads,
vocab 2048, batch 2 x 128 tokens), plus the same with the switches fast configurations set (`llama_small_fused`:
fuse_attention_qkv / fuse_attention_ffn, use_flash_attention, use_fused_rope).  `forward`: eval mode, no_grad,
logits for the batch; `train`: forward with labels (PaddleNLP's criterion), backward, AdamW step, clear_grad.

Adding workloads (the hook other libraries use, e.g. PaddleScience): put `name: "module:function"` in
WORKLOADS, where module is importable from the repository root and `function(paddle)` returns a dict with
`"forward"` and/or `"train"` (zero-argument callables, each one step) and `"loss"` (a float both sides must
agree on to 1e-4, or None to skip the check).  The function is called once per side, after the side's
`import paddle`, with torch and Paddle at one thread.
"""
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
REPEATS = 10
TARGET_S = 0.05

WORKLOADS = {
    "llama": "bench.libraries:llama_tiny",
    "llama_small": "bench.libraries:llama_small",
    "llama_small_fused": "bench.libraries:llama_small_fused",
}
SIDES = ("shim", "paddle")


# ---------------------------------------------------------------- PaddleNLP LLaMA workloads
def _nlp():
    import paddlenlp.data  # noqa: F401  (before paddlenlp.transformers: an import cycle)
    import paddlenlp.transformers

    return paddlenlp.transformers


def _llama_steps(paddle, model, ids, labels):
    x, y = paddle.to_tensor(ids), paddle.to_tensor(labels)
    opt = paddle.optimizer.AdamW(learning_rate=1e-3, parameters=model.parameters(), weight_decay=0.01)

    def forward():
        model.eval()
        with paddle.no_grad():
            return model(input_ids=x)

    def train():
        model.train()
        out = model(input_ids=x, labels=y)
        loss = out[0] if isinstance(out, (tuple, list)) else out["loss"]
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    model.train()
    out = model(input_ids=x, labels=y)
    first = float(out[0] if isinstance(out, (tuple, list)) else out["loss"])
    return {"forward": forward, "train": train, "loss": first}


def llama_tiny(paddle):
    """The tests' tiny LLaMA with real Paddle's saved weights (tests/data/paddlenlp/llama.pdparams)."""
    from tests import paddlenlp_cases as C

    case = C.CASES["llama"]
    paddle.seed(C.SEED)
    model = C.build(_nlp(), case)
    model.set_state_dict(paddle.load(os.path.join(ROOT, "tests", "data", "paddlenlp", "llama.pdparams")))
    ids, labels = C.inputs(case)
    return _llama_steps(paddle, model, ids, labels)


def _llama_sized(paddle, **switches):
    import numpy as np

    T = _nlp()
    config = T.LlamaConfig(vocab_size=2048, hidden_size=256, intermediate_size=688, num_hidden_layers=4,
                           num_attention_heads=8, max_position_embeddings=256, seq_length=256, **switches)
    paddle.seed(0)
    model = T.LlamaForCausalLM(config)
    rng = np.random.RandomState(0)  # the same weights on both sides
    for name, p in sorted(model.named_parameters()):
        value = np.ones(p.shape) if "norm" in name else rng.normal(0, 0.02, p.shape)
        p.set_value(value.astype("float32"))
    ids = rng.randint(3, 2048, (2, 128)).astype("int64")
    labels = rng.randint(3, 2048, (2, 128)).astype("int64")
    return _llama_steps(paddle, model, ids, labels)


def llama_small(paddle):
    return _llama_sized(paddle)


def llama_small_fused(paddle):
    return _llama_sized(paddle, fuse_attention_qkv=True, fuse_attention_ffn=True, use_flash_attention=True,
                        use_fused_rope=True)


# ---------------------------------------------------------------- workers and the table
def _import_paddle(side):
    if side == "shim":
        import paddle_on_torch

        paddle_on_torch.install()
    import paddle

    if side == "paddle" and "paddle_on_torch" in paddle.__file__:
        raise ImportError("real Paddle is not installed")
    import torch

    torch.set_num_threads(1)
    paddle.set_device("cpu")
    return paddle


def _resolve(spec):
    import importlib

    module, _, fn = spec.partition(":")
    return getattr(importlib.import_module(module), fn)


def _time(fn, wall):
    for _ in range(3):
        fn()
    t = time.perf_counter()
    fn()
    n = max(1, int(TARGET_S / max(time.perf_counter() - t, 1e-6)))
    clock = time.perf_counter if wall else time.process_time
    best = float("inf")
    for _ in range(REPEATS):
        c = clock()
        for _ in range(n):
            fn()
        best = min(best, (clock() - c) / n)
    return best * 1e3


def worker(side, names, wall):
    """One side, every workload: {name: {"loss": float, "forward": ms, "train": ms}} as JSON on stdout."""
    import warnings

    warnings.filterwarnings("ignore")
    paddle = _import_paddle(side)
    out = {}
    for name in names:
        try:
            steps = _resolve(WORKLOADS[name])(paddle)
        except Exception as e:  # noqa: BLE001  (the table says which side could not run it)
            out[name] = {"error": f"{type(e).__name__}: {str(e)[:200]}"}
            continue
        row = {"loss": steps.get("loss")}
        for step in ("forward", "train"):
            if step in steps:
                row[step] = _time(steps[step], wall)
        out[name] = row
    print("RESULT " + json.dumps(out), flush=True)


def _run_side(side, names, wall):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", side, *names] + (["--wall"] if wall else [])
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_minloglevel="3", PYTHONPATH=ROOT)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise RuntimeError(f"{side} worker failed:\n{p.stderr[-3000:]}")


def profile(name):
    import cProfile
    import pstats

    paddle = _import_paddle("shim")
    steps = _resolve(WORKLOADS[name])(paddle)
    for _ in range(3):
        steps["train"]()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(10):
        steps["train"]()
    pr.disable()
    pstats.Stats(pr).sort_stats("tottime").print_stats(25)


def main(argv):
    wall = "--wall" in argv
    argv = [a for a in argv if a != "--wall"]
    if argv[:1] == ["--worker"]:
        return worker(argv[1], argv[2:], wall)
    if argv[:1] == ["--profile"]:
        return profile(argv[1])
    rounds = 3
    if argv[:1] == ["--rounds"]:
        rounds, argv = int(argv[1]), argv[2:]
    names = argv or list(WORKLOADS)
    best = {side: {} for side in SIDES}
    for _ in range(rounds):
        for side in SIDES:
            for name, row in _run_side(side, names, wall).items():
                cell = best[side].setdefault(name, row)
                for step in ("forward", "train"):
                    if step in row:
                        cell[step] = min(cell[step], row[step])
    ratios = []
    print(f"{'workload':20s} {'step':8s} {'shim ms':>9s} {'paddle ms':>10s} {'shim/paddle':>12s}")
    for name in names:
        s, p = best["shim"].get(name, {}), best["paddle"].get(name, {})
        if "error" in s or "error" in p:
            print(f"{name:20s} shim: {s.get('error', 'ok')}  paddle: {p.get('error', 'ok')}")
            continue
        if s.get("loss") is not None and p.get("loss") is not None:
            assert abs(s["loss"] - p["loss"]) <= 1e-4 * max(1.0, abs(p["loss"])), (name, s["loss"], p["loss"])
        for step in ("forward", "train"):
            if step in s and step in p:
                r = s[step] / p[step]
                ratios.append(r)
                print(f"{name:20s} {step:8s} {s[step]:9.3f} {p[step]:10.3f} {r:12.2f}")
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean shim/paddle: {geo:.2f} (target <= 0.8)")


if __name__ == "__main__":
    main(sys.argv[1:])
