"""What the recorder (real Paddle) and the test (paddle_on_torch) both run on a model-zoo model."""
import numpy as np
import paddle


def _flat(out):
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    return [out]


def _np(t):
    # a copy: the arrays must not change when the model's tensors do (clear_gradients zeroes grads in place)
    return np.array(t.numpy(), copy=True)


def to_tensors(arrays):
    return [paddle.to_tensor(a) for a in arrays]


def eval_forward(model, arrays):
    """{'eval/out<i>': array} for an eval-mode forward without gradients."""
    model.eval()
    with paddle.no_grad():
        outs = _flat(model(*to_tensors(arrays)))
    return {f"eval/out{i}": _np(o) for i, o in enumerate(outs)}


def train_step(model, mod, arrays):
    """One train-mode forward + backward: outputs, loss, chosen gradients, updated norm statistics."""
    model.train()
    model.clear_gradients()
    out = model(*to_tensors(arrays))
    loss = mod.loss(out, arrays)
    loss.backward()
    result = {f"train/out{i}": _np(o) for i, o in enumerate(_flat(out))}
    result["train/loss"] = _np(loss)
    params = dict(model.named_parameters())
    for name in mod.GRADS:
        result[f"train/grad/{name}"] = _np(params[name].grad)
    for name, value in model.state_dict().items():
        if name.endswith("_mean") or name.endswith("_variance"):
            result[f"train/state/{name}"] = _np(value)
    model.clear_gradients()
    model.eval()
    return result
