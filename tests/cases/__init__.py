"""Cases that run the same code on real Paddle (to record) and on paddle_on_torch (to test).

A case is a function taking the `paddle` module and returning what it
computed (Tensors, numbers, strings, lists, dicts) or raising.  Write it as
a Paddle user would.  `tools/record_goldens.py` runs every case under real
Paddle 3.3.1 and stores the answers in tests/golden/<module>.json;
tests/test_golden.py runs them under paddle_on_torch and compares.

    from tests.cases import case

    @case
    def add_int_and_float(paddle):
        return paddle.to_tensor([1, 2]) + 1.5

    @case(random=True)          # compare dtype/shape/stop_gradient, not values
    def randn_shape(paddle):
        return paddle.randn([2, 3])

    @case(rtol=1e-4)            # a looser tolerance, with the reason in a comment
    def ...
"""
import importlib
import pkgutil

CASES = {}  # module name -> {case name: options}


def case(fn=None, *, random=False, rtol=1.3e-6, atol=1e-6):
    def register(f):
        mod = f.__module__.rsplit(".", 1)[-1]
        f.case_options = {"random": random, "rtol": rtol, "atol": atol}
        CASES.setdefault(mod, {})[f.__name__] = f
        return f

    return register(fn) if fn is not None else register


def load_all():
    """Import every case module; returns CASES."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return CASES
