"""The spike behind docs/architecture.md: how should a Paddle Tensor sit on torch?

    python bench/representation_spike.py

Three candidates, each given Paddle-style `add`/`mul` and a tiny Linear layer:
  wrapper   - a Python object holding a torch.Tensor in a slot (what paddle_on_torch uses)
  subclass  - a torch.Tensor subclass with __torch_function__ disabled (results re-wrapped)
  subclass+ - a torch.Tensor subclass with the default __torch_function__ protocol
For each: per-op overhead over plain torch, torch.compile(fullgraph=True) through Paddle-style
code, aten-level capture with make_fx, a DTensor held as the data (1-rank gloo), a
torch.library custom op with autograd called from Paddle-style code, and zero-copy dlpack.
"""
import os
import tempfile
import time

import torch
import torch.distributed as dist
from torch.fx.experimental.proxy_tensor import make_fx

torch.set_num_threads(1)
_new = object.__new__


class W:  # wrapper
    __slots__ = ("_t", "__weakref__")

    def __add__(self, o):
        return wwrap(torch.add(self._t, o._t))

    def __mul__(self, o):
        return wwrap(torch.mul(self._t, o._t))


def wwrap(t):
    o = _new(W)
    o._t = t
    return o


class S(torch.Tensor):  # subclass, torch function disabled
    __torch_function__ = torch._C._disabled_torch_function_impl

    def __add__(self, o):
        return torch.add(self, o).as_subclass(S)

    def __mul__(self, o):
        return torch.mul(self, o).as_subclass(S)


class SP(torch.Tensor):  # subclass, default protocol
    pass


CANDIDATES = {
    "wrapper": (wwrap, lambda w: w._t),
    "subclass": (lambda t: t.as_subclass(S), lambda s: s.as_subclass(torch.Tensor)),
    "subclass+": (lambda t: t.as_subclass(SP), lambda s: s.as_subclass(torch.Tensor)),
}


def per_op_us(fn, n=20000):
    for _ in range(1000):
        fn()
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n * 1e6)
    return best


def paddle_style_layer(wrap, unwrap):
    w = wrap(torch.randn(4, 3, requires_grad=True))  # Paddle's [in, out] Linear weight
    b = wrap(torch.zeros(3, requires_grad=True))

    def forward(x):
        return wrap(torch.matmul(unwrap(x), unwrap(w))) + b
    return forward


def check(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the spike reports what broke
        return f"FAILS ({type(e).__name__}: {str(e).splitlines()[0][:60]})"


@torch.library.custom_op("spike::scale2", mutates_args=())
def scale2(x: torch.Tensor) -> torch.Tensor:
    return x * 2


scale2.register_fake(lambda x: torch.empty_like(x))
scale2.register_autograd(lambda ctx, g: g * 2, setup_context=lambda ctx, inputs, output: None)


def main():
    a, b = torch.ones(4), torch.ones(4)
    base = per_op_us(lambda: torch.add(a, b))
    print(f"plain torch add on 4 elements: {base:.2f} us")
    f = tempfile.mktemp()
    dist.init_process_group("gloo", init_method=f"file://{f}", rank=0, world_size=1)
    from torch.distributed.tensor import DeviceMesh, Replicate, distribute_tensor

    mesh = DeviceMesh("cpu", [0])
    for name, (wrap, unwrap) in CANDIDATES.items():
        wa, wb = wrap(a), wrap(b)
        cost = per_op_us(lambda: wa + wb)
        layer = paddle_style_layer(wrap, unwrap)
        x = torch.randn(2, 4)
        compiled = torch.compile(lambda t: unwrap(layer(wrap(t)) * layer(wrap(t))), fullgraph=True)
        rows = {
            "per-op": f"{cost:.2f} us ({cost / base:.2f}x torch)",
            "torch.compile fullgraph": check(lambda: compiled(x)),
            "make_fx aten capture": check(lambda: make_fx(lambda t: unwrap(layer(wrap(t))))(x)),
            "DTensor as data": check(lambda: unwrap(wrap(distribute_tensor(torch.ones(4), mesh, [Replicate()]))
                                                   + wrap(distribute_tensor(torch.ones(4), mesh, [Replicate()])))),
            "custom op + autograd": check(lambda: unwrap(wrap(scale2(unwrap(layer(wrap(x)))))).sum().backward()),
            "dlpack zero-copy": check(lambda: torch.from_dlpack(unwrap(wa)).add_(0)),
        }
        print(f"\n{name}")
        for k, v in rows.items():
            print(f"  {k:<26}{v}")
        torch._dynamo.reset()
    dist.destroy_process_group()
    os.path.exists(f) and os.remove(f)


if __name__ == "__main__":
    main()
