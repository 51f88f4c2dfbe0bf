"""A Paddle program on the custom device 'custom_cpu' and on the CPU, for tests/test_custom_device.py.

Run as `python -m paddle_on_torch tests/custom_device/program.py OUT.json` (so `import paddle` is paddle_on_torch).
The device is registered with torch after paddle is imported: paddle finds it by its PrivateUse1 name.  Each part
(device queries, training, save/load, AMP, to_static) runs on both devices; OUT.json holds what each computed.
"""
import json
import os
import sys
import tempfile
import warnings

import numpy as np
import paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from tests import custom_device  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.standard_normal((16, 8)).astype("float32")
Y = RNG.integers(0, 4, (16, 1)).astype("int64")


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(8, 32, bias_attr=False)  # a bias before BatchNorm gets a ~0 gradient: Adam
        # turns its rounding noise into full steps, which differ between any two kernels
        self.norm = paddle.nn.BatchNorm1D(32)
        self.drop = paddle.nn.Dropout(0.2)
        self.fc2 = paddle.nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(self.drop(paddle.nn.functional.relu(self.norm(self.fc1(x)))))


def _model(device):
    """The same initial weights on each device: built on the CPU from Paddle's seeded CPU stream, then moved
    (a device draws from its own generator, in Paddle as here)."""
    paddle.set_device("cpu")
    paddle.seed(1)
    model = Net()
    paddle.set_device(device)
    return model.to(device)


def _params(model):
    return {k: v.numpy().tolist() for k, v in model.state_dict().items()}


def queries():
    place = paddle.CustomPlace(custom_device.NAME, 0)
    x = paddle.to_tensor([1.0, 2.0], place=place)
    return {
        "all_custom_device_type": paddle.device.get_all_custom_device_type(),
        "available_custom_device": paddle.device.get_available_custom_device(),
        "all_device_type": paddle.device.get_all_device_type(),
        "compiled_with_custom_device": paddle.device.is_compiled_with_custom_device(custom_device.NAME),
        "compiled_with_other_device": paddle.device.is_compiled_with_custom_device("npu"),
        "place": str(place), "is_custom_place": place.is_custom_place(), "place_id": place.get_device_id(),
        "tensor_place": str(x.place), "tensor_on_custom": x.place.is_custom_place(),
        "set_device": str(paddle.set_device(f"{custom_device.NAME}:0")), "get_device": paddle.get_device(),
        "default_tensor_place": str(paddle.ones([2]).place),
        "memory_allocated_positive": paddle.device.memory_allocated() > 0,
        "to_static_compiles_with": _compile_backend(),
    }


def _compile_backend():
    from paddle_on_torch._core import backends

    return backends.get(custom_device.NAME).torch_compile_backend()


def train(device, steps=4, dropout=0.0):
    """Adam on a small model with BatchNorm, and dropout when asked.  Dropout's masks come from the device's
    generator, so only a run without it can match the CPU's; with it, a seeded run repeats itself."""
    model = _model(device)
    model.drop.p = dropout
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    losses = []
    paddle.seed(5)
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    model.eval()
    with tempfile.TemporaryDirectory() as d:
        paddle.save(model.state_dict(), os.path.join(d, "m.pdparams"))
        paddle.save(opt.state_dict(), os.path.join(d, "m.pdopt"))
        fresh = Net()
        fresh.set_state_dict(paddle.load(os.path.join(d, "m.pdparams")))
        opt_state = paddle.load(os.path.join(d, "m.pdopt"))
    fresh.eval()
    with paddle.no_grad():
        out, again = model(x), fresh(x)
    return {"losses": losses, "params": _params(model), "eval_out": out.numpy().tolist(),
            "reloaded_equal": bool(np.array_equal(out.numpy(), again.numpy())),
            "param_place": str(model.fc1.weight.place), "reloaded_place": str(fresh.fc1.weight.place),
            "opt_state_keys": len(opt_state)}


def amp(device, steps=3):
    """O1 float16 auto_cast with a GradScaler (on the CPU Paddle turns AMP off, with a warning)."""
    model = _model(device)
    model.drop.p = 0.0
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    losses, dtypes = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(steps):
            with paddle.amp.auto_cast(level="O1", dtype="float16"):
                logits = model(x)
                loss = paddle.nn.functional.cross_entropy(logits, y)
            dtypes.append(str(logits.dtype))
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            opt.clear_grad()
            losses.append(float(loss))
    return {"losses": losses, "logits_dtype": dtypes[0], "params": _params(model)}


def to_static(device, steps=3):
    """to_static on the model: its eval output and a few SGD steps through the compiled forward."""
    model = _model(device)
    model.drop.p = 0.0
    static = paddle.jit.to_static(model)
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    losses = []
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(static(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    model.eval()
    with paddle.no_grad():
        out = static(x)
        paddle.jit.enable_to_static(False)  # the same call, run eagerly
        try:
            eager = static(x)
        finally:
            paddle.jit.enable_to_static(True)
    return {"losses": losses, "eval_out": out.numpy().tolist(), "out_place": str(out.place),
            "eager_close": bool(np.allclose(out.numpy(), eager.numpy(), rtol=1e-5, atol=1e-6))}


def main(out_path):
    results = {"before_registration": paddle.device.get_all_custom_device_type()}
    custom_device.load()
    results["queries"] = queries()
    device = f"{custom_device.NAME}:0"
    for name, fn in (("train", train), ("amp", amp), ("to_static", to_static)):
        results[name] = {"cpu": fn("cpu"), "custom": fn(device)}
    results["dropout"] = [train(device, dropout=0.2)["losses"] for _ in range(2)]
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1])
