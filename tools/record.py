"""Refresh real Paddle's recorded answers (tests/golden/*.json), or check that they are current.

    ~/oracle/bin/python tools/record.py                        # every golden: all case modules, then each recorder
    ~/oracle/bin/python tools/record.py tensor_math api_kinds  # named goldens (case modules or recorders' files)
    ~/oracle/bin/python tools/record.py --cases                # every case module (tests/cases), no recorder
    python tools/record.py --check [NAME ...]                  # without Paddle: which answers are not current
    python tools/record.py --list                              # the goldens and the data recorders
    ~/oracle/bin/python tools/record.py --data paddlenlp [ARG ...]  # a recorder of tests/data (see --list)

Recording runs under the oracle interpreter (torch + paddlepaddle 3.3.1, docs/testing.md).  A case module's
cases run in this process, each after the same reset (dynamic mode, float32, print options, seed 2024), and its
file is rewritten whole; a recorder (tests/golden_file.RECORDERS) runs as its own script.  Every entry gets
Paddle's version and the hash of its source (tests/golden_file.py).

`--check` needs no Paddle (CI runs it): it lists, per golden file, the entries whose case or recorder changed
after Paddle answered, cases without an answer, answers without a case, entries without provenance, and answers
from another Paddle version, each with the command that refreshes it; it exits 1 when there is any.
"""
import argparse
import os
import subprocess
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests import golden_file  # noqa: E402

# recorders of tests/data/ (and of the shim's own tables): their files are inputs of their tests, not golden
# answers, and several need Paddle's libraries or minutes; run by name with --data
DATA_RECORDERS = {
    "c_ops": "tools/record_c_ops.py",  # paddle_on_torch/_C_ops_signatures.json
    "ecosystem_names": "tools/record_ecosystem_names.py",  # run with the dev interpreter (it says how)
    "examples": "tools/record_examples.py",
    "inference_models": "tools/record_inference_models.py",
    "io_files": "tools/record_io_files.py",
    "llama_auto": "tools/record_llama_auto.py",
    "llama_parallelize": "tools/record_llama_parallelize.py",
    "model_zoo": "tools/record_model_zoo.py",
    "paddleformers": "tools/record_paddleformers.py",
    "paddlenlp": "tools/record_paddlenlp.py",
    "pinn": "tools/record_pinn.py",
    "pir_programs": "tools/record_pir_programs.py",
    "pir_roundtrip": "tools/record_pir_roundtrip.py",
    "ppsci": "tools/record_ppsci.py",
    "static_pir": "tools/record_static_pir.py",
    "vision_models": "tools/record_vision_models.py",
}


# case modules recorded under another setting of real Paddle (set before its import: a child process records them)
MODULE_ENV = {"static_legacy": {"FLAGS_enable_pir_api": "0"}}  # Paddle 2.x static APIs on the legacy IR


def case_modules():
    from tests.cases import load_all

    return load_all()


def golden_names():
    """Every golden there is or should be: the case modules, the recorders' files, and files of neither."""
    on_disk = {f[:-5] for f in os.listdir(golden_file.GOLDEN_DIR) if f.endswith(".json")}
    return sorted((on_disk - set(golden_file.REPORTS)) | set(case_modules()) | set(golden_file.RECORDERS))


# ------------------------------------------------------------------------------------------------- recording

def _import_real_paddle():
    os.environ.setdefault("GLOG_minloglevel", "3")
    warnings.filterwarnings("ignore")
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "tools/record.py records under real Paddle (the oracle)"
    return paddle


def reset(paddle):
    """The state every case starts from (on both sides: tests/conftest.py's `paddle` fixture matches it)."""
    paddle.disable_static()
    paddle.set_default_dtype("float32")
    paddle.set_printoptions(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
    paddle.seed(2024)


def record_cases(module, cases, paddle):
    from tests import golden

    entries = {}
    for name, fn in cases.items():
        source = golden_file.case_hash(fn)  # (before it runs: what the case reads is what it was given)
        reset(paddle)
        try:
            answer = golden.describe(fn(paddle))
        except Exception as e:  # noqa: BLE001 - the error is the answer
            answer = golden.describe(e)
        entries[name] = golden_file.entry(answer, source, paddle.__version__)
    path = golden_file.write(module, entries)
    print(f"{module}: {len(entries)} cases -> {os.path.relpath(path, ROOT)}", flush=True)


def run_script(script, args=(), env=None):
    print(f"$ {os.path.basename(sys.executable)} {script} {' '.join(args)}", flush=True)
    return subprocess.run([sys.executable, os.path.join(ROOT, script), *args], cwd=ROOT,
                          env=None if env is None else {**os.environ, **env}).returncode


def _needs_child(module):
    env = MODULE_ENV.get(module, {})
    return any(os.environ.get(k) != v for k, v in env.items())


def record(names):
    cases = case_modules()
    unknown = [n for n in names if n not in cases and n not in golden_file.RECORDERS]
    if unknown:
        sys.exit(f"no case module or recorder named {', '.join(unknown)} (see tools/record.py --list)")
    paddle = _import_real_paddle()
    failed, scripts_run = [], set()
    for name in names:
        if name in cases and _needs_child(name):
            if run_script("tools/record.py", [name], env=MODULE_ENV[name]) != 0:
                failed.append(name)
        elif name in cases:
            record_cases(name, cases[name], paddle)
        elif golden_file.RECORDERS[name].script not in scripts_run:  # (one script may write several goldens)
            scripts_run.add(golden_file.RECORDERS[name].script)
            if run_script(golden_file.RECORDERS[name].script) != 0:
                failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)} (what each needs: tools/record.py --list)", file=sys.stderr)
    return 1 if failed else 0


# -------------------------------------------------------------------------------------------------- checking

def problems(names=None):
    """[(golden name, entry, why)] for every answer that is not current."""
    cases = case_modules()
    out = []
    for name in names or golden_names():
        entries = golden_file.read(name)
        if name in cases:
            for key, fn in cases[name].items():
                e = entries.get(key)
                why = "no answer recorded" if e is None else golden_file.staleness(e, golden_file.case_hash(fn))
                if why:
                    out.append((name, key, why))
            out += [(name, key, "an answer without a case (left over)") for key in entries if key not in cases[name]]
        elif name in golden_file.RECORDERS:
            if not entries:
                out.append((name, "*", "not recorded"))
            out += [(name, key, why) for key, why in golden_file.recorder_staleness(name).items()]
        else:
            out.append((name, "*", "no case module or recorder writes this file"))
    return out


def check(names=None):
    found = problems(names)
    by_file = {}
    for name, key, why in found:
        by_file.setdefault(name, []).append((key, why))
    for name, items in sorted(by_file.items()):
        print(f"{name}: {len(items)} not current; refresh: {golden_file.refresh_command(name)}")
        for key, why in items[:10]:
            print(f"    {key}: {why}")
        if len(items) > 10:
            print(f"    ... and {len(items) - 10} more")
    n = sum(len(golden_file.read(name)) for name in names or golden_names())
    print(f"{len(found)} of {n} golden entries not current, in {len(by_file)} files")
    for name, why in sorted(golden_file.REPORTS.items()):
        print(f"(not checked: tests/golden/{name}.json, {why})")
    return 1 if found else 0


def list_all():
    cases = case_modules()
    print("case modules (tests/cases/<name>.py -> tests/golden/<name>.json):")
    print("   ", " ".join(sorted(cases)))
    print("recorders (tests/golden/<name>.json):")
    for name, r in sorted(golden_file.RECORDERS.items()):
        print(f"    {name:20s} {r.script}" + (f"  (needs {r.needs})" if r.needs else ""))
    print("data recorders (--data NAME: their own files under tests/data, no provenance):")
    for name, script in sorted(DATA_RECORDERS.items()):
        print(f"    {name:20s} {script}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--data"]:  # the rest is the data recorder's own command line
        if len(argv) < 2 or argv[1] not in DATA_RECORDERS:
            sys.exit(f"--data takes one of {', '.join(sorted(DATA_RECORDERS))}")
        return run_script(DATA_RECORDERS[argv[1]], argv[2:])
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", help="case modules or recorders' golden names (default: all)")
    p.add_argument("--check", action="store_true", help="report answers that are not current (no Paddle needed)")
    p.add_argument("--cases", action="store_true", help="record every case module, no recorder")
    p.add_argument("--list", action="store_true", help="list the goldens and recorders")
    p.add_argument("--data", metavar="RECORDER", help="run a data recorder (first option; what follows is its own)")
    a = p.parse_args(argv)
    if a.list:
        return list_all()
    if a.check:
        return check(a.names or None)
    if a.data:
        sys.exit("--data comes first: tools/record.py --data NAME [ARG ...]")
    names = a.names or (sorted(case_modules()) + ([] if a.cases else sorted(golden_file.RECORDERS)))
    code = record(names)
    # real Paddle can abort in its destructors at interpreter exit: leave without them, the files are written
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
