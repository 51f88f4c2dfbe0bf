"""Plain-PyTorch twins of model-zoo models (torch.nn only; no paddle_on_torch import).

Each twin module defines `build()` -> torch.nn.Module with the same architecture and sizes as
tests/model_zoo/<name>.py, and `loss(out, inputs)` -> the same scalar loss written in torch.
`load(name)` builds the twin and loads tests/data/model_zoo/<name>.pdparams (a pickle of numpy
arrays written by real paddle.save) into it; `check(name)` runs the twin on the recorded inputs and
asserts its eval outputs, train outputs, loss, gradients and BatchNorm statistics equal the ones
real Paddle recorded (tests/data/model_zoo/<name>.npz).

Weight conversion (Paddle state dict -> torch):
  * nn.Linear weight: Paddle stores [in, out], torch [out, in] -> transposed;
  * BatchNorm `_mean` / `_variance` -> `running_mean` / `running_var` (`num_batches_tracked` kept);
  * one documented difference is allowed for in `check`, not in the twin: in train mode torch's
    BatchNorm updates `running_var` with the unbiased batch variance (x n/(n-1)), Paddle's with the
    biased one; the twin keeps torch's stock nn.BatchNorm (what a torch user would write) and the
    check compares its running_var with the recorded one converted to torch's convention;
  * nn.Embedding with padding_idx: Paddle's lookup returns zeros for padding_idx whatever the
    weight row holds, torch's returns the row (which torch initialises to zero and never updates);
    the loader zeroes that row, which gives torch the same outputs;
  * LSTM/GRU `weight_ih_l<k>` ... have the same names and layouts (gate order i, f, g, o for LSTM,
    r, z, n for GRU in both); Paddle's per-layer aliases (`lstm.0.cell.weight_ih`, ...) are the
    same tensors and are skipped.
"""
import importlib
import os
import pickle

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data", "model_zoo")
TWINS = ["resnet", "gpt", "lstm_tagger", "vgg", "bigru"]
RTOL, ATOL = 1e-4, 1e-5


def paddle_state(name):
    with open(os.path.join(DATA, f"{name}.pdparams"), "rb") as f:
        state = pickle.load(f)
    state.pop("StructuredToParameterName@@", None)
    return state


def _paddle_key(key):
    for ours, theirs in (("running_mean", "_mean"), ("running_var", "_variance")):
        if key.endswith(ours):
            return key[: -len(ours)] + theirs
    return key


def load_paddle_state(module, state, alias_ok=lambda k: False):
    """Copy a Paddle state dict (numpy arrays) into a torch module, converting layouts."""
    linear = {n for n, m in module.named_modules() if isinstance(m, torch.nn.Linear)}
    embedding = {n: m.padding_idx for n, m in module.named_modules() if isinstance(m, torch.nn.Embedding)}
    own = module.state_dict()
    new, used = {}, set()
    for key, value in own.items():
        if key.endswith("num_batches_tracked"):
            new[key] = value
            continue
        pk = _paddle_key(key)
        arr = state[pk]
        used.add(pk)
        owner, _, leaf = key.rpartition(".")
        if owner in linear and leaf == "weight":
            arr = arr.T
        assert tuple(arr.shape) == tuple(value.shape), f"{key}: {arr.shape} != {tuple(value.shape)}"
        if owner in embedding and embedding[owner] is not None:
            arr = arr.copy()
            arr[embedding[owner]] = 0
        new[key] = torch.from_numpy(np.ascontiguousarray(arr))
    unused = [k for k in state if k not in used and not alias_ok(k)]
    assert not unused, f"Paddle keys the twin does not use: {unused}"
    module.load_state_dict(new, strict=True)
    return module


def twin(name):
    return importlib.import_module(f"bench.twins.{name}")


def recorded(name):
    rec = dict(np.load(os.path.join(DATA, f"{name}.npz")))
    arrays = [rec[f"input{i}"] for i in range(sum(k.startswith("input") for k in rec))]
    return arrays, rec


def load(name):
    mod = twin(name)
    model = mod.build()
    load_paddle_state(model, paddle_state(name), getattr(mod, "ALIAS", lambda k: False))
    return mod, model


def _flat(out):
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _flat(o)]
    return [out]


def _close(got, want, what):
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=what)


def check(name):
    """Assert the twin computes what real Paddle recorded; returns the number of arrays compared."""
    mod, model = load(name)
    arrays, rec = recorded(name)
    n = 0
    model.eval()
    with torch.no_grad():
        outs = _flat(model(*[torch.from_numpy(a) for a in arrays]))
    for i, o in enumerate(outs):
        _close(o.numpy(), rec[f"eval/out{i}"], f"{name} eval/out{i}")
        n += 1
    assert f"eval/out{len(outs)}" not in rec, f"{name}: twin returns fewer outputs than recorded"
    if "train/loss" in rec:
        model.train()
        model.zero_grad()
        bns = {m: (mn, m.running_var.clone()) for mn, m in model.named_modules()
               if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)}
        count = {}
        hooks = [m.register_forward_pre_hook(lambda m, a: count.__setitem__(bns[m][0], a[0].numel() // a[0].shape[1]))
                 for m in bns]
        out = model(*[torch.from_numpy(a) for a in arrays])
        for h in hooks:
            h.remove()
        before = {mn: (m.momentum, rv0.numpy()) for m, (mn, rv0) in bns.items()}
        loss = mod.loss(out, arrays)
        loss.backward()
        for i, o in enumerate(_flat(out)):
            _close(o.detach().numpy(), rec[f"train/out{i}"], f"{name} train/out{i}")
            n += 1
        _close(loss.detach().numpy(), rec["train/loss"], f"{name} train/loss")
        params = dict(model.named_parameters())
        buffers = dict(model.named_buffers())
        for k, want in rec.items():
            if k.startswith("train/grad/"):
                pname = k[len("train/grad/"):]
                g = params[pname].grad.numpy()
                if params[pname].dim() == 2 and pname.rpartition(".")[0] in {
                        m for m, mm in model.named_modules() if isinstance(mm, torch.nn.Linear)}:
                    g = g.T
                np.testing.assert_allclose(g, want, rtol=RTOL, atol=ATOL * max(1.0, np.abs(want).max()),
                                           err_msg=f"{name} {k}")
            elif k.startswith("train/state/"):
                pname = k[len("train/state/"):]
                tname = pname.replace("._mean", ".running_mean").replace("._variance", ".running_var")
                if pname.endswith("._variance"):  # Paddle: biased batch variance; torch: unbiased
                    mname = pname[: -len("._variance")]
                    mom, rv0 = before[mname]
                    cnt = count[mname]
                    want = (1 - mom) * rv0 + (want - (1 - mom) * rv0) * cnt / (cnt - 1)
                _close(buffers[tname].numpy(), want, f"{name} {k}")
            else:
                continue
            n += 1
        n += 1
    return n
