"""paddle.save / paddle.load compatibility files, both directions (run with the oracle interpreter).

    ~/oracle/bin/python tools/record_io_files.py           # record: real Paddle writes tests/data/io/
    ~/oracle/bin/python tools/record_io_files.py --verify  # check: paddle_on_torch saves, real Paddle loads

Record: real Paddle 3.3.1 saves a layer's and an optimizer's state dicts (protocols 2 and 4), nested
containers (protocols 2, 3, 4), a lone Tensor, a state dict in the split big-array layout, Tensors in
the binary DenseTensor format and a safetensors file, into tests/data/io/ (a few KiB in all), and
writes expected.json: what real paddle.load returns for each (return_numpy False/True, with the name
table), described with tests/golden.describe plus the Tensor names.  tests/test_io.py loads the same
files under paddle_on_torch and requires the same answers bit for bit.

Verify: a subprocess running paddle_on_torch (never real Paddle) saves a set of objects with every
format and protocol; this process (real Paddle) loads each file and compares the values, dtypes,
types and names with what the subprocess meant to save.  Prints one line per file and exits non-zero
on any mismatch.  Then it loads each model-zoo state dict (tests/data/model_zoo) under paddle_on_torch,
saves it again with paddle_on_torch, and requires the real-Paddle model loaded from that file to
reproduce the recorded outputs exactly.  (The test suite runs without Paddle, so this check lives here.)
"""
import collections
import json
import os
import pickle
import subprocess
import sys
import tempfile
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

from tests import golden  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "io")


def names(obj):
    """Tensor names in a loaded object (generated names reduced to 'generated')."""
    if isinstance(obj, dict):
        return [[str(k), names(v)] for k, v in obj.items()]
    if isinstance(obj, (list, tuple)):
        return [names(v) for v in obj]
    if hasattr(obj, "stop_gradient") and hasattr(obj, "numpy"):
        return "generated" if obj.name.startswith("generated_tensor") else obj.name
    return type(obj).__name__


def describe(obj):
    return {"value": golden.describe(obj), "names": names(obj)}


def objects(paddle):
    """The objects both directions save (built the same way on either side)."""

    def named(values, name, dtype="float32"):
        t = paddle.to_tensor(values, dtype=dtype)
        t.name = name
        return t

    state = collections.OrderedDict()
    state["fc.weight"] = named(np.linspace(-1, 1, 12).reshape(3, 4), "linear_0.w_0")
    state["fc.bias"] = named([0.5, -0.25, 0.125, 2.0], "linear_0.b_0")
    state["bn._mean"] = named([0.1, 0.2, 0.3, 0.4], "batch_norm_0.w_1")
    state["bn.count"] = named([[1, 2], [3, 4]], "count_0", "int64")
    state["bn.flag"] = named([True, False], "flag_0", "bool")
    state["half"] = named([1.5, -2.0], "half_0", "float16")
    state["brain"] = named([1.5, -2.0, 3.0], "bf_0", "bfloat16")
    state["zero_d"] = named(3.25, "zero_d_0", "float64")
    state["cplx"] = named([1 + 2j, -3j], "cplx_0", "complex64")
    nested = [named([1.0, 2.0], "t_0"), np.arange(5, dtype="int32"),
              {"x": (1, 2.5, "ab", None, True), "y": [named([[7]], "t_1", "int64"), np.float32(1.5)]},
              collections.OrderedDict(k=np.ones([2, 2])), {3, 4}, 3 + 4j, "text"]
    optimizer = {"fc.weight_moment1_0": named(np.full([3, 4], 0.01), "linear_0.w_0_moment1_0"),
                 "fc.weight_beta1_pow_acc_0": named([0.81], "linear_0.w_0_beta1_pow_acc_0"),
                 "LR_Scheduler": {"last_epoch": 2, "last_lr": 0.025}}
    # the split array last: Paddle's load puts a reassembled array after the other keys
    big = {"small": named([1.0], "small_0"),
           "emb": named(np.arange(40, dtype="float32").reshape(10, 4), "embedding_0.w_0")}
    return state, nested, optimizer, big


# =================================================================== record (real Paddle)


def record():
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "record_io_files must run under real Paddle"
    os.makedirs(DATA, exist_ok=True)
    state, nested, optimizer, big = objects(paddle)
    p = lambda name: os.path.join(DATA, name)  # noqa: E731

    paddle.save(state, p("state_p2.pdparams"), protocol=2)
    paddle.save(state, p("state_p4.pdparams"))
    paddle.save(optimizer, p("adam_p4.pdopt"))
    for proto in (2, 3, 4):
        paddle.save(nested, p(f"nested_p{proto}.pkl"), protocol=proto)
    paddle.save(state["fc.weight"], p("tensor_p4.pdtensor"))
    paddle.save(state["fc.weight"], p("tensor_f32.bin"), use_binary_format=True)
    paddle.save(state["bn.count"], p("tensor_i64.bin"), use_binary_format=True)
    paddle.save(state["brain"], p("tensor_bf16.bin"), use_binary_format=True)
    paddle.save({k: state[k] for k in ("fc.weight", "fc.bias", "bn.count")}, p("state.safetensors"),
                safetensors=True)
    # The split layout Paddle writes for arrays over 1 GiB under protocols 2 and 3, at a small size:
    # Paddle's own splitting code with its threshold lowered, applied to the dict it would pickle.
    from paddle.framework import io_utils

    saved = {k: v.numpy() for k, v in big.items()}
    saved["StructuredToParameterName@@"] = {k: v.name for k, v in big.items()}
    emb = saved.pop("emb")
    flat = emb.flatten()
    saved["emb@@.0"], saved["emb@@.1"], saved["emb@@.2"] = flat[:16], flat[16:32], flat[32:]
    saved["UnpackBigParamInfor@@"] = {"emb": {"OriginShape": emb.shape, "slices": ["emb@@.0", "emb@@.1", "emb@@.2"]}}
    with open(p("split_p2.pdparams"), "wb") as f:
        pickle.dump(saved, f, protocol=2)
    assert io_utils._pack_loaded_dict(pickle.load(open(p("split_p2.pdparams"), "rb")))["emb"].shape == (10, 4)

    expected = {}
    for name in sorted(os.listdir(DATA)):
        if name == "expected.json":
            continue
        kw = {"safetensors": True} if name.endswith(".safetensors") else {}
        entry = {"default": describe(paddle.load(p(name), **kw)),
                 "return_numpy": describe(paddle.load(p(name), return_numpy=True, **kw))}
        if name.endswith((".pdparams", ".pdopt")):
            entry["keep_name_table"] = describe(paddle.load(p(name), keep_name_table=True))
        expected[name] = entry
    with open(p("expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
    total = sum(os.path.getsize(p(n)) for n in os.listdir(DATA))
    print(f"recorded {len(expected)} files with real Paddle {paddle.__version__} into "
          f"{os.path.relpath(DATA, ROOT)} ({total} bytes)")


# =================================================================== verify (shim saves, Paddle loads)

_SHIM_SIDE = r"""
import json, os, sys, warnings
warnings.filterwarnings("ignore")
sys.path.insert(0, {root!r})
import paddle_on_torch as paddle
import paddle_on_torch.framework.io as pio
assert "paddle_on_torch" in paddle.__file__
from tools.record_io_files import objects, describe
out = {out!r}
state, nested, optimizer, big = objects(paddle)
files = {{}}
def save(name, obj, want=None, **kw):
    paddle.save(obj, os.path.join(out, name), **kw)
    files[name] = describe(obj if want is None else want)
for proto in (2, 3, 4):
    save(f"state_p{{proto}}.pdparams", state, protocol=proto)
    save(f"nested_p{{proto}}.pkl", nested, protocol=proto)
save("adam.pdopt", optimizer)
save("tensor.pdtensor", state["fc.weight"])
save("tensor_bf16.pdtensor", state["brain"])
save("tensor_f32.bin", state["fc.weight"], use_binary_format=True)
save("tensor_i64.bin", state["bn.count"], use_binary_format=True)
save("tensor_bf16.bin", state["brain"], use_binary_format=True)
st = {{k: state[k] for k in ("fc.weight", "fc.bias", "bn.count")}}
save("state.safetensors", st, dict(sorted(st.items())), safetensors=True)  # safetensors orders keys
pio._MAX_PICKLE_BYTES = 64  # force Paddle's big-array splitting at a small size
save("split_p2.pdparams", big, protocol=2)
save("split_p3.pdparams", big, protocol=3)
pio._MAX_PICKLE_BYTES = 2**30 - 1
json.dump(files, open(os.path.join(out, "meant.json"), "w"))
# the model zoo: Paddle-recorded weights loaded here, then saved again by paddle_on_torch
paddle_on_torch = paddle
paddle_on_torch.install()
import importlib
from tests.model_zoo import MODELS
for name in MODELS:
    model = importlib.import_module("tests.model_zoo." + name).build()
    model.set_state_dict(paddle.load(os.path.join({root!r}, "tests", "data", "model_zoo", name + ".pdparams")))
    paddle.save(model.state_dict(), os.path.join(out, "zoo_" + name + ".pdparams"))
"""


def verify():
    import paddle

    assert "paddle_on_torch" not in paddle.__file__, "verify must load with real Paddle"
    failures = 0
    with tempfile.TemporaryDirectory() as out:
        code = _SHIM_SIDE.format(root=ROOT, out=out)
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        meant = json.load(open(os.path.join(out, "meant.json")))
        for name in sorted(meant):
            path = os.path.join(out, name)
            kw = {"safetensors": True} if name.endswith(".safetensors") else {}
            with open(path, "rb") as f:
                raw = f.read()
            try:
                got = describe(paddle.load(path, **kw))
            except Exception as e:  # noqa: BLE001
                print(f"FAIL {name}: real paddle.load raised {type(e).__name__}: {e}")
                failures += 1
                continue
            want = meant[name]
            problems = golden.compare(want["value"], got["value"], {"rtol": 0, "atol": 0, "random": False})
            if name.endswith((".pdparams", ".pdopt", ".pkl", ".pdtensor")) and got["names"] != want["names"]:
                problems.append(f"names: saved {want['names']}, Paddle loaded {got['names']}")
            extra = ""
            if name.startswith("split"):
                keys = list(pickle.loads(raw).keys())
                extra = f" (file keys {keys})"
                if not any(k.startswith("emb@@.") for k in keys) or "UnpackBigParamInfor@@" not in keys:
                    problems.append("no split entries in the file")
            if problems:
                failures += 1
                print(f"FAIL {name}:\n  " + "\n  ".join(problems))
            else:
                print(f"ok   {name}: real Paddle loads it with the same values, dtypes, types and names{extra}")
        print(f"verify: {len(meant) - failures}/{len(meant)} files saved by paddle_on_torch load correctly in real "
              f"Paddle {paddle.__version__}")
        failures += verify_zoo(paddle, out)
    return failures


def verify_zoo(paddle, out):
    """Model-zoo weights saved by paddle_on_torch, loaded into the real-Paddle models: same outputs, bit for bit."""
    import importlib

    from tests.model_zoo import MODELS, harness

    bad = 0
    for name in MODELS:
        mod = importlib.import_module(f"tests.model_zoo.{name}")
        recorded = dict(np.load(os.path.join(ROOT, "tests", "data", "model_zoo", f"{name}.npz")))
        arrays = [recorded[f"input{i}"] for i in range(sum(k.startswith("input") for k in recorded))]
        model = mod.build()
        missing, unexpected = model.set_state_dict(paddle.load(os.path.join(out, f"zoo_{name}.pdparams")))
        got = harness.eval_forward(model, arrays)
        same = not missing and not unexpected and all(np.array_equal(got[k], recorded[k]) for k in got)
        bad += not same
        print(f"{'ok  ' if same else 'FAIL'} zoo_{name}.pdparams: real Paddle model loaded from paddle_on_torch's save "
              f"{'reproduces' if same else 'does not reproduce'} the recorded outputs exactly")
    print(f"verify: {len(MODELS) - bad}/{len(MODELS)} model-zoo state dicts saved by paddle_on_torch work in "
          "real Paddle")
    return bad


if __name__ == "__main__":
    os.environ.setdefault("GLOG_minloglevel", "3")
    warnings.filterwarnings("ignore")
    if sys.argv[1:] == ["--verify"]:
        sys.exit(1 if verify() else 0)
    elif not sys.argv[1:]:
        record()
    else:
        sys.exit(__doc__)
