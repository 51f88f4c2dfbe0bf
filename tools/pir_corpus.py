"""PIR coverage over a corpus: every model of tests/pir_corpus_models.py saved by paddle_on_torch, run by real Paddle.

    python tools/pir_corpus.py                         # every model (hours on a shared 2-core machine)
    python tools/pir_corpus.py paddleclas zoo_gpt      # groups and / or model names
    python tools/pir_corpus.py --lane ci               # the models tests/test_pir_corpus.py exports
    python tools/pir_corpus.py --table                 # print docs/jit.md's table from the golden file
    python tools/pir_corpus.py --verdicts              # predictor_verdict again from the recorded evidence
    PADDLE_ON_TORCH_PYTHON=/work/venv/bin/python PADDLE_PYTHON=/root/oracle/bin/python  (the defaults)
The driver imports the corpus, hence a `paddle`: run it with real Paddle's interpreter (/root/oracle/bin/python).

Per model, two child processes (a crash or a timeout is recorded, not fatal):
1. under paddle_on_torch (`--write NAME DIR`): build the model (tests/pir_corpus_models.build), `paddle.jit.to_static(
   model, input_spec=[InputSpec([None, ...])])`, `paddle.jit.save`; records whether torch.export traced it
   (exported), every aten op of the exported graph and those without a PIR mapping (missing), whether the .json
   written is a Paddle program (written), the error if any; stores the weights (weights.npz) and paddle_on_torch's
   eager outputs at batch 3;
2. under real Paddle 3.3.1 (`--check NAME DIR`): builds the same model, loads those weights, and at batch 1, 3 and 7
   compares Paddle's eager outputs with `paddle.jit.load` of the files and with `paddle.inference.create_predictor`
   (CPU, one thread, default passes), and where that is wrong, the predictor again without oneDNN and without
   Paddle's inplace pass (predictor_variants: what the failure needs);
3. where the predictor disagrees or dies (`--own NAME DIR`): Paddle's own jit.save of the same model run through
   jit.load and the predictor (paddle_own; with the batch fixed where Paddle's to_static cannot convert a dynamic
   one); `predictor_verdict` says, batch by batch, whether our predictor failure is the one Paddle's own program
   has (its jit.load right, its predictor failing the same way): only those are excused by the test
   (docs/compatibility.md lists them).
Results are merged into tests/golden/pir_corpus.json (relative max error per batch; matched: <= TOL at every
batch); tests/test_pir_corpus.py (no Paddle) checks that every op recorded there has a mapping and re-exports the
`ci` lane.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("OMP_NUM_THREADS", "1")

from tools.record_pir_roundtrip import _flat  # noqa: E402  (a model's outputs as a flat list)

GOLDEN = os.path.join(ROOT, "tests", "golden", "pir_corpus.json")
SHIM = os.environ.get("PADDLE_ON_TORCH_PYTHON", "/work/venv/bin/python")
PADDLE = os.environ.get("PADDLE_PYTHON", "/root/oracle/bin/python")
VENV_SITE = os.environ.get("PADDLE_ON_TORCH_SITE", "/work/venv/lib/python3.11/site-packages")
TOL = 1e-4  # relative to the largest eager output
C_BATCHES = (1, 3, 7)  # tests/pir_corpus_models.BATCHES (read without importing paddle)
WRITE_TIMEOUT, CHECK_TIMEOUT = 1500, 1500


def _rel(got, want):
    import numpy as np

    got, want = np.asarray(got, "float64"), np.asarray(want, "float64")
    if got.shape != want.shape:
        return f"shape {list(got.shape)} != {list(want.shape)}"
    if want.size == 0:
        return 0.0
    return float(np.max(np.abs(got - want)) / (np.max(np.abs(want)) + 1e-12))


def _worst(rels):
    nums = [r for r in rels if isinstance(r, float)]
    if len(nums) != len(rels):
        return next(r for r in rels if not isinstance(r, float))
    return max(nums) if nums else 0.0


# ----------------------------------------------------------------- step 1: paddle_on_torch writes
def write(name, d):
    import numpy as np
    import paddle
    from paddle.static import InputSpec

    assert "paddle_on_torch" in paddle.__file__, "--write runs under paddle_on_torch"
    from paddle_on_torch.jit import pir_writer as pw
    from tests import pir_corpus_models as C

    rec = {"exported": False, "written": False, "missing": None, "ops": None, "error": None}
    original = pw.program_for_inputs

    def spy(ep, *args, **kwargs):
        gm = getattr(pw, "functional", lambda e: e)(ep).graph_module  # in-place ops as the writer sees them
        rec["exported"] = True
        rec["ops"] = sorted({pw._op_name(t) for t in pw._targets_in(gm, set())})
        rec["missing"] = pw.missing_ops(gm)
        return original(ep, *args, **kwargs)

    pw.program_for_inputs = spy
    entry = C.corpus()[name]
    t0 = time.perf_counter()
    try:
        model = C.build(paddle, entry)
        np.savez(os.path.join(d, "weights.npz"), **{k: v.numpy() for k, v in model.state_dict().items()})
        xs = C.inputs(entry, 3)
        with paddle.no_grad():
            outs = _flat(model(*[paddle.to_tensor(a) for a in xs]))
        np.savez(os.path.join(d, "shim_eager.npz"), **{f"out{i}": o.numpy() for i, o in enumerate(outs)})
        specs = [InputSpec(list(shape), dtype, n) for shape, dtype, n in entry.specs]
        static = paddle.jit.to_static(model, input_spec=specs, full_graph=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            paddle.jit.save(static, os.path.join(d, "model"), input_spec=specs)
        rec["warnings"] = sorted({str(w.message)[:600] for w in caught if "Paddle program" in str(w.message) or
                                  "real Paddle" in str(w.message)})
        path = os.path.join(d, "model.json")
        if os.path.exists(path):
            with open(path, "rb") as f:
                rec["written"] = b'"base_code"' in f.read()
    except Exception as e:  # noqa: BLE001 - recorded per model
        rec["error"] = f"{type(e).__name__}: {str(e)[:1500]}"
        rec["traceback"] = traceback.format_exc()[-3000:]
    rec["save_seconds"] = round(time.perf_counter() - t0, 1)
    with open(os.path.join(d, "write.json"), "w") as f:
        json.dump(rec, f)


# ----------------------------------------------------------------- step 2: real Paddle loads and runs
def _paddle_with_libraries():
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "--check runs under real Paddle"
    if VENV_SITE not in sys.path:  # paddleclas / paddlenlp / ppsci from the project's venv, paddle already bound
        sys.path.insert(1, VENV_SITE)
    return paddle


def _predictor(paddle, prefix, variant=None):
    from paddle import inference

    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.set_cpu_math_library_num_threads(1)
    if variant == "without_onednn":
        config.disable_mkldnn()
    elif variant == "without_inplace_pass":
        config.delete_pass("inplace_pass")
    return inference.create_predictor(config)


# where our predictor result is wrong: the same program again without oneDNN and without Paddle's inplace pass
# (diagnostics: which part of Paddle Inference the failure needs; PaddleNLP LLaMA / Qwen2 need both)
PREDICTOR_VARIANTS = ("without_onednn", "without_inplace_pass")


def _predict(pred, xs):
    for n, a in zip(pred.get_input_names(), xs):
        h = pred.get_input_handle(n)
        h.reshape(list(a.shape))
        h.copy_from_cpu(a)
    pred.run()
    return [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]


def check(name, d):
    import numpy as np

    paddle = _paddle_with_libraries()
    from tests import pir_corpus_models as C

    entry = C.corpus()[name]
    rec = {"loaded": False, "jit": {}, "predictor": {}, "error": None}
    prefix = os.path.join(d, "model")

    def note():  # after each stage: a crash in Paddle (an abort in a pass) keeps what was measured before it
        with open(os.path.join(d, "check.json"), "w") as f:
            json.dump(rec, f)
    try:
        model = C.build(paddle, entry)
        weights = dict(np.load(os.path.join(d, "weights.npz")))
        state = model.state_dict()
        if sorted(weights) != sorted(state):
            rec["weights_keys_differ"] = sorted(set(weights) ^ set(state))[:20]
        model.set_state_dict({k: v for k, v in weights.items() if k in state})
        model.eval()
        eager = {}
        with paddle.no_grad():
            for b in C.BATCHES:
                xs = C.inputs(entry, b)
                eager[b] = [o.numpy() for o in _flat(model(*[paddle.to_tensor(a) for a in xs]))]
        shim = np.load(os.path.join(d, "shim_eager.npz"))
        rec["shim_eager"] = _worst([_rel(shim[f"out{i}"], o) for i, o in enumerate(eager[3])])
        stage = "jit.load"
        layer = paddle.jit.load(prefix)
        rec["loaded"] = True
        for b in C.BATCHES:
            try:
                xs = C.inputs(entry, b)
                outs = [o.numpy() for o in _flat(layer(*[paddle.to_tensor(a) for a in xs]))]
                rec["jit"][b] = _worst([_rel(g, w) for g, w in zip(outs, eager[b])] +
                                       ([f"{len(outs)} outputs != {len(eager[b])}"] if len(outs) != len(eager[b])
                                        else []))
            except Exception as e:  # noqa: BLE001
                rec["jit"][b] = f"{type(e).__name__}: {str(e)[:400]}"
        note()
        stage = "predictor"
        pred = _predictor(paddle, prefix)
        for b in C.BATCHES:
            try:
                outs = _predict(pred, C.inputs(entry, b))
                rec["predictor"][b] = _worst([_rel(g, w) for g, w in zip(outs, eager[b])])
            except Exception as e:  # noqa: BLE001
                rec["predictor"][b] = f"{type(e).__name__}: {str(e)[:400]}"
        note()
        if not _matched(rec["predictor"]):
            stage = "predictor variants"
            rec["predictor_variants"] = {}
            for variant in PREDICTOR_VARIANTS:
                rels = rec["predictor_variants"][variant] = {}
                try:
                    pred = _predictor(paddle, prefix, variant)
                    for b in C.BATCHES:
                        rels[b] = _worst([_rel(g, w) for g, w in zip(_predict(pred, C.inputs(entry, b)), eager[b])])
                except Exception as e:  # noqa: BLE001
                    rels["error"] = f"{type(e).__name__}: {str(e)[:400]}"
                note()
    except Exception as e:  # noqa: BLE001 - recorded per model
        rec["error"] = f"{locals().get('stage', 'build')}: {type(e).__name__}: {str(e)[:1500]}"
    note()


def own(name, d):
    """Real Paddle's own jit.save of the same model (same weights) through jit.load and the predictor: whether
    Paddle's predictor is right on Paddle's own program.  own.json is written after each stage (`saved`, `jit`,
    `predictor`), so a crash in the predictor (the answer too: the driver records the dead process) keeps what
    came before it.  Where Paddle's to_static cannot convert the model with a dynamic batch (Qwen2: a Python `if`
    over `x.shape` that the dynamic batch makes a Tensor), the program is saved once per batch size with the batch
    fixed (`fixed_batch`: the error of the dynamic one), which is still Paddle's own program for that batch."""
    import numpy as np

    paddle = _paddle_with_libraries()
    from tests import pir_corpus_models as C

    entry = C.corpus()[name]
    model = C.build(paddle, entry)
    weights = dict(np.load(os.path.join(d, "weights.npz")))
    model.set_state_dict({k: v for k, v in weights.items() if k in model.state_dict()})
    model.eval()
    with paddle.no_grad():
        eager = {b: [o.numpy() for o in _flat(model(*[paddle.to_tensor(a) for a in C.inputs(entry, b)]))]
                 for b in C.BATCHES}
    rec = {"saved": False, "jit": None, "predictor": None}

    def note():
        with open(os.path.join(d, "own.json"), "w") as f:
            json.dump(rec, f)

    def save(prefix, batch=None):
        specs = [paddle.static.InputSpec([batch if s is None and batch else s for s in shape], t, n)
                 for shape, t, n in entry.specs]
        paddle.jit.save(paddle.jit.to_static(model, input_spec=specs, full_graph=True), prefix, input_spec=specs)

    prefixes = {b: os.path.join(d, "own", "model") for b in C.BATCHES}
    try:
        save(prefixes[1])
    except Exception as e:  # noqa: BLE001 - to_static of a dynamic batch failed: one program per batch size
        rec["fixed_batch"] = _conversion_error(e)
        prefixes = {b: os.path.join(d, "own", f"batch{b}", "model") for b in C.BATCHES}
        for b in C.BATCHES:
            save(prefixes[b], b)
    rec["saved"] = True
    note()
    rec["jit"] = {}
    for b in C.BATCHES:
        layer = paddle.jit.load(prefixes[b])
        rec["jit"][b] = _worst([_rel(o.numpy(), w) for o, w in zip(
            _flat(layer(*[paddle.to_tensor(a) for a in C.inputs(entry, b)])), eager[b])])
    note()
    rec["predictor"] = {}
    preds = {}
    for b in C.BATCHES:
        try:
            if prefixes[b] not in preds:
                preds[prefixes[b]] = _predictor(paddle, prefixes[b])
            pred = preds[prefixes[b]]
            rec["predictor"][b] = _worst([_rel(g, w) for g, w in zip(_predict(pred, C.inputs(entry, b)), eager[b])])
        except Exception as e:  # noqa: BLE001
            rec["predictor"][b] = f"{type(e).__name__}: {str(e)[:400]}"
        note()


def _conversion_error(e):
    """A to_static error in a line: the source line dy2static marked (`<--- HERE`), where it is, and the error."""
    lines = str(e).splitlines()
    here = next((i for i, ln in enumerate(lines) if "<--- HERE" in ln), None)
    if here is None:
        return f"{type(e).__name__}: {str(e)[:300]}"
    where = next((ln.strip() for ln in reversed(lines[:here]) if ln.strip().startswith("File ")), "")
    error = next((ln.strip() for ln in lines[here:] if re.match(r"\s*\w+(Error|Exception): ", ln)), type(e).__name__)
    return f"{where}: `{lines[here - 1].strip()}`: {error}"


def _kinds(rels, died):
    """How the predictor did at each batch: "ok", "wrong" (numbers beyond TOL), "died" (the process), or the
    error's first line (its source location left out)."""
    out = {}
    for b in map(str, C_BATCHES):
        r = (rels or {}).get(b, (rels or {}).get(int(b))) if isinstance(rels, dict) else None
        if r is None:
            out[b] = "died" if died else "not run"
        elif isinstance(r, float):
            out[b] = "ok" if r <= TOL else "wrong"
        else:
            out[b] = re.sub(r"\(at [^)]*\)", "", r.splitlines()[0]).strip()
    return out


def predictor_verdict(rec):
    """Whether Paddle's own jit.save program of the model fails in the predictor the same way as ours, batch by
    batch, from the evidence the tool recorded under real Paddle (`paddle_own`): Paddle's own program must be
    right under jit.load (so the predictor, not the program, is at fault) and give the same kind of failure at
    every batch.  None where our predictor matched."""
    if not rec.get("loaded") or rec.get("matched_predictor"):
        return None
    own = rec.get("paddle_own") or {}
    ours = _kinds(rec.get("predictor"), "check process died" in (rec.get("error") or ""))
    own_pred = own.get("predictor")  # a string: the process died (records of the tool before `died`)
    died = own.get("died") or (own_pred if isinstance(own_pred, str) else None)
    theirs = _kinds(own_pred if isinstance(own_pred, dict) else None, bool(died) and "own process died" in died)
    own_jit_ok = _matched(own.get("jit") or {})
    return {"ours": ours, "paddle_own": theirs, "paddle_own_jit_matched": own_jit_ok,
            "fails_same_way": own_jit_ok and ours == theirs and "not run" not in ours.values(),
            **({"fixed_batch": own["fixed_batch"]} if own.get("fixed_batch") else {})}


# ----------------------------------------------------------------- driver
def _child(python, mode, name, d, timeout):
    t0 = time.perf_counter()
    try:
        p = subprocess.run([python, os.path.abspath(__file__), mode, name, d], cwd=ROOT, capture_output=True,
                           text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": ROOT})
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout} s"
    if p.returncode != 0:
        how = f"killed by signal {-p.returncode}" if p.returncode < 0 else f"exit status {p.returncode}"
        tail = [ln for ln in p.stderr.splitlines() if "Running PIR pass" not in ln and ln.strip()][-12:]
        return f"the {mode[2:]} process died ({how}, {time.perf_counter() - t0:.0f} s): " + "\n".join(tail)[-800:]
    return None


def _matched(rels):
    return bool(rels) and all(isinstance(r, float) and r <= TOL for r in rels.values())


def run_one(name, entry):
    with tempfile.TemporaryDirectory(prefix=f"pir_corpus_{name}_") as d:
        died = _child(SHIM, "--write", name, d, WRITE_TIMEOUT)
        w = json.load(open(os.path.join(d, "write.json"))) if os.path.exists(os.path.join(d, "write.json")) else {}
        rec = {"group": entry.group, "lane": entry.lane, "exported": w.get("exported", False),
               "written": w.get("written", False), "missing": w.get("missing"), "ops": w.get("ops"),
               "save_seconds": w.get("save_seconds"), "error": died or w.get("error")}
        if rec["written"]:
            died = _child(PADDLE, "--check", name, d, CHECK_TIMEOUT)
            c = json.load(open(os.path.join(d, "check.json"))) if os.path.exists(os.path.join(d, "check.json")) \
                else {}
            rec.update(loaded=c.get("loaded", False), jit=c.get("jit", {}), predictor=c.get("predictor", {}),
                       shim_eager=c.get("shim_eager"))
            if "predictor_variants" in c:
                rec["predictor_variants"] = c["predictor_variants"]
            if died or c.get("error"):
                rec["error"] = died or c.get("error")
            if rec["loaded"] and not _matched(rec["predictor"]):  # is Paddle's predictor right on Paddle's own?
                died = _child(PADDLE, "--own", name, d, CHECK_TIMEOUT)
                o = json.load(open(os.path.join(d, "own.json"))) if os.path.exists(os.path.join(d, "own.json")) \
                    else {}
                rec["paddle_own"] = {"saved": o.get("saved", False), "jit": o.get("jit"),
                                     "predictor": o.get("predictor"), "died": died}
                if o.get("fixed_batch"):
                    rec["paddle_own"]["fixed_batch"] = o["fixed_batch"]
        else:
            rec.update(loaded=False, jit={}, predictor={})
        rec["matched_jit"] = _matched(rec["jit"])
        rec["matched_predictor"] = _matched(rec["predictor"])
        rec["predictor_verdict"] = predictor_verdict(rec)
        return rec


def _load_golden():
    if os.path.exists(GOLDEN):
        with open(GOLDEN) as f:
            return json.load(f)
    return {"tolerance": TOL, "batches": [1, 3, 7], "models": {}}


def _store(golden):
    golden["models"] = dict(sorted(golden["models"].items()))
    with open(GOLDEN + ".tmp", "w") as f:
        json.dump(golden, f, indent=1, sort_keys=False)
    os.replace(GOLDEN + ".tmp", GOLDEN)


def _fmt(rels):
    if not rels:
        return "-"
    worst = _worst(list(rels.values()))
    return f"{worst:.1e}" if isinstance(worst, float) else "error"


def table(golden):
    rows = ["| model | group | exported | ops lacking a mapping | real Paddle loads | jit.load 1/3/7 (rel err) | "
            "predictor 1/3/7 (rel err) |", "|---|---|---|---|---|---|---|"]
    for name, r in golden["models"].items():
        miss = ", ".join(m.replace("aten.", "") for m in r.get("missing") or []) or "-"
        ok = lambda m, rels: ("ok " if m else "**no** ") + _fmt(rels)  # noqa: E731
        verdict = r.get("predictor_verdict")
        own = "" if not verdict else " (Paddle's own program: the same)" if verdict["fails_same_way"] else \
            " (**not** Paddle's own failure)"
        rows.append(f"| {name} | {r['group']} | {'yes' if r['exported'] else '**no**'} | {miss} | "
                    f"{'yes' if r.get('loaded') else '**no**'} | {ok(r['matched_jit'], r.get('jit'))} | "
                    f"{ok(r['matched_predictor'], r.get('predictor'))}{own} |")
    models = golden["models"].values()
    n = len(golden["models"])
    rows.append("")
    rows.append(f"{n} models: exported {sum(r['exported'] for r in models)}, written "
                f"{sum(r['written'] for r in models)}, loaded by real Paddle {sum(bool(r.get('loaded')) for r in models)}"
                f", matched by jit.load {sum(r['matched_jit'] for r in models)}, by the predictor "
                f"{sum(r['matched_predictor'] for r in models)} (failing as Paddle's own program does: "
                f"{sum(bool((r.get('predictor_verdict') or {}).get('fails_same_way')) for r in models)}).")
    return "\n".join(rows)


def main(argv):
    if argv[:1] == ["--write"]:
        import paddle_on_torch

        paddle_on_torch.install()  # `import paddle` is paddle_on_torch from here on
    if argv[:1] in (["--write"], ["--check"], ["--own"]):
        {"--write": write, "--check": check, "--own": own}[argv[0]](argv[1], argv[2])
        return
    if argv[:1] == ["--table"]:
        print(table(_load_golden()))
        return
    if argv[:1] == ["--verdicts"]:  # the predictor verdicts again from the evidence recorded (no Paddle run)
        golden = _load_golden()
        for rec in golden["models"].values():
            rec["predictor_verdict"] = predictor_verdict(rec)
        _store(golden)
        return
    sys.path.insert(0, ROOT)
    import importlib

    C = importlib.import_module("tests.pir_corpus_models")  # imports paddle: whichever this interpreter has
    corpus = C.corpus()
    lane = None
    if "--lane" in argv:
        lane = argv[argv.index("--lane") + 1]
        argv = [a for a in argv if a not in ("--lane", lane)]
    argv = [a for a in argv if a != "--missing"]
    names = []
    for want in argv or [None]:  # in the order asked for (a group expands to its models)
        names += [n for n, e in corpus.items() if (want is None or n == want or e.group == want) and
                  (lane is None or e.lane == lane) and n not in names]
    if "--missing" in sys.argv:  # only those not recorded yet
        names = [n for n in names if n not in _load_golden()["models"]]
    for name in names:
        t0 = time.perf_counter()
        rec = run_one(name, corpus[name])
        golden = _load_golden()  # read again: another run of the tool may have recorded models meanwhile
        golden["models"][name] = rec
        _store(golden)
        print(f"{name:44s} exported={rec['exported']!s:5s} missing={rec['missing']} loaded={rec.get('loaded')} "
              f"jit={_fmt(rec.get('jit'))} pred={_fmt(rec.get('predictor'))} ({time.perf_counter() - t0:.0f} s)"
              + (f"\n    {rec['error'][:300]}" if rec.get("error") else ""), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
