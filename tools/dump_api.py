"""Record the public API names of real Paddle (run with the oracle interpreter).

    ~/oracle/bin/python tools/dump_api.py

Writes paddle_on_torch/_paddle_api.json: for each namespace, its public names
and their kind.  paddle_on_torch uses it to tell "Paddle has this, we do not"
(NotImplementedError naming the API) apart from a plain typo (AttributeError),
and the `check` CLI uses it to score scripts.  Names only, no Paddle code.
"""
import importlib
import inspect
import json
import os
import sys

NAMESPACES = [
    "paddle", "paddle.nn", "paddle.nn.functional", "paddle.nn.initializer", "paddle.nn.utils",
    "paddle.nn.quant", "paddle.optimizer", "paddle.optimizer.lr", "paddle.io", "paddle.linalg",
    "paddle.fft", "paddle.signal", "paddle.special", "paddle.distributed", "paddle.distributed.fleet",
    "paddle.vision", "paddle.vision.models", "paddle.vision.transforms", "paddle.vision.datasets",
    "paddle.vision.ops", "paddle.metric", "paddle.amp", "paddle.jit", "paddle.static", "paddle.static.nn",
    "paddle.autograd", "paddle.device", "paddle.device.cuda", "paddle.distribution", "paddle.sparse",
    "paddle.incubate", "paddle.incubate.autograd", "paddle.incubate.nn", "paddle.incubate.nn.functional",
    "paddle.inference", "paddle.text", "paddle.utils", "paddle.hapi", "paddle.callbacks", "paddle.regularizer",
    "paddle.sysconfig", "paddle.onnx", "paddle.profiler", "paddle.geometric", "paddle.audio", "paddle.quantization",
    "paddle.framework", "paddle.version", "paddle.cuda",
]


def kind(obj):
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "value"


def main():
    import paddle
    import paddle.tensor

    out = {"paddle_version": paddle.__version__, "namespaces": {}}
    for ns in NAMESPACES:
        try:
            mod = importlib.import_module(ns)
        except Exception as e:  # noqa: BLE001 - some namespaces need optional deps
            print(f"skip {ns}: {e}", file=sys.stderr)
            continue
        names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
        out["namespaces"][ns] = {n: kind(getattr(mod, n, None)) for n in sorted(set(names)) if hasattr(mod, n)}
    out["tensor_methods"] = sorted(set(paddle.tensor.tensor_method_func))
    from paddle.base import core

    # values are JSON-able defaults (numbers, bools, strings)
    out["flags"] = {k: core.globals()[k] for k in sorted(core.globals().keys())}
    t = paddle.to_tensor([1.0])
    out["tensor_attributes"] = sorted(n for n in dir(t) if not n.startswith("__"))
    path = os.path.join(os.path.dirname(__file__), "..", "paddle_on_torch", "_paddle_api.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    print("wrote", os.path.normpath(path), sum(len(v) for v in out["namespaces"].values()), "names")


if __name__ == "__main__":
    main()
