"""The torch-xla lane's checks (run by tools/xla_lane.sh under `python -m paddle_on_torch`, PJRT_DEVICE=CPU).

The same Paddle program runs on 'xla' and on the CPU: a few Adam steps of a small model, to_static (torch.compile
with the XLA backend's compile backend, 'openxla') for a few SGD steps, and a checkpoint round trip (paddle.save
of the XLA model's state dict, paddle.load into a fresh model on 'xla').  Prints one line per check with the
largest difference from the CPU and the time, and exits 1 when a check fails its tolerance.
"""
import json
import os
import sys
import tempfile
import time

import numpy as np
import paddle

TOL = 1e-5  # XLA's CPU kernels (Eigen) sum in other orders than torch's
RNG = np.random.default_rng(0)
X = RNG.standard_normal((32, 10)).astype("float32")
Y = RNG.integers(0, 3, (32, 1)).astype("int64")


def _sync():
    if paddle.get_device().startswith("xla"):
        import torch_xla

        torch_xla.sync()


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(10, 32)
        self.norm = paddle.nn.LayerNorm(32)
        self.fc2 = paddle.nn.Linear(32, 3)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.gelu(self.norm(self.fc1(x))))


def _model():
    paddle.seed(3)
    model = Net()
    rng = np.random.default_rng(1)
    for _, p in sorted(model.named_parameters(), key=lambda kv: kv[0]):
        p.set_value((rng.standard_normal(list(p.shape)) * 0.3).astype("float32"))
    return model


def _params(model):
    return {k: v.numpy() for k, v in model.state_dict().items()}


def train(device, steps=5):
    paddle.set_device(device)
    model = _model()
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    losses, start = [], time.perf_counter()
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        _sync()
        losses.append(float(loss))
    return {"losses": losses, "params": _params(model), "seconds": time.perf_counter() - start,
            "place": str(model.fc1.weight.place)}


def to_static(device, steps=3):
    paddle.set_device(device)
    model = _model()
    static = paddle.jit.to_static(model)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    losses, start = [], time.perf_counter()
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(static(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        _sync()
        losses.append(float(loss))
    with paddle.no_grad():
        out = static(x).numpy()
    return {"losses": losses, "params": _params(model), "out": out, "seconds": time.perf_counter() - start}


def checkpoint(device):
    paddle.set_device(device)
    model = _model()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "net.pdparams")
        paddle.save(model.state_dict(), path)
        fresh = Net()
        fresh.set_state_dict(paddle.load(path))
    x = paddle.to_tensor(X)
    with paddle.no_grad():
        a, b = model(x).numpy(), fresh(x).numpy()
    return {"equal": bool(np.array_equal(a, b)), "out": a, "place": str(fresh.fc1.weight.place)}


def _diff(a, b):
    if isinstance(a, dict):
        return max(_diff(a[k], b[k]) for k in a)
    return float(np.abs(np.asarray(a, dtype="float64") - np.asarray(b, dtype="float64")).max())


def main():
    import torch
    import torch_xla

    report = {"torch": torch.__version__, "torch_xla": torch_xla.__version__,
              "pjrt_device": os.environ.get("PJRT_DEVICE"),
              "custom_device_types": paddle.device.get_all_custom_device_type()}
    ok = "xla" in report["custom_device_types"]
    for name, fn, keys in (("train", train, ("losses", "params")), ("to_static", to_static, ("losses", "params", "out")),
                           ("checkpoint", checkpoint, ("out",))):
        xla, cpu = fn("xla"), fn("cpu")
        diffs = {k: _diff(xla[k], cpu[k]) for k in keys}
        passed = all(d <= TOL for d in diffs.values()) and xla.get("equal", True)
        ok = ok and passed
        report[name] = {"max_abs_diff_vs_cpu": diffs, "passed": passed,
                        **{k: xla[k] for k in ("place", "equal") if k in xla},
                        **({"seconds_xla": round(xla["seconds"], 3), "seconds_cpu": round(cpu["seconds"], 3)}
                           if "seconds" in xla else {})}
        print(f"xla lane: {name}: {'ok' if passed else 'FAILED'} {json.dumps(report[name])}", flush=True)
    print("xla lane: " + json.dumps({k: v for k, v in report.items() if k not in ("train", "to_static", "checkpoint")}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
