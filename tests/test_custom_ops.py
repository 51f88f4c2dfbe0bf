"""Paddle C++ custom operators built with paddle.utils.cpp_extension on paddle_on_torch's header set.

tests/custom_ops/pot_test_ops.cc (ops in the style of Paddle's tutorials) is built once, with load(), into a
folder under the temp dir named by a hash of the sources, the headers and torch (a rerun reuses the build), and
every case of tests/custom_op_cases.py is compared with real Paddle's answers (tests/golden/custom_ops.json,
recorded by tools/record_custom_ops.py).  Then the parts of the build API the cases do not reach: setup() (on the
same build), sysconfig, and what is refused.
"""
import glob
import hashlib
import inspect
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

pytestmark = pytest.mark.build

from tests import golden, golden_file
from tests.custom_op_cases import CASES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = sorted(glob.glob(os.path.join(ROOT, "tests", "custom_ops", "*.cc")))
GOLDEN = golden_file.answers("custom_ops")


def _cache_dir():
    import torch

    from paddle_on_torch.utils.cpp_extension import _build

    h = hashlib.sha256(torch.__file__.encode() + torch.__version__.encode())
    headers = sorted(glob.glob(os.path.join(_build.INCLUDE_DIR, "**", "*"), recursive=True))
    for path in SOURCES + headers:
        if os.path.isfile(path):
            h.update(path.encode() + open(path, "rb").read())
    return os.path.join(tempfile.gettempdir(), "paddle_on_torch_test_ops", h.hexdigest()[:16])


@pytest.fixture(scope="module")
def build_dir():
    return _cache_dir()


@pytest.fixture(scope="module")
def ops(build_dir):
    from paddle.utils.cpp_extension import load

    return load(name="pot_test_ops", sources=SOURCES, build_directory=build_dir)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_paddle(name, ops, paddle):
    fn = CASES[name]
    want = GOLDEN.get(name)
    assert want is not None, "no golden answer: run tools/record_custom_ops.py under real Paddle"
    try:
        got = golden.describe(fn(paddle, ops))
    except Exception as e:  # noqa: BLE001 - errors are answers too
        got = golden.describe(e)
    diffs = golden.compare(want, got, fn.case_options)
    assert not diffs, "\n".join(diffs)


def test_module_has_paddles_functions(ops):
    names = sorted(n for n in dir(ops) if n.startswith("pot_"))
    assert names == ["pot_add_", "pot_attrs", "pot_int_twice", "pot_optional", "pot_relu", "pot_stats",
                     "pot_tensor_api", "pot_weighted_sum"]
    assert list(inspect.signature(ops.pot_attrs).parameters) == [
        "x", "int_attr", "float_attr", "bool_attr", "str_attr", "int_vec_attr", "int64_attr", "float_vec_attr",
        "int64_vec_attr", "str_vec_attr"]
    assert list(inspect.signature(ops.pot_weighted_sum).parameters) == ["x", "weights"]


def test_loading_again_reuses_the_registered_ops(ops, build_dir, paddle):
    from paddle.utils.cpp_extension import load

    again = load(name="pot_test_ops", sources=SOURCES, build_directory=build_dir)
    x = paddle.to_tensor([-1.0, 2.0])
    np.testing.assert_array_equal(again.pot_relu(x).numpy(), ops.pot_relu(x).numpy())


def test_ops_are_torch_custom_ops_under_to_static(ops, paddle):
    """to_static compiles the ops into the graph (fake implementations from the infer functions) and matches eager,
    for a batch size marked dynamic and sizes that follow from it."""
    import torch

    def f(x, y):
        out, row_sum, arg_max = ops.pot_stats(ops.pot_relu(x))
        return ops.pot_optional(out, y) + row_sum.unsqueeze(-1), arg_max

    spec = [paddle.static.InputSpec(shape=[None, 3], dtype="float32"),
            paddle.static.InputSpec(shape=[None, 3], dtype="float32")]
    static = paddle.jit.to_static(f, input_spec=spec)
    torch._dynamo.reset()
    for n in (2, 4, 3):
        x = paddle.to_tensor(np.random.default_rng(n).standard_normal([n, 3]).astype("float32"))
        y = paddle.to_tensor(np.random.default_rng(n + 9).standard_normal([n, 3]).astype("float32"))
        (a, b), (c, d) = static(x, y), f(x, y)
        np.testing.assert_allclose(a.numpy(), c.numpy(), rtol=1e-6)
        np.testing.assert_array_equal(b.numpy(), d.numpy())


def test_fake_impl_follows_symbolic_sizes(ops):
    """The fake implementation maps output sizes back to the input's symbols (no specialisation)."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv, StatelessSymbolicContext

    shape_env = ShapeEnv()
    mode = FakeTensorMode(shape_env=shape_env)
    ctx = StatelessSymbolicContext(dynamic_sizes=[DimDynamic.DYNAMIC, DimDynamic.STATIC])
    x = mode.from_tensor(torch.zeros(6, 3), symbolic_context=ctx)
    with mode:
        out, row_sum, arg_max = ops.pot_stats.torch_op(x)
        (flat,) = ops.pot_relu.torch_op(x.reshape(-1))
    assert [str(d) for d in out.shape] == [str(x.shape[0]), "3"]
    assert str(row_sum.shape[0]) == str(x.shape[0]) and arg_max.dtype == torch.int64
    assert str(flat.shape[0]) == str(x.shape[0] * 3)
    assert not shape_env.guards  # nothing specialised


def test_setup_builds_an_importable_package(build_dir, tmp_path, paddle):
    """setup() (python setup.py build_ext) builds the same way as load() (here: the same build, reused) and
    installs <name>_pd_.so beside a <name>.py that gives the functions on import."""
    from paddle.utils.cpp_extension import CppExtension, setup

    lib = tmp_path / "lib"
    setup(name="pot_test_ops", ext_modules=CppExtension(sources=SOURCES),
          script_args=["-q", "build_ext", "--build-temp", os.path.join(build_dir, "pot_test_ops"),
                       "--build-lib", str(lib)])
    assert sorted(os.listdir(lib)) == ["pot_test_ops.py", "pot_test_ops_pd_.so"]
    sys.path.insert(0, str(lib))
    try:
        import pot_test_ops
    finally:
        sys.path.remove(str(lib))
        sys.modules.pop("pot_test_ops", None)
    out = pot_test_ops.pot_relu(paddle.to_tensor([-1.0, 3.0]))
    np.testing.assert_array_equal(out.numpy(), [0.0, 3.0])


def test_sysconfig_points_at_the_headers_and_torchs_libraries(paddle):
    import torch

    inc, lib = paddle.sysconfig.get_include(), paddle.sysconfig.get_lib()
    assert os.path.isfile(os.path.join(inc, "paddle", "extension.h"))
    assert os.path.isfile(os.path.join(inc, "paddle", "phi", "api", "ext", "op_meta_info.h"))
    assert os.path.samefile(lib, os.path.join(os.path.dirname(torch.__file__), "lib"))
    assert glob.glob(os.path.join(lib, "libc10*")) and glob.glob(os.path.join(lib, "libtorch_cpu*"))


def test_get_build_directory(monkeypatch, tmp_path):
    from paddle.utils.cpp_extension import get_build_directory

    monkeypatch.setenv("PADDLE_EXTENSION_DIR", str(tmp_path / "ext"))
    assert get_build_directory() == str(tmp_path / "ext") and os.path.isdir(tmp_path / "ext")


def _write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(body)
    return str(path)


def test_a_paddle_internal_header_is_refused_naming_it(tmp_path):
    from paddle.utils.cpp_extension import load

    src = _write(tmp_path, "internal.cc", '#include "paddle/phi/core/dense_tensor.h"\n#include "paddle/extension.h"\n')
    with pytest.raises(NotImplementedError, match="paddle/phi/core/dense_tensor.h"):
        load(name="pot_internal_header", sources=[src], build_directory=str(tmp_path / "build"))


def test_an_api_the_headers_lack_is_refused_naming_it(tmp_path):
    from paddle.utils.cpp_extension import load

    src = _write(tmp_path, "impl.cc", """
#include "paddle/extension.h"
std::vector<paddle::Tensor> Fwd(const paddle::Tensor& x) { auto p = x.impl(); return {x}; }
PD_BUILD_OP(pot_uses_impl).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(Fwd));
""")
    with pytest.raises(NotImplementedError, match=r"paddle::Tensor::impl"):
        load(name="pot_uses_impl", sources=[src], build_directory=str(tmp_path / "build"))


@pytest.mark.skipif(__import__("torch").version.cuda is not None, reason="this torch has CUDA")
def test_cuda_extension_without_cuda_says_so(tmp_path):
    from paddle.utils.cpp_extension import CUDAExtension, load

    with pytest.raises(RuntimeError, match="CUDA build of torch"):
        CUDAExtension(sources=["relu_op.cu"])
    src = _write(tmp_path, "k.cu", "__global__ void k() {}\n")
    with pytest.raises(RuntimeError, match="CUDA build of torch"):
        load(name="pot_cuda", sources=[src], build_directory=str(tmp_path / "build"))


def test_build_errors_keep_the_compiler_output(tmp_path):
    from paddle.utils.cpp_extension import load

    src = _write(tmp_path, "bad.cc", '#include "paddle/extension.h"\nint f() { return undeclared_thing; }\n')
    with pytest.raises(RuntimeError, match="undeclared_thing"):
        load(name="pot_bad", sources=[src], build_directory=str(tmp_path / "build"))


def test_cli_script_runs_a_custom_op_program(build_dir, tmp_path):
    """A Paddle script that builds and uses a custom op runs unchanged under `python -m paddle_on_torch`."""
    script = _write(tmp_path, "script.py", f"""
import paddle
from paddle.utils.cpp_extension import load
ops = load(name="pot_test_ops", sources={SOURCES!r}, build_directory={build_dir!r})
x = paddle.to_tensor([-2.0, 1.0], stop_gradient=False)
ops.pot_relu(x).sum().backward()
print(x.grad.numpy().tolist())
""")
    r = subprocess.run([sys.executable, "-m", "paddle_on_torch", script], capture_output=True, text=True,
                       timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[0.0, 1.0]"
