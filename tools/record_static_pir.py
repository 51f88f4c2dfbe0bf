"""paddle.static.save_inference_model under paddle_on_torch, loaded by REAL Paddle 3.3.1 (issue 19 item 3).

    /work/oracle/bin/python tools/record_static_pir.py                 # every program of tests/static_pir_models
    PADDLE_ON_TORCH_PYTHON=/work/venv/bin/python ...                   # the interpreter with paddle_on_torch

Step 1, a child process under paddle_on_torch (`--write`): builds each static program of
tests/static_pir_models.PROGRAMS, saves it with `paddle.static.save_inference_model` into
tests/data/static_pir/<name>/ (model.json: Paddle's PIR program, model.pdiparams), and stores the feeds and the
Executor's outputs of the program cloned for test in io.npz (input<k>_<feed>, exe<k>_<i>).  Step 2, this process
under real Paddle: `paddle.static.load_inference_model` + Executor.run and `paddle.inference.create_predictor`
on those files, their outputs into io.npz (paddle<k>_<i>, predictor<k>_<i>), and into report.json per program:
the largest difference from the shim's Executor, and the loaded program's structure as Paddle sees it (its op
names, feed names, fetch dtypes / shapes).  Real Paddle also builds each program itself and saves it with its own
save_inference_model (paddle_own.json: the program only), where its static API can build it.
tests/test_static_pir_export.py (no Paddle) checks it all.
"""
import json
import os
import subprocess
import sys
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "static_pir")
TOL = 1e-5


def write(names):
    import paddle

    assert "paddle_on_torch" in paddle.__file__, "--write runs under paddle_on_torch"
    from tests import static_pir_models as M

    paddle.enable_static()
    for name in names:
        d = os.path.join(OUT, name)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        main, feeds, fetches, exe = M.build(paddle, name)
        paddle.static.save_inference_model(os.path.join(d, "model"), feeds, fetches, exe, program=main)
        test = main.clone(for_test=True)
        store = {}
        for k, xs in enumerate(M.INPUTS[name]):
            store.update({f"input{k}_{f}": a for f, a in xs.items()})
            outs = exe.run(test, feed=xs, fetch_list=fetches)
            store.update({f"exe{k}_{i}": o for i, o in enumerate(outs)})
        np.savez(os.path.join(d, "io.npz"), **store)
        print(f"{name}: written", flush=True)


def _predict(prefix, xs):
    from paddle import inference

    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.disable_onednn()
    config.set_cpu_math_library_num_threads(1)
    predictor = inference.create_predictor(config)
    for n in predictor.get_input_names():
        h = predictor.get_input_handle(n)
        h.reshape(xs[n].shape)
        h.copy_from_cpu(xs[n])
    predictor.run()
    return [predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()]


def _worst(got, want):
    if len(got) != len(want):
        return f"{len(got)} outputs, the shim's Executor gave {len(want)}"
    worst = 0.0
    for g, w in zip(got, want):
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"output {g.dtype}{list(g.shape)}, the shim's Executor {w.dtype}{list(w.shape)}"
        worst = max(worst, float(np.max(np.abs(g.astype("float64") - w.astype("float64")))))
    return worst


def _paddle_own(paddle, M, name, d):
    """Real Paddle builds the same program and saves it itself (paddle_own.json, the program only; its weights are
    Paddle's random ones): tests/test_static_pir_export.py compares the structure with what the shim wrote."""
    import tempfile

    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
            feeds, fetches = M.PROGRAMS[name](paddle)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        with tempfile.TemporaryDirectory() as tmp:
            paddle.static.save_inference_model(os.path.join(tmp, "m"), feeds, fetches, exe, program=main)
            with open(os.path.join(tmp, "m.json")) as f:
                program = json.load(f)
        with open(os.path.join(d, "paddle_own.json"), "w") as f:
            json.dump(program, f, separators=(",", ":"))
        return "saved"
    except Exception as e:  # noqa: BLE001 - e.g. Paddle's PIR mode has no static.nn.conv2d
        return f"failed: {type(e).__name__}: {str(e).strip()[:200]}"


def load(names):
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "the load step runs under real Paddle"
    from tests import static_pir_models as M

    paddle.enable_static()
    report = {}
    for name in names:
        d = os.path.join(OUT, name)
        prefix = os.path.join(d, "model")
        io = dict(np.load(os.path.join(d, "io.npz")))
        entry = report[name] = {}
        exe = paddle.static.Executor(paddle.CPUPlace())
        for kind in ("paddle", "predictor"):
            try:
                worst = 0.0
                if kind == "paddle":
                    prog, feed_names, fetch_targets = paddle.static.load_inference_model(prefix, exe)
                    entry["feed_names"] = list(feed_names)
                    entry["ops"] = [op.name() for op in prog.global_block().ops]
                    entry["fetch"] = [[str(v.dtype), list(v.shape)] for v in fetch_targets]
                for k, xs in enumerate(M.INPUTS[name]):
                    want = [io[f"exe{k}_{i}"] for i in range(sum(1 for key in io if key.startswith(f"exe{k}_")))]
                    if kind == "paddle":
                        got = exe.run(prog, feed=xs, fetch_list=fetch_targets)
                    else:
                        got = _predict(prefix, xs)
                    got = [np.asarray(g) for g in got]
                    io.update({f"{kind}{k}_{i}": g for i, g in enumerate(got)})
                    w = _worst(got, want)
                    worst = w if isinstance(w, str) or isinstance(worst, str) else max(worst, w)
                entry[kind] = "ok" if not isinstance(worst, str) and worst <= TOL else "mismatch"
                entry[f"{kind}_max_diff"] = worst
            except Exception as e:  # noqa: BLE001 - the report records what real Paddle said
                entry[kind] = f"failed: {type(e).__name__}: {str(e).strip()[:300]}"
                traceback.print_exc(limit=2)
        np.savez(os.path.join(d, "io.npz"), **io)
        entry["paddle_own"] = _paddle_own(paddle, M, name, d)
        print(f"{name}: {entry}", flush=True)
    return report


def main(argv):
    if argv[:1] == ["--write"]:
        import paddle_on_torch

        paddle_on_torch.install()
        write(argv[1:])
        return
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "run record_static_pir under real Paddle"
    from tests import static_pir_models as M

    names = argv or list(M.PROGRAMS)
    shim = os.environ.get("PADDLE_ON_TORCH_PYTHON", "python")
    proc = subprocess.run([shim, os.path.abspath(__file__), "--write", *names], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": ROOT})
    sys.stderr.write(proc.stderr[-4000:])
    if proc.returncode:
        raise SystemExit(f"the paddle_on_torch step failed ({proc.returncode}):\n{proc.stdout[-3000:]}")
    report = load(names)
    path = os.path.join(OUT, "report.json")
    old = json.load(open(path)) if os.path.exists(path) else {}
    old.update(report)
    with open(path, "w") as f:
        json.dump(dict(sorted(old.items())), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
