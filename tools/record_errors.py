"""Record real Paddle's answers to the bad-input sweep of tests/error_props.py (run under the oracle interpreter).

    ~/oracle/bin/python tools/record_errors.py          # writes tests/golden/error_props.json

Every case of `error_props.cases()` runs under real Paddle 3.3.1; the answer is the error it raised (type,
Paddle's error class such as "InvalidArgument", and the first line of the message without Paddle's C++
hint) or a description of what it returned.  Paddle aborts the process on a few bad inputs, so the cases
run in a child process that reports one JSON line per case; a case that kills the child (or runs past
TIMEOUT_S) is recorded as {"crash": ...} and the next child starts after it.
"""
import json
import os
import queue
import subprocess
import sys
import threading
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
TIMEOUT_S = 30
MARK = "@@record_errors "  # our lines on the child's stdout (Paddle prints there too)


def child(start):
    os.environ.setdefault("GLOG_minloglevel", "3")
    warnings.filterwarnings("ignore")
    import paddle

    from tests import error_props

    assert "paddle_on_torch" not in paddle.__file__, "record_errors must run under real Paddle"
    names = list(error_props.cases().items())
    for i in range(start, len(names)):
        name, (fn, _) = names[i]
        paddle.disable_static()
        paddle.set_default_dtype("float32")
        paddle.seed(2024)
        print(MARK + json.dumps({"i": i, "name": name, "started": True}), flush=True)
        answer = error_props.describe(lambda: fn(paddle))
        print(MARK + json.dumps({"i": i, "name": name, "answer": answer}), flush=True)


def _lines(stream, q):
    for line in stream:
        q.put(line)
    q.put(None)  # the child is gone


def main():
    from importlib.metadata import version

    from tests import error_props, golden_file

    names = list(error_props.cases())
    out, start = {}, 0
    while start < len(names):
        p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", str(start)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        q = queue.Queue()
        threading.Thread(target=_lines, args=(p.stdout, q), daemon=True).start()
        current = None
        while True:
            try:
                line = q.get(timeout=TIMEOUT_S)
            except queue.Empty:  # hung
                p.kill()
                line = "timeout"
            if line is None or line == "timeout":
                p.wait()
                if current is not None:
                    why = "timeout" if line == "timeout" else f"exit status {p.returncode}"
                    out[names[current]] = {"crash": why}
                    print(f"{names[current]}: Paddle {why}", file=sys.stderr)
                    start = current + 1
                else:
                    start = len(names)
                break
            if not line.startswith(MARK):
                continue
            msg = json.loads(line[len(MARK):])
            if "started" in msg:
                current = msg["i"]
            else:
                out[msg["name"]] = msg["answer"]
                current = None
    path = golden_file.write_recorded("error_props", out, version("paddlepaddle"))
    print(f"{len(out)} cases, {sum('error' in v for v in out.values())} errors, "
          f"{sum('crash' in v for v in out.values())} crashes -> {os.path.relpath(path, ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(int(sys.argv[2]))
    else:
        main()
