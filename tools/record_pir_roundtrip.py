"""Write models with paddle_on_torch's jit.save, load them with REAL Paddle 3.3.1, record what Paddle computes.

    /work/oracle/bin/python tools/record_pir_roundtrip.py                 # every model of ROUNDTRIP
    /work/oracle/bin/python tools/record_pir_roundtrip.py mlp resnet      # just these
    PADDLE_ON_TORCH_PYTHON=/work/venv/bin/python ...                      # the interpreter with paddle_on_torch

Two steps, two interpreters.  First a child process runs this file under paddle_on_torch (`--write`): for each
model of tests/pir_writer_models.ROUNDTRIP it builds the Layer with the weights both sides give it, saves it with
paddle_on_torch's `paddle.jit.save` into tests/data/pir_roundtrip/<name>/ (model.json: Paddle's PIR program;
model.pdiparams; the torch program model.pt2 and its manifest are not kept), and stores the inputs and
paddle_on_torch's eager outputs in io.npz.  Then this process, under real Paddle, loads those files with
`paddle.jit.load` and with `paddle.inference.create_predictor` and stores their outputs in io.npz too
(jit<i>, predictor<i>; a `b` suffix for the inputs taking a control-flow model's other branch, `n<batch>` for the
inputs at batch 1, 3 and 7 of a model with a dynamic batch, `n<batch>s<length>` for a sequence model at two
lengths: tests/pir_writer_models.sized_inputs).  Models of TRAIN_MODE are saved in train mode.  report.json says,
per model, whether the program was written, whether real Paddle loaded it, the largest difference of each from
the eager outputs, and how long jit.save took.  tests/test_pir_roundtrip.py (no Paddle) checks that the writer
still writes these programs and that they compute Paddle's recorded outputs.
"""
import json
import os
import re
import subprocess
import sys
import time
import traceback
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "pir_roundtrip")
TOL = 1e-5


def _flat(out):
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    if isinstance(out, dict):
        return [t for k in sorted(out) for t in _flat(out[k])]
    return [out]


# ----------------------------------------------------------------- step 1: paddle_on_torch writes
def write(names):
    import paddle

    assert "paddle_on_torch" in paddle.__file__, "--write runs under paddle_on_torch"
    from tests import pir_writer_models as M

    report = {}
    for name in names:
        d = os.path.join(OUT, name)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        model = M.build(name)
        arrays = M.inputs(name)
        sets = [("", arrays)] + ([("b", M.OTHER_INPUTS[name]())] if name in M.OTHER_INPUTS else []) + \
            M.sized_inputs(name)
        store = {}
        with paddle.no_grad():
            for tag, xs in sets:
                store.update({f"input{i}{tag}": a for i, a in enumerate(xs)})
                outs = _flat(model(*[paddle.to_tensor(a) for a in xs]))
                store.update({f"eager{i}{tag}": o.numpy() for i, o in enumerate(outs)})
        np.savez(os.path.join(d, "io.npz"), **store)
        prefix = os.path.join(d, "model")
        t0 = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                paddle.jit.save(M.mode_for_save(name, model), prefix, input_spec=M.ROUNDTRIP[name][1])
                error = []
            except Exception as e:  # noqa: BLE001 - recorded: the program could not be written
                error = [f"{type(e).__name__}: {e}"]
        seconds = time.perf_counter() - t0
        for ours in (".pt2", ".pt2.manifest"):  # paddle_on_torch's own files: real Paddle reads .json / .pdiparams
            if os.path.exists(prefix + ours):
                os.remove(prefix + ours)
        written = os.path.exists(prefix + ".json") and b'"base_code"' in open(prefix + ".json", "rb").read()
        problems = error + [str(w.message) for w in caught if "Paddle program" in str(w.message) or
                            "could not write" in str(w.message)]
        report[name] = {"written": written, "save_seconds": round(seconds, 2), "writer": problems[:1]}
        print(f"{name}: written={written} ({seconds:.1f} s) {problems[:1]}", flush=True)
    return report


# ----------------------------------------------------------------- step 2: real Paddle loads
_KEY = re.compile(r"^(input|eager|jit|predictor)(\d+)(.*)$")


def tags(io):
    """The input sets of io.npz: '' (the recorded inputs), 'b' (the other branch), 'n<batch>[s<length>]'."""
    found = {m.group(3) for m in map(_KEY.match, io) if m and m.group(1) == "input"}
    return sorted(found, key=lambda t: (t != "", t != "b", len(t), t))


def arrays(io, prefix, tag):
    """The arrays `prefix<i><tag>` of io.npz in order of i."""
    keys = [(int(m.group(2)), k) for k, m in ((k, _KEY.match(k)) for k in io)
            if m and m.group(1) == prefix and m.group(3) == tag]
    return [io[k] for _, k in sorted(keys)]


def _predict(prefix, arrays):
    from paddle import inference

    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.disable_onednn()
    config.set_cpu_math_library_num_threads(1)
    predictor = inference.create_predictor(config)
    for n, a in zip(predictor.get_input_names(), arrays):
        h = predictor.get_input_handle(n)
        h.reshape(a.shape)
        h.copy_from_cpu(a)
    predictor.run()
    return [predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()]


def _diff(got, want):
    if len(got) != len(want):
        return f"{len(got)} outputs, eager gave {len(want)}"
    worst = 0.0
    for g, w in zip(got, want):
        g = np.asarray(g)
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"output {g.dtype}{list(g.shape)}, eager {w.dtype}{list(w.shape)}"
        if g.size:
            worst = max(worst, float(np.max(np.abs(g.astype("float64") - w.astype("float64")))))
    return worst


def load(names, report):
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "the load step runs under real Paddle"
    for name in names:
        entry = report.setdefault(name, {})
        d = os.path.join(OUT, name)
        prefix = os.path.join(d, "model")
        if not entry.get("written"):
            entry.update(jit="not written", predictor="not written")
            continue
        io = dict(np.load(os.path.join(d, "io.npz")))
        entry["input_sets"] = tags(io)
        for kind in ("jit", "predictor"):
            tag = None
            try:
                worst = 0.0
                layer = paddle.jit.load(prefix) if kind == "jit" else None
                for tag in tags(io):
                    xs, want = arrays(io, "input", tag), arrays(io, "eager", tag)
                    if kind == "jit":
                        with paddle.no_grad():
                            got = [o.numpy() for o in _flat(layer(*[paddle.to_tensor(a) for a in xs]))]
                    else:
                        got = _predict(prefix, xs)
                    io.update({f"{kind}{i}{tag}": g for i, g in enumerate(got)})
                    d_ = _diff(got, want)
                    worst = d_ if isinstance(d_, str) else (worst if isinstance(worst, str) else max(worst, d_))
                entry[kind] = "ok" if not isinstance(worst, str) and worst <= TOL else "mismatch"
                entry[f"{kind}_max_diff"] = worst
            except Exception as e:  # noqa: BLE001 - the report records what real Paddle said
                msg = " | ".join(ln.strip() for ln in str(e).strip().splitlines() if ln.strip())[-400:]
                entry[kind] = f"failed{'' if tag is None else f' at {tag!r}'}: {type(e).__name__}: {msg}"
                traceback.print_exc(limit=2)
        np.savez(os.path.join(d, "io.npz"), **io)
        print(f"{name}: jit.load {entry.get('jit')} ({entry.get('jit_max_diff')}), predictor "
              f"{entry.get('predictor')} ({entry.get('predictor_max_diff')})", flush=True)
    return report


def main(argv):
    if argv[:1] == ["--write"]:
        import paddle_on_torch

        paddle_on_torch.install()
        report = write(argv[1:])
        print("REPORT " + json.dumps(report))
        return
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "run record_pir_roundtrip under real Paddle"
    from tests import pir_writer_models as M

    names = argv or list(M.ROUNDTRIP)
    shim = os.environ.get("PADDLE_ON_TORCH_PYTHON", "python")
    proc = subprocess.run([shim, os.path.abspath(__file__), "--write", *names], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": ROOT})
    sys.stderr.write(proc.stderr[-4000:])
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("REPORT ")]
    if proc.returncode or not line:
        raise SystemExit(f"the paddle_on_torch step failed ({proc.returncode}):\n{proc.stdout[-3000:]}")
    report = load(names, json.loads(line[-1][len("REPORT "):]))
    path = os.path.join(OUT, "report.json")
    old = json.load(open(path)) if os.path.exists(path) else {}
    old.update(report)
    with open(path, "w") as f:
        json.dump(dict(sorted(old.items())), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
