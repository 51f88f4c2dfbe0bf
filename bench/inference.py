"""Inference of real Paddle inference models: torch eager vs torch.compile vs real Paddle's predictor.

    python bench/inference.py                       # the default models, batch 1 and 16, one thread
    python bench/inference.py --models resnet,gpt --batches 1,16 --threads 2
    python bench/inference.py --variants eager,fold_eager,compile,freeze,fold_freeze   # each idea apart
    python bench/inference.py --quick               # one small model, batch 1: checks the script works

The models are the real-Paddle programs recorded in tests/data/inference_models (PIR `model.json` +
`model.pdiparams`, saved by Paddle 3.3.1's jit.save; tools/record_inference_models.py).  Variants:
  eager        the program lowered op by op to a torch.fx GraphModule (static.model_format), run eagerly;
  fold_eager   the same after optimize.fold_conv_affine (BatchNorm and per-channel bias / scale folded
               into the convolutions before them);
  compile      torch.compile of the GraphModule (inductor, static shapes), nothing else;
  freeze       torch.compile with inductor freezing (weights are constants: oneDNN weight pre-packing,
               conv + pointwise fusion);
  fold_freeze  fold_conv_affine, then optimize.compile_inference with layout "auto" (freezing, a C++
               wrapper, unpadded 1x1 convolutions as linears; convolutions NCHW on aten's kernels at
               batch 1, else channels-last with oneDNN pre-packed weights): what the predictor runs
               with switch_ir_optim(True);
  fold_freeze_cl, fold_freeze_nchw   the same with one of the two layouts at every batch size;
  fold_freeze_cl_aten   channels-last on aten's kernels, weights not pre-packed;
Compiled variants in one worker can disturb each other (inductor caches): measure ideas one compiled
variant per run where the figures matter.
  paddle       real Paddle's inference predictor (paddle.inference, CPU, IR optimisation and oneDNN on:
               its defaults; if oneDNN cannot run a model, again with oneDNN off, marked "*").
Each side lives in a worker process of its own (real Paddle and paddle_on_torch cannot share one), both
started first and loaded, with the same thread count (torch.set_num_threads and OMP_NUM_THREADS;
Paddle's Config.set_cpu_math_library_num_threads); the script prints what each worker reports.  Then
rounds alternate: every round times each variant in turn for about --target-s, so load from other
processes on a shared machine hits all of them alike; the figures are medians over the rounds of
per-call process CPU time (wall time with --wall), and the ratio column is the median of the per-round
ratios compile / paddle.  Compile time is reported apart.  Target (issue 9): the compiled path faster
than Paddle's predictor (ratio < 1) for every model at batch 1 and 16.
"""
import argparse
import copy
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "inference_models")
DEFAULT_MODELS = ["resnet", "mobilenetv3", "densenet", "unet", "vgg", "vit", "bert", "gpt", "lstm_tagger",
                  "encoder"]
TORCH_VARIANTS = ("eager", "fold_eager", "compile", "freeze", "fold_freeze", "fold_freeze_cl", "fold_freeze_nchw",
                  "fold_freeze_cl_aten")


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


def _pir_feeds(json_path):
    with open(json_path) as f:
        prog = json.load(f)
    out = []
    for op in prog["program"]["regions"][0]["blocks"][0]["ops"]:
        if op.get("#") == "1.data":
            attrs = {a["N"]: a["AT"].get("D") for a in op["A"]}
            out.append((attrs["name"], attrs["shape"], attrs["dtype"]))
    return out


# ----------------------------------------------------------------------------- workers
class _TorchSide:
    def __init__(self, threads):
        import torch

        torch.set_num_threads(threads)
        sys.path.insert(0, ROOT)
        self.torch = torch
        self.info = {"side": "torch", "torch": torch.__version__, "threads": torch.get_num_threads()}

    def prepare(self, model, batch, variants):
        from paddle_on_torch.static import model_format
        from paddle_on_torch.static.model_format.optimize import compile_inference, fold_conv_affine

        torch = self.torch
        m = model_format.load(os.path.join(DATA, model, "pir", "model"))
        args = [torch.from_numpy(a) for a in _feeds([(s.name, s.shape, s.dtype) for s in m.feed_specs], batch)]
        gm = m.graph_module
        folded, counts = fold_conv_affine(gm)
        fns, compile_s, choice = {}, {}, {}
        for v in variants:
            g = folded if v.startswith("fold") else gm
            if v.endswith("eager"):
                fns[v] = g
                continue
            # each compiled variant gets a GraphModule of its own: dynamo caches compiled code per code
            # object, so two variants of one module would share the first one's code
            g = torch.fx.GraphModule(g, copy.deepcopy(g.graph))
            # no torch._dynamo.reset() between variants: it would drop the earlier ones' compiled code,
            # and they would recompile on their next call without their settings (freezing)
            layout = {"fold_freeze_cl": "channels_last", "fold_freeze_nchw": "nchw",
                      "fold_freeze_cl_aten": "channels_last_aten"}.get(v, "auto")
            fn = compile_inference(g, dynamic=False, layout=layout) if "freeze" in v else \
                torch.compile(g, dynamic=False)
            t = time.perf_counter()
            with torch.no_grad():
                fn(*args)
            compile_s[v] = time.perf_counter() - t
            fns[v] = fn
            if getattr(fn, "choice", None):
                choice[v] = next(iter(fn.choice.values()))
        with torch.no_grad():
            ref = gm(*args)
            for v, fn in fns.items():  # every variant computes what the program does
                for o, r in zip(fn(*args), ref):
                    torch.testing.assert_close(o, r, rtol=1e-4, atol=1e-4, msg=lambda s: f"{model} {v}: {s}")

        def runner(fn):
            def run():
                with torch.no_grad():
                    fn(*args)
            return run
        return {v: runner(fn) for v, fn in fns.items()}, {"compile_s": compile_s, "folded": counts, "layout": choice}


class _PaddleSide:
    def __init__(self, threads):
        import paddle

        if "paddle_on_torch" in paddle.__file__:
            raise ImportError("real Paddle is not installed")
        self.threads = threads
        self.info = {"side": "paddle", "paddle": paddle.__version__}

    def prepare(self, model, batch, variants):
        from paddle import inference

        prefix = os.path.join(DATA, model, "pir", "model")
        err = None
        for onednn in (True, False):
            try:
                config = inference.Config(prefix + ".json", prefix + ".pdiparams")
                config.disable_gpu()
                config.set_cpu_math_library_num_threads(self.threads)
                config.disable_glog_info()
                if not onednn:
                    config.disable_onednn()
                predictor = inference.create_predictor(config)
                feeds = {f[0]: f for f in _pir_feeds(prefix + ".json")}
                names = predictor.get_input_names()
                arrays = _feeds([feeds[n] for n in names], batch)
                for n, a in zip(names, arrays):
                    h = predictor.get_input_handle(n)
                    h.reshape(a.shape)
                    h.copy_from_cpu(a)

                def run():
                    predictor.run()
                    for n in predictor.get_output_names():
                        predictor.get_output_handle(n).copy_to_cpu()
                run()
                self.info["threads"] = config.cpu_math_library_num_threads()
                return {"paddle": run}, {"onednn": onednn}
            except Exception as e:  # noqa: BLE001 - oneDNN cannot run some PIR attributes: retry without
                err = e
        raise RuntimeError(f"{model} batch {batch}: {err}")


def _worker(impl, threads):
    # replies go to the original stdout; anything the libraries print (C or Python) goes to stderr
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    side = (_TorchSide if impl == "torch" else _PaddleSide)(threads)
    runs = {}
    print(json.dumps(side.info), file=out, flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        try:
            if cmd["cmd"] == "prepare":
                fns, extra = side.prepare(cmd["model"], cmd["batch"], cmd["variants"])
                runs = fns
                for fn in fns.values():  # warm up
                    for _ in range(3):
                        fn()
                reply = dict(extra, variants=list(fns), threads=side.info.get("threads"))
            else:  # time: n calls of one variant
                fn, n = runs[cmd["variant"]], cmd["n"]
                c, t = time.process_time(), time.perf_counter()
                for _ in range(n):
                    fn()
                reply = {"wall_ms": (time.perf_counter() - t) / n * 1e3, "cpu_ms": (time.process_time() - c) / n * 1e3}
        except Exception as e:  # noqa: BLE001 - reported, the other models go on
            reply = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), file=out, flush=True)


class _Worker:
    def __init__(self, impl, threads):
        env = dict(os.environ, OMP_NUM_THREADS=str(threads), GLOG_minloglevel="3", PYTHONWARNINGS="ignore")
        self.p = subprocess.Popen([sys.executable, __file__, "--worker", impl, "--threads", str(threads)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.info = self._read()

    def _read(self):
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"worker exited ({self.p.wait()})")
        return json.loads(line)

    def ask(self, **cmd):
        self.p.stdin.write(json.dumps(cmd) + "\n")
        self.p.stdin.flush()
        return self._read()

    def close(self):
        self.p.stdin.close()
        self.p.wait()


# ----------------------------------------------------------------------------- the run
def measure(models, batches, variants, threads, rounds, target_s, wall):
    torch_variants = [v for v in variants if v != "paddle"]
    workers = {"torch": _Worker("torch", threads)}
    if "paddle" in variants:
        try:
            workers["paddle"] = _Worker("paddle", threads)
        except (RuntimeError, json.JSONDecodeError) as e:
            print(f"real Paddle: not measured ({e})", file=sys.stderr)
    results = {}
    key_ms = "wall_ms" if wall else "cpu_ms"
    for model in models:
        for batch in batches:
            r = results[f"{model}/{batch}"] = {}
            owner = {}
            for side, w in workers.items():
                rep = w.ask(cmd="prepare", model=model, batch=batch,
                            variants=torch_variants if side == "torch" else ["paddle"])
                if "error" in rep:
                    print(f"  {side} {model} batch {batch}: {rep['error']}", file=sys.stderr)
                    continue
                r.update({k: v for k, v in rep.items() if k != "variants"}, **{f"threads_{side}": rep["threads"]})
                owner.update({v: w for v in rep["variants"]})
            n = {}
            for v, w in owner.items():  # calls per timed batch: about target_s each
                once = w.ask(cmd="time", variant=v, n=1)["wall_ms"] / 1e3
                n[v] = max(1, int(target_s / max(once, 1e-6)))
            times = {v: [] for v in owner}
            for i in range(rounds):  # rotated each round: every variant follows every other one alike
                order = list(owner)[i % len(owner):] + list(owner)[:i % len(owner)]
                for v in order:
                    times[v].append(owner[v].ask(cmd="time", variant=v, n=n[v])[key_ms])
            for v, ts in times.items():
                r[f"{v}_ms"] = statistics.median(ts)
            r["rounds_ms"] = times
            if "paddle" in times:
                for v in torch_variants:
                    if v in times:
                        r[f"{v}/paddle"] = statistics.median(a / b for a, b in zip(times[v], times["paddle"]))
            print(f"  {model} batch {batch}: " + ", ".join(f"{v} {r[v + '_ms']:.3f} ms" for v in times),
                  file=sys.stderr, flush=True)
    info = {side: w.info for side, w in workers.items()}
    for w in workers.values():
        w.close()
    return info, results


def report(models, batches, variants, threads, info, results, wall):
    tv = [v for v in variants if v != "paddle"]
    th = {side: sorted({results[k].get(f"threads_{side}") for k in results} - {None}) for side in ("torch", "paddle")}
    print(f"threads: torch {th['torch']} (torch.get_num_threads), Paddle {th['paddle'] or 'n/a'} "
          f"(Config.cpu_math_library_num_threads); asked for {threads}")
    print(f"{'wall' if wall else 'process CPU'} ms per run, median over interleaved rounds; "
          "x/pd = median of per-round ratios (< 1: torch faster)")
    wd = {v: max(12, len(v) + 2) for v in tv}
    wr = {v: max(10, len(v) + 5) for v in tv}
    head = f"{'model':<13}{'batch':>6}" + "".join(f"{v:>{wd[v]}}" for v in tv) + f"{'paddle':>10}" + \
        "".join(f"{v + '/pd':>{wr[v]}}" for v in tv if v != "eager" or len(tv) == 1)
    print(head)
    for model in models:
        for batch in batches:
            r = results.get(f"{model}/{batch}", {})

            def f(v, w, fmt="{:.3f}"):
                return f"{fmt.format(v) if v is not None else 'n/a':>{w}}"
            star = "*" if r.get("onednn") is False else " "
            line = f"{model:<13}{batch:>6}" + "".join(f(r.get(f"{v}_ms"), wd[v]) for v in tv)
            line += f(r.get("paddle_ms"), 9) + star
            line += "".join(f(r.get(f"{v}/paddle"), wr[v], "{:.2f}") for v in tv if v != "eager" or len(tv) == 1)
            print(line)
    if any(r.get("onednn") is False for r in results.values()):
        print("* Paddle ran with oneDNN off (its oneDNN path fails on this model).")
    comp = {k: v.get("compile_s") for k, v in results.items() if v.get("compile_s")}
    if comp:
        print("compile s: " + "; ".join(f"{k} " + ", ".join(f"{v} {s:.0f}" for v, s in c.items())
                                        for k, c in comp.items()))
    lay = {k: v["layout"]["fold_freeze"] for k, v in results.items() if v.get("layout", {}).get("fold_freeze")}
    if lay:
        print("fold_freeze layout picked: " + ", ".join(f"{k} {v}" for k, v in lay.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=",".join(DEFAULT_MODELS))
    ap.add_argument("--batches", default="1,16")
    ap.add_argument("--variants", default="eager,fold_eager,fold_freeze,paddle",
                    help="of " + ", ".join(TORCH_VARIANTS + ("paddle",)))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--target-s", type=float, default=0.1, help="seconds per timed batch of calls")
    ap.add_argument("--wall", action="store_true", help="wall time instead of process CPU time")
    ap.add_argument("--quick", action="store_true", help="lstm_tagger at batch 1, eager and paddle, short")
    ap.add_argument("--json", help="also write the figures here")
    ap.add_argument("--worker", choices=["torch", "paddle"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return _worker(args.worker, args.threads)
    if args.quick:
        args.models, args.batches, args.variants, args.rounds, args.target_s = \
            "lstm_tagger", "1", "eager,paddle", 3, 0.02
    models = [m for m in args.models.split(",") if m]
    batches = [int(b) for b in args.batches.split(",")]
    variants = [v for v in args.variants.split(",") if v]
    bad = [v for v in variants if v not in TORCH_VARIANTS + ("paddle",)]
    if bad:
        ap.error(f"unknown variants {bad}")
    info, results = measure(models, batches, variants, args.threads, args.rounds, args.target_s, args.wall)
    report(models, batches, variants, args.threads, info, results, args.wall)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"threads": args.threads, "info": info, "results": results}, fh, indent=1)


if __name__ == "__main__":
    main()
