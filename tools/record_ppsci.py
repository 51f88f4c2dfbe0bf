"""Record real Paddle's loss curves for the PaddleScience cases of tests/ppsci_cases.py (run under the oracle).

    GLOG_minloglevel=3 ~/oracle/bin/python tools/record_ppsci.py [CASE ...]
    GLOG_minloglevel=3 ~/oracle/bin/python tools/record_ppsci.py --examples PADDLESCIENCE/examples [NAME ...]

Needs ppsci 1.4.0 and the packages of tests/requirements-libs.txt installed beside real Paddle 3.3.1.  Each case
runs in a fresh process, eager and with the Solver's to_static=True, at one thread (Paddle's default).  Writes
tests/data/ppsci/<case>.pdparams (the initial weights, paddle.save) and tests/data/ppsci/losses.json: per case
and mode the loss dict of every step and the final evaluation metric, or, where real Paddle fails, the error
it raised (its to_static fails on several of these programs).

--examples runs PaddleScience's own example programs (ppsci_cases.EXAMPLES) unchanged through their command
lines with tools/run_ppsci_example.py, eager (saving the initial weights to tests/data/ppsci/examples/NAME.pdparams)
and with to_static, and writes tests/data/ppsci/examples/losses.json.
--programs does the same for this project's own program(s) in the examples' shape (ppsci_cases.PROGRAMS, in
tests/ppsci_program), writing tests/data/ppsci/program/.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "ppsci")
MODES = {"eager": False, "to_static": True}


def one(name, mode):
    """Runs in the child: one case in one mode; prints its result as JSON on the last line."""
    sys.path.insert(0, ROOT)
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "record_ppsci must run under real Paddle"
    import ppsci

    from tests import ppsci_cases

    weights = os.path.join(OUT, f"{name}.pdparams")

    def init(model):
        if mode == "eager":
            paddle.save(model.state_dict(), weights)
        else:
            model.set_state_dict(paddle.load(weights))

    with tempfile.TemporaryDirectory() as out:
        try:
            steps, metric = ppsci_cases.train(name, ppsci, paddle, out, MODES[mode], init)
            result = {"steps": steps, "metric": metric}
        except Exception as e:  # noqa: BLE001 - what real Paddle raises is the record
            result = {"error": f"{type(e).__name__}: {str(e).strip().splitlines()[-1] if str(e).strip() else ''}"}
    print("\n@@record@@" + json.dumps(result))


def main(names):
    import paddle

    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "losses.json")
    record = {}
    if os.path.exists(path):
        with open(path) as f:
            record = json.load(f)
    record["paddle_version"] = paddle.__version__
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_minloglevel="3")
    from tests import ppsci_cases  # noqa: F401 - fail early if the module does not import

    for name in names:
        record.setdefault("cases", {})[name] = {}
        for mode in MODES:  # eager first: it writes the initial weights
            proc = subprocess.run([sys.executable, __file__, "--one", name, mode], capture_output=True, text=True,
                                  env=env, cwd=ROOT)
            if "@@record@@" not in proc.stdout:
                sys.exit(f"{name} {mode}: the child failed\n{proc.stderr[-3000:]}")
            result = json.loads(proc.stdout.rsplit("@@record@@", 1)[1])
            record["cases"][name][mode] = result
            summary = result.get("error") or f"{len(result['steps'])} steps, last loss {result['steps'][-1]['loss']}"
            print(f"{name:18s} {mode:9s} {summary}")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def examples(folder, names, table=None, sub="examples"):
    """The example programs, each eager and to_static in its own process, in a scratch working directory."""
    import paddle

    out = os.path.join(OUT, sub)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "losses.json")
    record = {}
    if os.path.exists(path):
        with open(path) as f:
            record = json.load(f)
    record["paddle_version"] = paddle.__version__
    from tests.ppsci_cases import EXAMPLES

    table = EXAMPLES if table is None else table
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_minloglevel="3")
    runner = os.path.join(ROOT, "tools", "run_ppsci_example.py")
    for name in names:
        script, overrides, options = table[name]
        weights = os.path.join(out, f"{name}.pdparams")
        record.setdefault("examples", {})[name] = {"overrides": overrides, "options": options}
        for mode in MODES:
            with tempfile.TemporaryDirectory() as work:
                losses = os.path.join(work, "losses.json")
                init = ["--save-init", weights] if mode == "eager" else ["--load-init", weights]
                static = ["--to-static"] if mode == "to_static" else []
                proc = subprocess.run([sys.executable, runner, *init, *static, *options, "--losses", losses,
                                       os.path.join(folder, script), *overrides, f"output_dir={work}/out"],
                                      capture_output=True, text=True, env=env, cwd=work)
                if not os.path.exists(losses):
                    sys.exit(f"{name} {mode}: the runner failed\n{proc.stderr[-3000:]}")
                with open(losses) as f:
                    result = json.load(f)
            result.pop("shim", None)
            result.pop("paddle", None)
            record["examples"][name][mode] = result
            summary = result.get("error") or f"{len(result['steps'])} steps, last loss {result['steps'][-1]['loss']}"
            print(f"{name:18s} {mode:9s} {summary}")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--examples"]:
        sys.path.insert(0, ROOT)
        from tests.ppsci_cases import EXAMPLES

        examples(os.path.abspath(sys.argv[2]), sys.argv[3:] or list(EXAMPLES))
    elif sys.argv[1:2] == ["--programs"]:
        sys.path.insert(0, ROOT)
        from tests.ppsci_cases import PROGRAM_DIR, PROGRAMS

        examples(os.path.join(ROOT, PROGRAM_DIR), sys.argv[2:] or list(PROGRAMS), PROGRAMS, "program")
    elif sys.argv[1:2] == ["--one"]:
        one(sys.argv[2], sys.argv[3])
    else:
        sys.path.insert(0, ROOT)
        from tests.ppsci_cases import CASES

        main(sys.argv[1:] or list(CASES))
