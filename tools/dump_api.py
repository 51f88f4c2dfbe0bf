"""Record the public API names of real Paddle (run with the oracle interpreter).

    ~/oracle/bin/python tools/dump_api.py

Writes paddle_on_torch/_paddle_api.json: for each namespace, its public names
(its __all__, and the names beyond it that its torch twin has: TORCH_TWIN) and their kind.  paddle_on_torch uses it to tell "Paddle has this, we do not"
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


# A public name beyond a namespace's __all__ belongs to the API when the namespace's torch twin has that name too:
# Paddle 3.3's PyTorch-style face (paddle.int, paddle.asin_, paddle.hann_window, paddle.nn.ZeroPad2d,
# paddle.functional) lives mostly outside __all__; Paddle's other names beyond __all__ are its own imports.
TORCH_TWIN = {"paddle": "torch", "paddle.nn": "torch.nn", "paddle.nn.functional": "torch.nn.functional",
              "paddle.linalg": "torch.linalg", "paddle.fft": "torch.fft", "paddle.special": "torch.special",
              "paddle.signal": "torch.signal", "paddle.functional": "torch.functional",
              "paddle.nn.attention": "torch.nn.attention", "paddle.nn.parameter": "torch.nn.parameter",
              "paddle.nn.modules": "torch.nn.modules", "paddle.cuda": "torch.cuda", "paddle.autograd": "torch.autograd",
              "paddle.optimizer": "torch.optim", "paddle.io": "torch.utils.data", "paddle.amp": "torch.amp",
              "paddle.nn.utils": "torch.nn.utils", "paddle.distribution": "torch.distributions",
              "paddle.device": "torch.accelerator", "paddle.compat": "torch", "paddle.compat.nn": "torch.nn",
              "paddle.compat.nn.functional": "torch.nn.functional"}
# twins by name only: paddle.tensor is Paddle's module of tensor functions that is also callable (a proxy object);
# the shim keeps it a module
TWIN_SKIP = {"paddle.tensor"}
# the torch-named modules of Paddle 3.3 (nothing names them in a parent's __all__)
TORCH_NAMESPACES = ["paddle.functional", "paddle.nn.attention", "paddle.nn.parameter", "paddle.nn.modules"]


def paddle_defined(obj):
    if inspect.ismodule(obj):
        return obj.__name__.startswith("paddle")
    mod = getattr(obj, "__module__", None) or ""
    return mod.startswith("paddle") or type(obj).__module__.startswith("paddle")


def public_names(ns, mod):
    """{name: object}: the namespace's __all__ (else its public attributes) and the torch-twin names beyond it."""
    listed = getattr(mod, "__all__", None)
    names = set(listed or [n for n in dir(mod) if not n.startswith("_")])
    twin = None
    if ns in TORCH_TWIN:
        try:
            twin = importlib.import_module(TORCH_TWIN[ns])
        except ImportError:
            pass
    out = {}
    for n in sorted(set(dir(mod)) | names):
        if n.startswith("_") and n not in names:
            continue
        try:
            obj = getattr(mod, n)
        except Exception:  # noqa: BLE001
            continue
        if n in names:
            out[n] = obj
        elif twin is not None and hasattr(twin, n) and paddle_defined(obj) and f"{ns}.{n}" not in TWIN_SKIP and \
                not (inspect.ismodule(obj) and not obj.__name__.startswith(ns + ".")):
            out[n] = obj
    return out


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
    for ns in NAMESPACES + TORCH_NAMESPACES:
        try:
            mod = importlib.import_module(ns)
        except Exception as e:  # noqa: BLE001 - some namespaces need optional deps
            print(f"skip {ns}: {e}", file=sys.stderr)
            continue
        out["namespaces"][ns] = {n: kind(obj) for n, obj in public_names(ns, mod).items()}
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
