"""Record what real Paddle's paddle.onnx.export (paddle2onnx) writes, for tests/test_onnx.py and docs/onnx.md.

    ~/oracle/bin/pip install paddle2onnx==2.1.0 onnxruntime   # once (paddle2onnx pins onnx 1.17)
    ~/oracle/bin/python tools/record_onnx.py                  # writes tests/golden/onnx_paddle.json

For every model-zoo model (tests/model_zoo, with its recorded weights) and the models of tests/onnx_models.py, it
exports with paddle.onnx.export at Paddle's default opset (9, which paddle2onnx raises where an operator needs
more), then runs the file in ONNX Runtime on the recorded inputs and stores: the opset written, the operator
types, the input and output names, the largest difference from Paddle's own eager outputs, or the error.  For
tests/onnx_models.py it also stores Paddle's eager outputs (two batch sizes), the goldens the shim's ONNX files
are checked against.  A few API answers are recorded too: the files one export writes, the error for a path
without a file name, the opset of a default export.
"""
import importlib
import json
import os
import sys
import tempfile
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
os.environ.setdefault("POLYGRAPHY_AUTOINSTALL_DEPS", "0")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_onnx must run under real Paddle"

import onnx  # noqa: E402
import onnxruntime as ort  # noqa: E402
import paddle2onnx  # noqa: E402

from tests import golden_file, onnx_models  # noqa: E402
from tests.model_zoo import MODELS  # noqa: E402

OUT = os.path.join(ROOT, "tests", "golden", "onnx_paddle.json")
ZOO = os.path.join(ROOT, "tests", "data", "model_zoo")


def _describe(path):
    m = onnx.load(path)
    dims = lambda v: [d.dim_value if d.HasField("dim_value") else -1 for d in v.type.tensor_type.shape.dim]  # noqa
    return {"opset": next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx")),
            "ops": sorted({n.op_type for n in m.graph.node}),
            "inputs": [[v.name, dims(v)] for v in m.graph.input],
            "outputs": [v.name for v in m.graph.output]}


def _export_and_run(model, specs, arrays, want, folder, name):
    prefix = os.path.join(folder, name)
    paddle.onnx.export(model, prefix, input_spec=specs)
    if not os.path.exists(prefix + ".onnx"):  # paddle2onnx logs its errors and returns
        return {"error": "paddle2onnx wrote no file"}
    info = _describe(prefix + ".onnx")
    sess = ort.InferenceSession(prefix + ".onnx", providers=["CPUExecutionProvider"])
    got = sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), arrays)})
    info["max_abs_diff"] = max(float(np.abs(g - w).max()) for g, w in zip(got, want))
    return info


def record_zoo_model(name, folder):
    mod = importlib.import_module(f"tests.model_zoo.{name}")
    rec = dict(np.load(os.path.join(ZOO, f"{name}.npz")))
    arrays = [rec[f"input{i}"] for i in range(sum(k.startswith("input") for k in rec))]
    want = [rec[f"eval/out{i}"] for i in range(sum(k.startswith("eval/out") for k in rec))]
    with paddle.utils.unique_name.guard():
        model = mod.build()
    model.set_state_dict(paddle.load(os.path.join(ZOO, f"{name}.pdparams")))
    model.eval()
    specs = [paddle.static.InputSpec(list(a.shape), str(a.dtype), f"x{i}") for i, a in enumerate(arrays)]
    return _export_and_run(model, specs, arrays, want, folder, name)


def record_extra_model(name, folder):
    with paddle.utils.unique_name.guard():
        model = onnx_models.build(name)
    eager = {}
    for batch in (2, 5):
        arrays = onnx_models.inputs(name, batch)
        with paddle.no_grad():
            res = model(*[paddle.to_tensor(a) for a in arrays])
        eager[str(batch)] = np.asarray(res.numpy()).tolist()
    try:
        info = _export_and_run(model, onnx_models.input_spec(name), onnx_models.inputs(name, 5),
                               [np.asarray(eager["5"], dtype="float32")], folder, name)
    except BaseException as e:  # noqa: BLE001 - a failed export is a result (paddle2onnx exits on errors)
        info = {"error": f"{type(e).__name__}: {e}"[:500]}
    info["eager"] = eager
    return info


def _in_child(kind, name):
    """One model in a fresh process: paddle2onnx can crash the interpreter; that is recorded as its result."""
    import subprocess

    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        p = subprocess.run([sys.executable, __file__, "--child", kind, name, f.name], capture_output=True, text=True)
        if p.returncode != 0:
            tail = (p.stderr.strip().splitlines() or [""])[-1]
            return {"error": f"the export process exited with {p.returncode}: {tail}"[:500]}
        return json.load(open(f.name))


def record_api(folder):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(4, 2)

        def forward(self, x):
            return self.fc(x)

    api = {}
    sub = os.path.join(folder, "api")
    os.makedirs(sub)
    paddle.onnx.export(Net(), os.path.join(sub, "net"), input_spec=[paddle.static.InputSpec([None, 4], "float32", "x")])
    api["files"] = sorted(os.listdir(sub))
    api["default_export"] = _describe(os.path.join(sub, "net.onnx"))
    try:
        paddle.onnx.export(Net(), sub + os.sep, input_spec=[paddle.static.InputSpec([None, 4], "float32", "x")])
        api["empty_prefix"] = "no error"
    except Exception as e:  # noqa: BLE001
        api["empty_prefix"] = type(e).__name__
    missing = os.path.join(folder, "no", "such", "dir", "net")
    try:  # paddle2onnx's logging.error ends with sys.exit(-1)
        paddle.onnx.export(Net(), missing, input_spec=[paddle.static.InputSpec([None, 4], "float32", "x")])
        api["missing_directory"] = "no error"
    except BaseException as e:  # noqa: BLE001
        api["missing_directory"] = type(e).__name__
    api["missing_directory_written"] = os.path.exists(missing + ".onnx")
    return api


def main():
    if sys.argv[1:2] == ["--child"]:
        kind, name, out = sys.argv[2:5]
        with tempfile.TemporaryDirectory() as folder:
            fn = record_zoo_model if kind == "zoo" else record_extra_model
            try:
                info = fn(name, folder)
            except BaseException as e:  # noqa: BLE001 - a failed export is a result (paddle2onnx exits on errors)
                info = {"error": f"{type(e).__name__}: {e}"[:500]}
        json.dump(info, open(out, "w"))
        return
    result = {"paddle2onnx_version": paddle2onnx.__version__, "onnxruntime_version": ort.__version__}
    with tempfile.TemporaryDirectory() as folder:
        result["api"] = record_api(folder)
    for kind, names in (("zoo", MODELS), ("extra", list(onnx_models.MODELS))):
        result[kind] = {}
        for name in names:
            result[kind][name] = _in_child(kind, name)
            print(kind, name, {k: v for k, v in result[kind][name].items() if k != "eager"}, flush=True)
    golden_file.write_recorded("onnx_paddle", result, paddle.__version__)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
