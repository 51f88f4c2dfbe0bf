"""Refresh real Paddle's recorded answers (tests/golden/*.json), or check that they are current.

    ~/oracle/bin/python tools/record.py                        # every golden: all case modules, then each recorder
    ~/oracle/bin/python tools/record.py tensor_math api_kinds  # named goldens (case modules or recorders' files)
    ~/oracle/bin/python tools/record.py --cases                # every case module (tests/cases), no recorder
    python tools/record.py --check [NAME ...]                  # without Paddle: which answers or data are not current
    python tools/record.py --list                              # the goldens and the data recorders
    ~/oracle/bin/python tools/record.py --data paddlenlp [ARG ...]  # a recorder of tests/data (see --list)

Recording runs under the oracle interpreter (torch + paddlepaddle 3.3.1, docs/testing.md).  A case module's
cases run in this process, each after the same reset (dynamic mode, float32, print options, seed 2024), and its
file is rewritten whole; a recorder (tests/golden_file.RECORDERS) runs as its own script.  Every entry gets
Paddle's version and the hash of its source (tests/golden_file.py).  A data recorder (--data NAME, what follows
is its own command line) writes files under tests/data; this stamps each file it wrote in
tests/data/provenance/NAME.json with its sha256, the hash of the recorder's script and inputs, and the versions
of Paddle and the libraries it used.

`--check` needs no Paddle (CI runs it): it lists, per golden file, the entries whose case or recorder changed
after Paddle answered, cases without an answer, answers without a case, entries without provenance, and answers
from another Paddle version, each with the command that refreshes it; then, per data recorder, the files written
after their stamp (by hand, or by the recorder run without --data), stamped by an older recorder or inputs, or
missing, and files under tests/data that no recorder owns; it exits 1 when there is any.
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
# answers, and several need Paddle's libraries or minutes; run by name with --data (tests/golden_file.py)
DATA_RECORDERS = golden_file.DATA_RECORDERS


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


def _versions(recorder):
    """Paddle's version and those of the libraries a data recorder uses, as installed for this run."""
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for dist in ["paddlepaddle", *recorder.libraries]:
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = "not installed"
    return out


def _file_state(rel):
    st = os.stat(os.path.join(ROOT, rel))
    return st.st_ino, st.st_mtime_ns, st.st_size


def record_data(name, args):
    """Run a data recorder and stamp the files it wrote (tests/data/provenance/<name>.json)."""
    rec = golden_file.DATA_RECORDERS[name]
    versions = _versions(rec)
    before = {f: (_file_state(f), golden_file.file_sha256(f)) for f in golden_file.data_files(rec.outputs)}
    code = run_script(rec.script, [*rec.args, *args])
    after = golden_file.data_files(rec.outputs)
    written = [f for f in after if f not in before or before[f][0] != _file_state(f)]
    same = [f for f in written if f in before and before[f][1] == golden_file.file_sha256(f)]
    path = golden_file.stamp_data(name, written, versions)
    print(f"{name}: {len(written)} files written ({len(same)} with the bytes they had, {len(written) - len(same)} "
          f"changed or new), {len(after) - len(written)} not written, {len(set(before) - set(after))} removed; "
          f"{', '.join(f'{k} {v}' for k, v in versions.items())} -> {os.path.relpath(path, ROOT)}", flush=True)
    if code:
        print(f"{name}: the recorder failed (exit {code}); what it wrote is stamped", file=sys.stderr)
    return code


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


def data_problems(names=None):
    """[(data recorder, file, why)] for every recorded data file that is not what today's recorder wrote."""
    out = [(name, f, why) for name in names or sorted(golden_file.DATA_RECORDERS)
           for f, why in sorted(golden_file.data_staleness(name).items())]
    if not names:
        out += [("(none)", f, "no data recorder writes it (tests/golden_file.DATA_RECORDERS, UNRECORDED_DATA)")
                for f in golden_file.unowned_data()]
    return out


def check_data(names=None):
    found = data_problems(names)
    by_name = {}
    for name, f, why in found:
        by_name.setdefault(name, []).append((f, why))
    for name, items in sorted(by_name.items()):
        fix = golden_file.data_refresh_command(name) if name in golden_file.DATA_RECORDERS else "a recorder"
        needs = golden_file.DATA_RECORDERS[name].needs if name in golden_file.DATA_RECORDERS else ""
        print(f"data {name}: {len(items)} not current; refresh: {fix}" + (f" (needs {needs})" if needs else ""))
        for f, why in items[:10]:
            print(f"    {f}: {why}")
        if len(items) > 10:
            print(f"    ... and {len(items) - 10} more")
    n = sum(len(golden_file.data_files(golden_file.DATA_RECORDERS[name].outputs))
            for name in names or golden_file.DATA_RECORDERS)
    print(f"{len(found)} of {n} recorded data files not current, in {len(by_name)} recorders")
    for name in names or sorted(golden_file.DATA_RECORDERS):
        old = golden_file.adopted(name)
        if old:
            print(f"(not re-recorded: data {name}, {len(old)} files: {next(iter(old.values()))})")
    if not names:
        for path, why in sorted(golden_file.UNRECORDED_DATA.items()):
            print(f"(no recorder: {path}, {why})")
    return 1 if found else 0


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
    print("data recorders (--data NAME [ARG ...]: files under tests/data, provenance in tests/data/provenance):")
    for name, r in sorted(DATA_RECORDERS.items()):
        print(f"    {name:20s} {' '.join([r.script, *r.args])}" + (f"  (needs {r.needs})" if r.needs else ""))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--data"]:  # the rest is the data recorder's own command line
        if len(argv) < 2 or argv[1] not in DATA_RECORDERS:
            sys.exit(f"--data takes one of {', '.join(sorted(DATA_RECORDERS))}")
        return record_data(argv[1], argv[2:])
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", help="case modules or recorders' golden names, or (--check) data "
                   "recorders (default: all)")
    p.add_argument("--check", action="store_true", help="report answers that are not current (no Paddle needed)")
    p.add_argument("--cases", action="store_true", help="record every case module, no recorder")
    p.add_argument("--list", action="store_true", help="list the goldens and recorders")
    p.add_argument("--data", metavar="RECORDER", help="run a data recorder (first option; what follows is its own)")
    a = p.parse_args(argv)
    if a.list:
        return list_all()
    if a.check:  # the goldens and the recorded data, or the named ones (golden names or data recorders)
        data = [n for n in a.names if n in DATA_RECORDERS]
        goldens = [n for n in a.names if n not in DATA_RECORDERS]
        codes = ([check(goldens or None)] if goldens or not a.names else []) + (
            [check_data(data or None)] if data or not a.names else [])
        return max(codes)
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
