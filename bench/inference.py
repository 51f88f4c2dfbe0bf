"""Inference of real Paddle inference models: torch eager vs torch.compile vs real Paddle's predictor.

    python bench/inference.py                       # the default models, batch 1 and 16, one thread
    python bench/inference.py --models resnet,gpt --batches 1,16 --threads 2
    python bench/inference.py --quick               # one small model, batch 1: checks the script works

The models are the real-Paddle programs recorded in tests/data/inference_models (PIR `model.json` +
`model.pdiparams`, saved by Paddle 3.3.1's jit.save; tools/record_inference_models.py).  One run
measures, per model and batch size:
  eager    the program lowered op by op to a torch.fx GraphModule (static.model_format), run eagerly;
  compile  that GraphModule under torch.compile (inductor with freezing: weights as constants, so
           BatchNorm folds into convolutions; static shapes; compile time reported apart);
  paddle   real Paddle's inference predictor (paddle.inference, default CPU config with IR
           optimisation; if oneDNN cannot run a model, again with oneDNN off, marked "*").
Latency is the best wall time per run over several batches of runs (bench/timing.py), throughput
is batch / latency.  Each side runs in its own process with the same thread count; real Paddle is
skipped (n/a) when it is not installed.  Run on an idle machine: on shared cores small
convolutions slow down by large factors (docs: FIELD-NOTES).  Target (issue 9): compile faster
than Paddle's predictor.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "inference_models")
DEFAULT_MODELS = ["resnet", "mobilenetv3", "densenet", "unet", "vit", "bert", "gpt", "lstm_tagger", "encoder"]


def _feeds(specs, batch, seed=0):
    """Inputs for feed specs [(name, shape, dtype)]: -1 dims become `batch`; ints are 0/1 (valid ids)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    for _, shape, dtype in specs:
        shape = [batch if d == -1 else d for d in shape]
        if dtype.startswith(("float", "bfloat")):
            out.append(rng.standard_normal(shape).astype(dtype))
        elif dtype == "bool":
            out.append(rng.integers(0, 2, shape).astype(bool))
        else:
            out.append(rng.integers(0, 2, shape).astype(dtype))
    return out


def measure_torch(models, batches, repeats, target_s, compile_too=True):
    import time

    import torch

    sys.path.insert(0, ROOT)
    from bench.timing import best_per_call
    from paddle_on_torch.static import model_format

    results = {}
    for name in models:
        m = model_format.load(os.path.join(DATA, name, "pir", "model"))
        specs = [(s.name, s.shape, s.dtype) for s in m.feed_specs]
        gm = m.graph_module
        for batch in batches:
            args = [torch.from_numpy(a) for a in _feeds(specs, batch)]
            with torch.no_grad():
                eager = best_per_call(lambda: gm(*args), repeats, target_s)[1]
                if not compile_too:
                    results[f"{name}/{batch}"] = {"eager_ms": eager}
                    print(f"  torch {name} batch {batch}: eager {eager:.3f} ms", file=sys.stderr, flush=True)
                    continue
                torch._dynamo.reset()
                # freezing: the weights become constants, so inductor folds BatchNorm into the convolutions
                # and pre-packs their weights (oneDNN), as Paddle's inference passes do
                compiled = torch.compile(gm, dynamic=False, options={"freezing": True})
                t = time.perf_counter()
                compiled(*args)
                compile_s = time.perf_counter() - t
                comp = best_per_call(lambda: compiled(*args), repeats, target_s)[1]
            results[f"{name}/{batch}"] = {"eager_ms": eager, "compile_ms": comp, "compile_s": compile_s}
            print(f"  torch {name} batch {batch}: eager {eager:.3f} ms, compile {comp:.3f} ms "
                  f"(compiled in {compile_s:.0f} s)", file=sys.stderr, flush=True)
    return results


def measure_paddle(models, batches, repeats, target_s, threads):
    import paddle

    if "paddle_on_torch" in paddle.__file__:
        raise ImportError("real Paddle is not installed")
    sys.path.insert(0, ROOT)
    from bench.timing import best_per_call
    from paddle import inference

    results = {}
    for name in models:
        prefix = os.path.join(DATA, name, "pir", "model")
        for batch in batches:
            for onednn in (True, False):
                try:
                    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
                    config.disable_gpu()
                    config.set_cpu_math_library_num_threads(threads)
                    config.disable_glog_info()
                    if not onednn:
                        config.disable_onednn()
                    predictor = inference.create_predictor(config)
                    names = predictor.get_input_names()
                    specs = []
                    for n in names:  # the feed specs, from the program file itself
                        specs.append(_pir_feed(prefix + ".json", n))
                    handles = [predictor.get_input_handle(n) for n in names]
                    arrays = _feeds(specs, batch)
                    for h, a in zip(handles, arrays):
                        h.reshape(a.shape)
                        h.copy_from_cpu(a)

                    def run():
                        predictor.run()
                        for n in predictor.get_output_names():
                            predictor.get_output_handle(n).copy_to_cpu()
                    ms = best_per_call(run, repeats, target_s)[1]
                    results[f"{name}/{batch}"] = {"paddle_ms": ms, "onednn": onednn}
                    print(f"  paddle {name} batch {batch}: {ms:.3f} ms{'' if onednn else ' (oneDNN off)'}",
                          file=sys.stderr, flush=True)
                    break
                except Exception as e:  # noqa: BLE001 - oneDNN cannot run some PIR attributes: retry without
                    if not onednn:
                        print(f"  paddle {name} batch {batch}: failed: {e}", file=sys.stderr)
    return results


def _pir_feed(json_path, name):
    with open(json_path) as f:
        prog = json.load(f)
    for op in prog["program"]["regions"][0]["blocks"][0]["ops"]:
        if op.get("#") == "1.data":
            attrs = {a["N"]: a["AT"].get("D") for a in op["A"]}
            if attrs["name"] == name:
                return name, attrs["shape"], attrs["dtype"]
    raise KeyError(name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=",".join(DEFAULT_MODELS))
    ap.add_argument("--batches", default="1,16")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--target-s", type=float, default=0.2, help="seconds per timed batch of runs")
    ap.add_argument("--quick", action="store_true", help="lstm_tagger at batch 1, short timings")
    ap.add_argument("--no-compile", action="store_true", help="skip torch.compile (minutes per model on a CPU)")
    ap.add_argument("--json", help="also write the figures here")
    ap.add_argument("--impl", choices=["torch", "paddle"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.quick:
        args.models, args.batches, args.repeats, args.target_s = "lstm_tagger", "1", 2, 0.05
    models = [m for m in args.models.split(",") if m]
    batches = [int(b) for b in args.batches.split(",")]
    if args.impl:
        import torch

        torch.set_num_threads(args.threads)
        fn = measure_torch if args.impl == "torch" else measure_paddle
        extra = (args.threads,) if args.impl == "paddle" else (not args.no_compile,)
        print(json.dumps(fn(models, batches, args.repeats, args.target_s, *extra)))
        return
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), GLOG_minloglevel="3", PYTHONWARNINGS="ignore")
    results = {}
    for impl in ("torch", "paddle"):
        cmd = [sys.executable, __file__, "--impl", impl, "--models", ",".join(models), "--batches", args.batches,
               "--threads", str(args.threads), "--repeats", str(args.repeats), "--target-s", str(args.target_s)]
        cmd += ["--no-compile"] if args.no_compile else []
        p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, env=env)
        if p.returncode == 0 and p.stdout.strip():
            for k, v in json.loads(p.stdout.strip().splitlines()[-1]).items():
                results.setdefault(k, {}).update(v)
        else:
            print(f"{impl}: not measured (exit {p.returncode})", file=sys.stderr)
    head = (f"{'model':<14}{'batch':>6}{'eager ms':>10}{'compile ms':>11}{'paddle ms':>10}"
            f"{'eager/pd':>9}{'comp/pd':>9}{'compile/s':>10}{'paddle/s':>10}")
    print(f"threads: {args.threads}; latency = best wall ms per run; throughput = samples/s")
    print(head)
    for name in models:
        for batch in batches:
            r = results.get(f"{name}/{batch}", {})
            e, c, pd = r.get("eager_ms"), r.get("compile_ms"), r.get("paddle_ms")

            def f(v, w, fmt="{:.3f}"):
                return f"{fmt.format(v) if v is not None else 'n/a':>{w}}"
            star = "*" if r.get("onednn") is False else ""
            print(f"{name:<14}{batch:>6}{f(e, 10)}{f(c, 11)}{f(pd, 9)}{star or ' '}"
                  f"{f(e / pd if e and pd else None, 9, '{:.2f}')}{f(c / pd if c and pd else None, 9, '{:.2f}')}"
                  f"{f(batch / c * 1e3 if c else None, 10, '{:.0f}')}{f(batch / pd * 1e3 if pd else None, 10, '{:.0f}')}")
    print("ratios < 1: torch is faster than Paddle's predictor.  * Paddle ran with oneDNN off.")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"threads": args.threads, "results": results}, fh, indent=1)


if __name__ == "__main__":
    main()
