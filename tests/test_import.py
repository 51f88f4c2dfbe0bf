"""`import paddle` loads what a program touches: the op wrappers are generated on first call, and the namespaces
beyond the tensor API (nn, distributed, hapi, incubate, the kernels) load on first touch.  Timing is
bench/import_time.py's; here, what is and is not loaded, and that lazy wrappers behave as generated ones."""
import inspect
import subprocess
import sys
import textwrap

import pytest

import paddle_on_torch as paddle
from paddle_on_torch import _normalize

# (of kernels/, the op modules: import reads kernels/cpp.py and loads the install-time _C for the C++ fast path)
HEAVY = ("nn", "distributed", "hapi", "incubate", "kernels.dispatch", "kernels.norm", "kernels.rnn", "vision",
         "static", "jit", "sparse.nn", "utils.cpp_extension", "geometric", "io")


def _fresh(code):
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_import_leaves_heavy_namespaces_unloaded():
    out = _fresh(f"""
        import sys
        import paddle_on_torch as paddle
        from paddle_on_torch import _normalize
        heavy = [m for m in {HEAVY!r} if "paddle_on_torch." + m in sys.modules]
        print(heavy, len(_normalize._PENDING) > 250)
        x = paddle.to_tensor([1.0, 2.0])
        assert paddle.Model.__name__ == "Model" and paddle.conv2d.__name__ == "conv2d"  # loaded on touch
        assert paddle.DataParallel.__name__ == "DataParallel" and "nn" in dir(paddle)
        print("paddle_on_torch.hapi" in sys.modules, "paddle_on_torch.nn" in sys.modules)
    """)
    assert out.split("\n")[:2] == ["[] True", "True True"]


def test_sparse_nn_and_cpp_extension_load_on_touch():
    out = _fresh("""
        import sys
        import paddle_on_torch as paddle
        print(paddle.sparse.nn.ReLU.__name__, paddle.utils.cpp_extension.__name__, paddle.utils.download.__name__)
    """)
    assert out.split() == ["ReLU", "paddle_on_torch.utils.cpp_extension", "paddle_on_torch.utils.download"]


def _fn(a, b=2, *rest, k, alias_target=None, **kw):
    """An implementation with every kind of parameter."""
    return torch_sum(a, b, rest, k, alias_target, kw)


def torch_sum(*parts):
    return parts


def test_lazy_wrapper_signature_identity_and_code():
    fn = _normalize.op(_fn, aliases={"alias": "alias_target"})
    sig = str(inspect.signature(fn))
    assert fn in _normalize._PENDING
    assert sig == "(a, b=2, *rest, k, alias_target=None, alias=<required>, **kw)"
    assert fn(1, 3, 4, k=5, alias=6, z=7) == (1, 3, (4,), 5, 6, {"z": 7})  # the first call generates
    assert fn not in _normalize._PENDING and str(inspect.signature(fn)) == sig
    assert "alias_target = alias" in inspect.getsource(fn)
    assert fn(1, k=2) == (1, 2, (), 2, None, {})
    with pytest.raises(TypeError):
        fn(1)  # k is required


def test_methods_are_the_functions_before_and_after_the_first_call():
    s = paddle.Tensor.sum
    assert s is paddle.sum and paddle.tensor.math.sum is paddle.sum
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    assert float(x.sum()) == 6.0 and float(paddle.sum(x)) == 6.0
    assert paddle.Tensor.sum is s is paddle.sum and paddle.sum not in _normalize._PENDING
    assert float((x + 1).sum()) == 9.0 and paddle.Tensor.__add__ not in _normalize._PENDING


def test_generate_all_leaves_nothing_lazy():
    _normalize.generate_all()
    assert not _normalize._PENDING
    assert "_impl(" in inspect.getsource(paddle.tensor.math.exp)
