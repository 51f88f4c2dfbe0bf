"""Run shared/docex on the examples whose id matches a regex, and compare just those.

    ~/oracle/bin/python tools/docex_area.py '^paddle\.(Tensor\.)?(sum|mean)#' [--failures 40]

Needs /tmp/docex/ex.jsonl and /tmp/docex/real.jsonl (docex's extract and `run --impl real`,
see docs/testing.md).  The shim side is re-run each time; the real side is only filtered.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCEX = os.path.join(ROOT, "..", "shared", "docex", "docex.py")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("only")
    ap.add_argument("--failures", default="60")
    ap.add_argument("--dir", default="/tmp/docex")
    ap.add_argument("--tag", default=str(os.getpid()))
    a = ap.parse_args()
    ex, real = os.path.abspath(os.path.join(a.dir, "ex.jsonl")), os.path.join(a.dir, "real.jsonl")
    shim = os.path.abspath(os.path.join(a.dir, f"shim-{a.tag}.jsonl"))
    sub_real = os.path.join(a.dir, f"real-{a.tag}.jsonl")
    with tempfile.TemporaryDirectory() as scratch:  # examples write files into their working directory
        subprocess.run([sys.executable, DOCEX, "run", "--impl", "shim", "--project", ROOT, "--examples", ex,
                        "--out", shim, "--only", a.only], check=True, cwd=scratch)
    pat = re.compile(a.only)
    with open(sub_real, "w") as out:
        for line in open(real):
            if pat.search(json.loads(line)["id"]):
                out.write(line)
    subprocess.run([sys.executable, DOCEX, "compare", sub_real, shim, "--examples", ex, "--by", "namespace",
                    "--failures", a.failures], check=True)


if __name__ == "__main__":
    main()
