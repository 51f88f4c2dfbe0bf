"""Run PaConvert-style tests (torch code, converted to Paddle 3.3 code, both run and compared) under real
Paddle and under paddle_on_torch, and report paddle_on_torch's pass rate over the cases real Paddle passes.

The tests are not in this repo: a folder of PaConvert's tests/test_*.py with its tests/apibase.py harness
(see docs/testing.md, "PaConvert's suite").  The converter (paconvert, with astor / black / isort) is installed
with `pip install --target SITE`; SITE is appended to sys.path, so it never shadows either environment's packages.

    python tools/paconvert_suite.py TESTS_DIR --site SITE [--oracle /root/oracle/bin/python] [-k EXPR]
        [--files test_a.py test_b.py ...] [--json OUT.json]

Each environment runs every file in one child process under pytest (a case over --timeout seconds fails);
the shim child calls paddle_on_torch.install() first, the oracle child refuses to run if `import paddle` is the
shim.  A case counts only where torch's side ran and real Paddle passed.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))


def _child(args) -> None:
    """Runs pytest over the files in this process and writes {nodeid: [outcome, first error line]}."""
    sys.path.append(args.site)
    sys.path.insert(0, args.tests)
    if args.child == "shim":
        import paddle_on_torch

        paddle_on_torch.install()
    import paddle

    if args.child == "oracle" and "paddle_on_torch" in (paddle.__file__ or ""):
        raise SystemExit("the oracle's `import paddle` is paddle_on_torch")
    import signal

    import pytest

    results = {}

    class Recorder:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item):
            def expire(*_):
                raise TimeoutError(f"over {args.timeout} s")

            old = signal.signal(signal.SIGALRM, expire)
            signal.alarm(args.timeout)
            try:
                yield
            finally:
                signal.alarm(0)
                signal.signal(signal.SIGALRM, old)

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(self, item, call):
            report = (yield).get_result()
            if report.when == "call" or report.outcome != "passed":
                text = ""
                if report.failed:
                    crash = getattr(report.longrepr, "reprcrash", None)
                    text = str(crash.message if crash else report.longrepr)
                results.setdefault(f"{item.path.name}::{item.name}", [report.outcome, text[:2000]])

    files = [os.path.join(args.tests, f) for f in args.files]
    with tempfile.TemporaryDirectory() as work:  # the converter writes test_project/ under the cwd
        os.chdir(work)
        pytest.main(["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--rootdir", work, "-c", os.devnull,
                     "--tb=line", *(["-k", args.k] if args.k else []), *files],
                    plugins=[Recorder()])
    with open(args.out, "w") as f:
        json.dump(results, f, indent=0, sort_keys=True)


def _run_env(args, env: str, python: str, out: str) -> dict:
    cmd = [python, os.path.abspath(__file__), args.tests, "--site", args.site, "--child", env, "--out", out,
           "--timeout", str(args.timeout), "--files", *args.files, *(["-k", args.k] if args.k else [])]
    environ = dict(os.environ, PYTHONPATH=os.path.dirname(HERE))
    proc = subprocess.run(cmd, env=environ, capture_output=True, text=True)
    if not os.path.exists(out):
        raise SystemExit(f"{env} run failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    with open(out) as f:
        return json.load(f)


def _reason(text: str) -> str:
    """The line that says why: the paddle side's error or the mismatch."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for i, ln in enumerate(lines):
        if ln.startswith("RuntimeError: Failed to execute paddle code") and i + 1 < len(lines):
            return lines[i + 1][:300]
        if "Unable to align results" in ln:
            return ln.split("Unable to align results:", 1)[-1].strip()[:300]
    return (lines[0] if lines else "")[:300]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tests")
    p.add_argument("--site", required=True)
    p.add_argument("--oracle", default="/root/oracle/bin/python")
    p.add_argument("--files", nargs="*")
    p.add_argument("-k", default=None)
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--json", default=None, help="write both environments' per-case outcomes here")
    p.add_argument("--reuse-oracle", default=None, help="a --json file whose oracle outcomes are reused")
    p.add_argument("--child", choices=["oracle", "shim"], help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    args = p.parse_args()
    args.tests, args.site = os.path.abspath(args.tests), os.path.abspath(args.site)
    if not args.files:
        args.files = sorted(f for f in os.listdir(args.tests) if f.startswith("test_") and f.endswith(".py"))
    if args.child:
        return _child(args)
    with tempfile.TemporaryDirectory() as tmp:
        if args.reuse_oracle:
            with open(args.reuse_oracle) as f:
                oracle = json.load(f)["oracle"]
        else:
            oracle = _run_env(args, "oracle", args.oracle, os.path.join(tmp, "oracle.json"))
        shim = _run_env(args, "shim", sys.executable, os.path.join(tmp, "shim.json"))
    counted = sorted(k for k, v in oracle.items() if v[0] == "passed" and k in shim)
    failed = [k for k in counted if shim[k][0] != "passed"]
    for k in failed:
        print(f"FAIL {k}: {_reason(shim[k][1])}")
    per_file = Counter(k.split("::")[0] for k in failed)
    print("failures per file:", dict(per_file.most_common()))
    print(f"real Paddle passes {len(counted)} of {len(oracle)} cases; paddle_on_torch passes "
          f"{len(counted) - len(failed)} of those ({100.0 * (len(counted) - len(failed)) / max(len(counted), 1):.1f}%)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"oracle": oracle, "shim": shim}, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
