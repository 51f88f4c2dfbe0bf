"""Cases that run the same code on real Paddle (to record) and on paddle_on_torch (to test).

A case is a function taking the `paddle` module and returning what it
computed (Tensors, numbers, strings, lists, dicts) or raising.  Write it as
a Paddle user would.  `tools/record.py` runs every case under real
Paddle 3.3.1 and stores the answers in tests/golden/<module>.json;
tests/test_golden.py runs them under paddle_on_torch and compares.

    from tests.cases import case

    @case
    def add_int_and_float(paddle):
        return paddle.to_tensor([1, 2]) + 1.5

    @case(random=True)          # compare dtype/shape/stop_gradient, not values
    def randn_shape(paddle):
        return paddle.randn([2, 3])

    @case(exact=True)           # values bit for bit (seeded CPU random draws: Paddle's streams)
    def randn_values(paddle):
        paddle.seed(7)
        return paddle.randn([2, 3])

    @case(rtol=1e-4)            # a looser tolerance, with the reason in a comment
    def ...
"""
import importlib
import pkgutil

CASES = {}  # module name -> {case name: options}


def case(fn=None, *, random=False, exact=False, rtol=1.3e-6, atol=1e-6):
    if exact:  # every value equal (NaN to NaN): no tolerance
        rtol = atol = 0.0

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


def fill_parameters(layer, seed=0, scale=0.5):
    """Give every parameter of `layer` the same values on both sides (numpy's generator, by name order).

    Paddle's and our random initialisers differ, so cases that compare layer outputs set the weights
    with this first.  Works on real Paddle and on paddle_on_torch alike (uses only set_value).
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    for _, p in sorted(layer.named_parameters(), key=lambda kv: kv[0]):
        shape = list(p.shape)
        p.set_value((rng.standard_normal(shape) * scale).astype(str(p.dtype).replace("paddle.", "")))
    return layer


def data(shape, seed=0, dtype="float32", scale=1.0):
    """A deterministic numpy array for case inputs."""
    import numpy as np

    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(dtype)
