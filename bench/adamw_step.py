"""The AdamW step alone: paddle.optimizer.AdamW (paddle_on_torch) vs torch.optim.AdamW.

    python bench/adamw_step.py [--reps N] [--threads N]

For each parameter set, the process CPU time of one `step()` (min over N repeats after warm-up, gradients
fixed): the shim on its default path (the op paddle_on_torch::adam_step: ext/optim.cpp's kernel when it
builds), the shim's torch-op path (backend `reference`, as PADDLE_ON_TORCH_KERNELS=reference: flat state +
torch ops), and torch.optim.AdamW single-tensor (its CPU default), foreach=True and fused=True.  Parameter
sets: 4 x Linear(1024, 1024) (bench/distributed.py's MLP) and the parameter shapes of the model-zoo models
(tests/model_zoo).  One thread by default.
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def _min_cpu_ms(fn, reps):
    fn()
    fn()
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best * 1e3


def _zoo_shapes(name):
    import importlib

    import paddle

    paddle.seed(0)
    model = importlib.import_module(f"tests.model_zoo.{name}").build()
    return [tuple(p.shape) for p in model.parameters() if not p.stop_gradient]


def _shim_ms(shapes, reps, reference):
    import paddle
    import torch

    from paddle_on_torch.kernels import dispatch

    dispatch.set_backend("reference" if reference else None)
    g = torch.Generator().manual_seed(0)
    params = [paddle.create_parameter(list(s), "float32") for s in shapes]
    for p in params:
        p._t.grad = torch.randn(p._t.shape, generator=g)
    opt = paddle.optimizer.AdamW(1e-3, parameters=params)
    try:
        return _min_cpu_ms(opt.step, reps)
    finally:
        dispatch.set_backend(None)


def _torch_ms(shapes, reps, **kw):
    import torch

    g = torch.Generator().manual_seed(0)
    params = [torch.nn.Parameter(torch.randn(s, generator=g)) for s in shapes]
    for p in params:
        p.grad = torch.randn(p.shape, generator=g)
    opt = torch.optim.AdamW(params, lr=1e-3, **kw)
    return _min_cpu_ms(opt.step, reps)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--zoo", nargs="*", default=["gpt", "bert", "resnet", "vit", "mobilenetv3", "lstm_tagger"])
    args = ap.parse_args()
    import paddle_on_torch

    paddle_on_torch.install()
    import torch

    torch.set_num_threads(args.threads)
    sets = {"4 x Linear(1024,1024)": [s for _ in range(4) for s in ((1024, 1024), (1024,))]}
    for name in args.zoo:
        sets[name] = _zoo_shapes(name)
    print(f"AdamW step, process CPU ms (min of {args.reps}), {args.threads} thread(s); ratio = shim / best torch")
    print(f"{'parameters':24} {'n':>4} {'elements':>9} {'shim':>7} {'shim ops':>8} {'t single':>8} "
          f"{'t foreach':>9} {'t fused':>8} {'ratio':>6}")
    for name, shapes in sets.items():
        numel = sum(int(torch.Size(s).numel()) for s in shapes)
        shim = _shim_ms(shapes, args.reps, reference=False)
        ops = _shim_ms(shapes, args.reps, reference=True)
        single = _torch_ms(shapes, args.reps, foreach=False)
        foreach = _torch_ms(shapes, args.reps, foreach=True)
        fused = _torch_ms(shapes, args.reps, fused=True)
        print(f"{name:24} {len(shapes):>4} {numel:>9} {shim:>7.3f} {ops:>8.3f} {single:>8.3f} {foreach:>9.3f} "
              f"{fused:>8.3f} {shim / min(single, foreach, fused):>6.2f}")


if __name__ == "__main__":
    main()
