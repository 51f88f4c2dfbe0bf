"""paddle.utils.run_check: check that paddle_on_torch works on this machine's devices.

Prints Paddle's messages.  Instead of Paddle's static-graph program, parallel run and NCCL test,
it runs one small dynamic-graph training step (a Linear layer, a loss, backward, an SGD update)
on the current accelerator (GPU, else XPU, else a custom device, else the CPU), then on every other
device of that type in turn, and checks the loss is finite and the weights moved.
"""
import logging

__all__ = ["run_check"]


def _train_step(paddle, place_str):
    import numpy as np

    with paddle.device.device_guard(place_str):
        linear = paddle.nn.Linear(4, 2)
        x = paddle.to_tensor(np.arange(8, dtype="float32").reshape([2, 4]) / 8.0)
        before = linear.weight.numpy().copy()
        loss = paddle.mean(linear(x) ** 2)
        loss.backward()
        with paddle.no_grad():
            for p in linear.parameters():
                p.set_value(p - 0.1 * p.grad)
        loss_value = float(loss)
        if not np.isfinite(loss_value) or np.array_equal(before, linear.weight.numpy()):
            raise RuntimeError(f"the training step on {place_str} did not update the weights (loss {loss_value})")


def run_check():
    """Check that paddle_on_torch is installed correctly and runs on this machine's devices."""
    import paddle_on_torch as paddle
    from .._core import backends

    print("Running verify PaddlePaddle program ... ")
    acc = backends.available_accelerators()
    if len(acc) > 1 and acc[0].custom:
        logging.warning(f"More than one kind of custom devices detected, but run check would only be executed on "
                        f"{acc[0].name}.")
    if acc:
        b = acc[0]
        device_str = {"gpu": "GPU", "xpu": "XPU"}.get(b.name, b.name)
        places = [f"{b.name}:{i}" for i in range(b.device_count())]
    else:
        device_str, places = "CPU", ["cpu"]
    _train_step(paddle, places[0])
    print(f"PaddlePaddle works well on 1 {device_str}.")
    try:
        if len(places) > 1:
            for place in places[1:]:
                _train_step(paddle, place)
            print(f"PaddlePaddle works well on {len(places)} {device_str}s.")
        print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.")
    except Exception as e:
        logging.warning(f"PaddlePaddle meets some problem with {len(places)} {device_str}s.")
        logging.warning(f"\n Original Error is: {e}")
        print(f"PaddlePaddle is installed successfully ONLY for single {device_str}! "
              "Let's start deep learning with PaddlePaddle now.")
        raise
