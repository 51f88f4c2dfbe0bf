"""tests/golden/*.json: one format for every recorded answer, each entry with its provenance.

    {"format": 1, "recorder": "cases",                      # which recorder refreshes the file
     "entries": {"<name>": {"paddle": "3.3.1",               # the Paddle version that answered
                            "source": "<sha256, 16 hex>",    # hash of what produced the answer
                            "answer": ...}}}                 # what Paddle computed (tests/golden.describe, ...)

`source` hashes a case's own source and the sources of the helpers and tables it reaches in tests/cases
(`case_hash`); for the other recorders, the recorder's script and the input files it reads (`RECORDERS`,
`inputs_hash`).  An entry whose hash differs from today's sources is stale: the case (or recorder) changed
after Paddle answered, and the answer must be refreshed with `tools/record.py` under the oracle.

Used on both sides: by the recorders under real Paddle and by the tests (and `tools/record.py --check`)
without it.  Never imports paddle.
"""
import ast
import hashlib
import inspect
import json
import os
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN_DIR = os.path.join(ROOT, "tests", "golden")
FORMAT = 1
PADDLE_VERSION = "3.3.1"  # the Paddle release the project matches: an answer from another is stale
RECORD = "~/oracle/bin/python tools/record.py"  # the refresh command (run under real Paddle)


class Recorder:
    """A tools/record_*.py script that writes one golden file, and what its answers depend on."""

    def __init__(self, script, inputs, needs=""):
        self.script = script  # relative to the repository root
        self.inputs = inputs  # files (or folders) whose contents the answers depend on, the script included
        self.needs = needs  # what the oracle needs beside Paddle to run it

    def source_hash(self):
        return inputs_hash([self.script, *self.inputs])


# golden file name (tests/golden/<name>.json) -> its recorder; every other golden file holds tests/cases/<name>.py
RECORDERS = {
    "api_kinds": Recorder("tools/record_api_kinds.py", ["tests/api_kinds.py", "paddle_on_torch/_paddle_api.json"]),
    "custom_ops": Recorder("tools/record_custom_ops.py", ["tests/custom_op_cases.py", "tests/custom_ops"]),
    "dist_outside_mesh": Recorder("tools/record_outside_mesh.py", ["tests/dist_scripts/outside_mesh.py"]),
    "dist_outside_mesh_pipeline": Recorder("tools/record_outside_mesh.py",
                                           ["tests/dist_scripts/outside_mesh_pipeline.py"]),
    "error_props": Recorder("tools/record_errors.py", ["tests/error_props.py"]),
    "onnx_paddle": Recorder("tools/record_onnx.py", ["tests/onnx_models.py", "tests/model_zoo"],
                            needs="paddle2onnx==2.1.0 onnxruntime"),
    "paddleclas": Recorder("tools/record_paddleclas.py", ["tests/paddleclas_models.py"], needs="paddleclas==2.6.0"),
    "shared_names": Recorder("tools/record_shared_names.py", []),
    "signatures": Recorder("tools/record_signatures.py", ["tests/signature_probe.py", "tools/dump_api.py"]),
    "threads": Recorder("tools/record_threads.py", []),
}

# golden files that are reports of the shim's output run through real Paddle, merged model by model over hours
# (not Paddle's answers to a fixed input): their tools keep them, --check leaves them out
REPORTS = {
    "pir_corpus": "tools/pir_corpus.py: paddle_on_torch's jit.save of each corpus model, run by real Paddle",
}


def path_of(name):
    return os.path.join(GOLDEN_DIR, f"{name}.json")


def refresh_command(name):
    return f"{RECORD} {name}"


# ------------------------------------------------------------------------------------------------ hashes

def _digest(parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def inputs_hash(paths):
    """Hash of the contents of files (a folder: every file under it), by path relative to the root."""
    parts = []
    for rel in paths:
        full = os.path.join(ROOT, rel)
        files = [full] if os.path.isfile(full) else sorted(
            os.path.join(d, f) for d, dirs, fs in os.walk(full) for f in fs
            if "__pycache__" not in d and not f.endswith(".pyc"))
        for f in files:
            with open(f, "rb") as fh:
                parts += [os.path.relpath(f, ROOT), hashlib.sha256(fh.read()).hexdigest()]
    return _digest(parts)


def _code_names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if inspect.iscode(c):
            names |= _code_names(c)
    return names


_ASSIGNMENTS = {}  # case module name -> {global name: the source of its top-level assignments}


def _assignments(module_name):
    """The top-level assignments of a case module by the names they bind (the text of a table of inputs is what
    its cases depend on; its value may change as cases run)."""
    if module_name not in _ASSIGNMENTS:
        module = sys.modules[module_name]
        src = inspect.getsource(module)
        out = {}
        for node in ast.parse(src).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for n in ast.walk(target):
                        if isinstance(n, ast.Name):
                            out.setdefault(n.id, []).append(ast.get_source_segment(src, node))
        _ASSIGNMENTS[module_name] = out
    return _ASSIGNMENTS[module_name]


def _is_case_code(obj):
    return ((inspect.isfunction(obj) or inspect.isclass(obj)) and (obj.__module__ or "").startswith("tests.cases")
            and "<locals>" not in obj.__qualname__)


def case_hash(fn):
    """Hash of a case's source and of what it reaches in tests/cases: helper functions and classes (followed
    through their own names) and the module-level assignments of the names it reads (tables of inputs)."""
    parts, seen, todo = [], set(), [fn]
    while todo:
        obj = todo.pop()
        key = f"{obj.__module__}.{obj.__qualname__}"
        if key in seen:
            continue
        seen.add(key)
        try:
            parts.append(key + "\n" + textwrap.dedent(inspect.getsource(obj)))
        except (OSError, TypeError):  # made at run time (type(...), a class factory): its maker's source counts
            parts.append(key)
        codes = [obj.__code__] if inspect.isfunction(obj) else [
            v.__code__ for v in vars(obj).values() if inspect.isfunction(v)]
        glb = obj.__globals__ if inspect.isfunction(obj) else vars(inspect.getmodule(obj))
        for name in sorted(set().union(*map(_code_names, codes)) if codes else ()):
            if name not in glb:
                continue
            v = glb[name]
            if _is_case_code(v):
                todo.append(v)
            elif name in _assignments(obj.__module__):
                parts.append(f"{key}:{name}=" + "\n".join(_assignments(obj.__module__)[name]))
    return _digest(sorted(parts))


# ------------------------------------------------------------------------------------------- reading, writing

def entry(answer, source, paddle_version):
    return {"paddle": paddle_version, "source": source, "answer": answer}


def write(name, entries, recorder="cases"):
    """Write tests/golden/<name>.json atomically (a temporary file beside it, then a rename)."""
    path = path_of(name)
    data = {"format": FORMAT, "recorder": recorder, "entries": dict(sorted(entries.items()))}
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
    return path


def write_recorded(name, answers, paddle_version):
    """A recorder's answers (one entry per top-level key), each stamped with the recorder's source hash."""
    source = RECORDERS[name].source_hash()
    return write(name, {k: entry(v, source, paddle_version) for k, v in answers.items()}, recorder=name)


def read(name):
    """The golden file's entries ({name: {"paddle", "source", "answer"}}); a file of the old format (answers
    only) gives entries without provenance ({"answer": ...} alone)."""
    path = path_of(name)
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, dict) and data.get("format") == FORMAT and "entries" in data:
        return data["entries"]
    return {k: {"answer": v} for k, v in data.items()}


def answers(name):
    """{entry name: answer} of a golden file (what a test compares with)."""
    return {k: e["answer"] for k, e in read(name).items()}


def staleness(entry_, source):
    """Why an entry is not the current answer to a case whose source hashes to `source` (None: it is)."""
    if "source" not in entry_:
        return "recorded without provenance"
    if entry_.get("paddle") != PADDLE_VERSION:
        return f"answered by Paddle {entry_.get('paddle')}, not {PADDLE_VERSION}"
    if entry_["source"] != source:
        return "its source changed after Paddle answered it"
    return None


def stale_message(name, key, why):
    return f"stale golden tests/golden/{name}.json[{key!r}]: {why}; refresh it with `{refresh_command(name)}`"


def recorder_staleness(name):
    """{entry: why} for a recorder's golden file that is not fresh (empty: all fresh)."""
    source = RECORDERS[name].source_hash()
    out = {}
    for key, e in read(name).items():
        why = staleness(e, source)
        if why:
            out[key] = why
    return out


def check_recorded(name):
    """Raise AssertionError naming the refresh command when a recorder's golden file is stale (for its test)."""
    bad = recorder_staleness(name)
    if bad:
        key, why = next(iter(bad.items()))
        raise AssertionError(stale_message(name, key, why) + (f" ({len(bad)} entries)" if len(bad) > 1 else ""))
