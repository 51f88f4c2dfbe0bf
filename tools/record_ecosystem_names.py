"""Scan Paddle's libraries (installed in this environment, e.g. with --no-deps) with `paddle-on-torch check
--package`, resolve every Paddle name they reference in real Paddle too, and record the result for
tests/test_check_package.py (tests/data/ecosystem_names.json) and docs/ecosystem.md (the table it prints).

    python tools/record_ecosystem_names.py [--reference ~/oracle/bin/python] [LIBRARY ...]

Run with the dev environment (the shim importable as paddle_on_torch); the reference interpreter's
`import paddle` must be real Paddle 3.3.1.  Nothing of the libraries is imported: the scan reads their sources.
"""
import argparse
import importlib.metadata
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from paddle_on_torch.cli.check import check_files, package_paths  # noqa: E402

# label -> (import name scanned, distribution whose version is recorded)
LIBRARIES = {
    "PaddleNLP": ("paddlenlp", "paddlenlp"),
    "PaddleFormers": ("paddleformers", "paddleformers"),
    "PaddleScience": ("ppsci", "paddlesci"),
    "PaddleOCR": ("paddleocr", "paddleocr"),
    "PaddleDetection": ("ppdet", "paddledet"),
    "PaddleSeg": ("paddleseg", "paddleseg"),
    "PaddleClas": ("paddleclas", "paddleclas"),
    "PaddleSpeech": ("paddlespeech", "paddlespeech"),
    "PaddleX": ("paddlex", "paddlex"),
}
OUT = os.path.join(ROOT, "tests", "data", "ecosystem_names.json")


def status(e):
    return "supported" if e["supported"] else "unsupported" if e.get("unsupported") else "missing"


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", default=os.path.expanduser("/work/oracle/bin/python"))
    ap.add_argument("--folder", nargs=3, action="append", default=[], metavar=("LABEL", "DIR", "VERSION"),
                    help="also scan a library's sources unpacked in DIR (PaddleOCR 2.x's wheel: ppocr, tools)")
    ap.add_argument("libraries", nargs="*", default=None)
    ap.add_argument("--refresh", action="store_true",
                    help="only resolve the recorded names again (after a change here), without rescanning")
    args = ap.parse_args(argv)
    if args.refresh:
        return refresh()
    if args.libraries is None or (not args.libraries and not args.folder):
        args.libraries = list(LIBRARIES)
    data = {"libraries": {}, "names": {}}
    if os.path.exists(OUT):
        with open(OUT) as f:
            data = json.load(f)
    jobs = [(label, LIBRARIES[label][0], package_paths(LIBRARIES[label][0]),
             importlib.metadata.version(LIBRARIES[label][1])) for label in args.libraries]
    jobs += [(label, os.path.basename(os.path.normpath(folder)), [folder], version)
             for label, folder, version in args.folder]
    for label, module, paths, version in jobs:
        result = check_files(paths, args.reference)
        data["paddle"] = result["reference"]["paddle"]
        t = result["total"]
        for k in ("in_reference", "reference_supported", "reference_unsupported"):
            t.setdefault(k, 0)  # a library that references no Paddle name
        t.setdefault("reference_coverage", 100.0)
        t.setdefault("reference_resolved_coverage", 100.0)
        apis = {}
        for name, e in t["apis"].items():
            apis[name] = [e["count"], e["files"], e["in_reference"]]
            data["names"][name] = status(e)
        data["libraries"][label] = {"package": module, "version": version, "files": t["files"],
                                    "apis": dict(sorted(apis.items()))}
        print(f"| {label} ({module} {version}) | {t['files']} | {t['distinct']} | "
              f"{t['in_reference']} | {t['reference_supported']} ({t['reference_coverage']}%) | "
              f"{t['reference_unsupported']} | {t['in_reference'] - t['reference_supported'] - t['reference_unsupported']}"
              f" | {t['reference_resolved_coverage']}% |", flush=True)
    write(data)


def refresh():
    from paddle_on_torch.cli.check import _Resolver

    with open(OUT) as f:
        data = json.load(f)
    resolver = _Resolver()
    for name in data["names"]:
        _, ok, _, says_so = resolver.classify(name)
        data["names"][name] = "supported" if ok else "unsupported" if says_so else "missing"
    write(data)


def write(data):
    used = {n for lib in data["libraries"].values() for n in lib["apis"]}
    data["names"] = {n: s for n, s in sorted(data["names"].items()) if n in used}
    tmp = OUT + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=0, sort_keys=True)
        f.write("\n")
    os.replace(tmp, OUT)


if __name__ == "__main__":
    main()
