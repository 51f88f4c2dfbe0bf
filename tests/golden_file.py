"""tests/golden/*.json: one format for every recorded answer, each entry with its provenance.

    {"format": 1, "recorder": "cases",                      # which recorder refreshes the file
     "entries": {"<name>": {"paddle": "3.3.1",               # the Paddle version that answered
                            "source": "<sha256, 16 hex>",    # hash of what produced the answer
                            "answer": ...}}}                 # what Paddle computed (tests/golden.describe, ...)

`source` hashes a case's own source and the sources of the helpers and tables it reaches in tests/cases
(`case_hash`); for the other recorders, the recorder's script and the input files it reads (`RECORDERS`,
`inputs_hash`).  An entry whose hash differs from today's sources is stale: the case (or recorder) changed
after Paddle answered, and the answer must be refreshed with `tools/record.py` under the oracle.

The files under tests/data (weights, losses, programs: inputs of their tests) have their provenance per data
recorder (DATA_RECORDERS), in tests/data/provenance/<recorder>.json: each file's sha256, the hash of the recorder's
script and inputs when it wrote it, and the versions of Paddle and the libraries it used (`stamp_data`, which
`tools/record.py --data NAME` calls after the recorder ran; `data_staleness`).

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


# ------------------------------------------------------------------------------------------ recorded data

class DataRecorder:
    """A script that writes inputs of tests under tests/data (weights, losses, programs, tables): not answers
    compared entry by entry, but files.  Their provenance is one file per recorder (`provenance_path`): per file
    written, its sha256, the hash of the recorder's script and inputs when it was written, and the versions of
    Paddle and of the libraries the recorder used."""

    def __init__(self, outputs, inputs=(), libraries=(), script=None, args=(), needs=""):
        self.outputs = list(outputs)  # files or folders it writes, relative to the repository root
        self.inputs = list(inputs)  # what the recorded files depend on beside the script
        self.libraries = list(libraries)  # distributions it imports beside paddlepaddle (their versions are kept)
        self.script = script  # None: tools/record_<name>.py
        self.args = list(args)  # the script's own command line to record (before any names given)
        self.needs = needs  # what the oracle needs beside Paddle to run it

    def source_hash(self):
        return inputs_hash([self.script, *self.inputs])


# data recorder name (`tools/record.py --data NAME`) -> what it writes and reads
DATA_RECORDERS = {
    "c_ops": DataRecorder(["paddle_on_torch/_C_ops_signatures.json"]),  # the shim's table of Paddle's headers
    "ecosystem_names": DataRecorder(["tests/data/ecosystem_names.json"], needs="the dev interpreter (the shim's "
                                    "check) with the libraries it scans installed; --reference the oracle"),
    "examples": DataRecorder(["tests/data/examples"], ["examples/lenet_mnist_hapi.py",
                             "examples/resnet_momentum_amp.py", "examples/gpt_adamw_resume.py"]),
    "inference_models": DataRecorder(["tests/data/inference_models"], ["tests/model_zoo"]),
    "io_files": DataRecorder(["tests/data/io"], ["tests/golden.py", "tests/model_zoo", "tests/data/model_zoo"]),
    "llama_auto": DataRecorder(["tests/data/llama_auto"], ["tests/llama_auto_cases.py"], ["paddlenlp"],
                               needs="paddlenlp==3.0.0b4"),
    "llama_parallelize": DataRecorder(["tests/data/llama_parallelize"], [
        "tests/llama_parallelize_cases.py", "tests/llama_auto_cases.py", "tools/record_llama_auto.py"],
        ["paddlenlp"], needs="paddlenlp==3.0.0b4"),
    "model_zoo": DataRecorder(["tests/data/model_zoo"], ["tests/model_zoo"]),
    "paddleformers": DataRecorder(["tests/data/paddleformers"], [
        "tests/paddleformers_cases.py", "tests/paddlenlp_cases.py", "tools/record_paddlenlp.py"],
        ["paddleformers", "transformers"], needs="paddleformers==1.2.0 (tests/requirements-paddleformers.txt)"),
    "paddlenlp": DataRecorder(["tests/data/paddlenlp"], ["tests/paddlenlp_cases.py"], ["paddlenlp"],
                              needs="paddlenlp==3.0.0b4"),
    "pinn": DataRecorder(["tests/data/pinn"], ["examples/pinn_poisson.py"]),
    "pir_programs": DataRecorder(["tests/data/pir_writer"], ["tests/pir_writer_models.py",
                                                             "tests/cases/jit_control_flow.py"]),
    "pir_roundtrip": DataRecorder(["tests/data/pir_roundtrip"], ["tests/pir_writer_models.py",
                                                                 "tests/cases/jit_control_flow.py"]),
    "ppsci": DataRecorder(["tests/data/ppsci"], ["tests/ppsci_cases.py", "tests/ppsci_program",
                                                 "tools/run_ppsci_example.py"], ["paddlesci"],
                          needs="paddlesci==1.4.0; --examples also PaddleScience's examples folder"),
    "seeded_training": DataRecorder(["tests/data/seeded_training"], ["examples/seeded_training.py"]),
    "static": DataRecorder(["tests/data/static"], ["examples/static_mnist_fc.py", "examples/static_conv_bn.py",
                                                   "examples/static_control_flow.py"],
                           script="tests/test_static_examples.py", args=["--record"]),
    "static_pir": DataRecorder(["tests/data/static_pir"], ["tests/static_pir_models.py"]),
    "vision_models": DataRecorder(["tests/data/vision_models"], ["tests/test_vision_models.py"]),
}
for _name, _r in DATA_RECORDERS.items():
    _r.script = _r.script or f"tools/record_{_name}.py"

# files under tests/data that no recorder writes, and why
UNRECORDED_DATA = {
    "tests/data/cli": "small scripts written by hand for `paddle-on-torch check`'s tests",
    "tests/data/jit": "linear_bn.pdiparams: written once by real Paddle's jit.save for tests/test_jit.py "
                      "(no recorder)",
}
PROVENANCE_DIR = os.path.join(ROOT, "tests", "data", "provenance")


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


# --------------------------------------------------------------------------------- recorded data: provenance
#
# tests/data/provenance/<recorder>.json:
#     {"format": 1, "recorder": "model_zoo",
#      "files": {"tests/data/model_zoo/lenet.npz": {"sha256": <file's sha256>,
#                                                   "source": <the recorder's source_hash() when it wrote it>,
#                                                   "versions": {"paddlepaddle": "3.3.1", ...}}}}
# tools/record.py --data stamps what a recorder run wrote (`stamp_data`).  A file kept from before provenance,
# whose recording could not be repeated here, is stamped with "recorded_by" saying where it came from and the
# versions known ("unknown" where none is) (`adopted`): --check lists it, and it is stale like any other once the
# file, or its recorder or inputs, change.

UNKNOWN = "unknown"


def provenance_path(name):
    return os.path.join(PROVENANCE_DIR, f"{name}.json")


def data_refresh_command(name):
    return f"{RECORD} --data {name}"


def file_sha256(rel):
    h = hashlib.sha256()
    with open(os.path.join(ROOT, rel), "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def data_files(paths):
    """The files under `paths` (files or folders relative to the root), as sorted relative paths."""
    out = []
    for rel in paths:
        full = os.path.join(ROOT, rel)
        if os.path.isfile(full):
            out.append(rel)
        for d, dirs, fs in os.walk(full):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            out += [os.path.relpath(os.path.join(d, f), ROOT) for f in fs if not f.endswith((".pyc", ".tmp"))]
    return sorted(out)


def read_provenance(name):
    """{file: {"sha256", "source", "versions"[, "recorded_by"]}} of a data recorder ({} before its first stamp)."""
    try:
        with open(provenance_path(name)) as f:
            return json.load(f)["files"]
    except FileNotFoundError:
        return {}


def write_provenance(name, files):
    """Write tests/data/provenance/<name>.json atomically (a temporary file beside it, then a rename)."""
    os.makedirs(PROVENANCE_DIR, exist_ok=True)
    path = provenance_path(name)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump({"format": FORMAT, "recorder": name, "files": dict(sorted(files.items()))}, f, indent=1,
                  sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)
    return path


def stamp_data(name, written, versions, recorded_by=None):
    """Record that `written` (relative paths) came from today's recorder `name` under `versions`; the other
    files keep their stamps, and stamps of files that are gone are dropped."""
    rec = DATA_RECORDERS[name]
    source = rec.source_hash()
    files = {f: e for f, e in read_provenance(name).items() if os.path.isfile(os.path.join(ROOT, f))}
    for f in written:
        files[f] = {"sha256": file_sha256(f), "source": source, "versions": dict(versions)}
        if recorded_by:
            files[f]["recorded_by"] = recorded_by
    return write_provenance(name, files)


def adopted(name):
    """{file: recorded_by} of the files stamped without being recorded again (`stamp_data`'s recorded_by)."""
    return {f: e["recorded_by"] for f, e in read_provenance(name).items() if "recorded_by" in e}


def data_staleness(name):
    """{file (or "*"): why} for a data recorder's files that are not what today's recorder wrote (empty: all
    current).  Paddle's version must be the one the project matches, or unknown (an adopted file)."""
    files = read_provenance(name)
    if not os.path.exists(provenance_path(name)):
        return {"*": "no provenance (tests/data/provenance/%s.json)" % name}
    source = DATA_RECORDERS[name].source_hash()
    out = {}
    on_disk = data_files(DATA_RECORDERS[name].outputs)
    for f in on_disk:
        e = files.get(f)
        paddle = (e or {}).get("versions", {}).get("paddlepaddle")
        if e is None:
            out[f] = "written without provenance (not by tools/record.py --data)"
        elif e["sha256"] != file_sha256(f):
            out[f] = "changed after it was recorded"
        elif e["source"] != source:
            out[f] = "the recorder or its inputs changed after it was recorded"
        elif paddle not in (PADDLE_VERSION, UNKNOWN):
            out[f] = f"recorded by Paddle {paddle}, not {PADDLE_VERSION}"
    out.update({f: "recorded but missing" for f in files if f not in on_disk})
    return out


def unowned_data():
    """Files under tests/data that no data recorder writes and UNRECORDED_DATA does not explain."""
    owned = [p for r in DATA_RECORDERS.values() for p in r.outputs] + list(UNRECORDED_DATA)
    owned.append(os.path.relpath(PROVENANCE_DIR, ROOT))
    return [f for f in data_files(["tests/data"])
            if not any(f == p or f.startswith(p.rstrip("/") + "/") for p in owned)]
