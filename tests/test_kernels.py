"""The fused ops (paddle.incubate.nn.functional) and their custom torch ops in every backend.

Forward and every gradient of the C++ and Triton kernels are checked against the reference torch
composition (plain autograd); fused_rotary_position_embedding is also checked against a NumPy
transcription of Paddle's CUDA kernel (Paddle's CPU build has none).  Golden values from real
Paddle's CPU kernels are in tests/cases/fused.py.  Triton runs under TRITON_INTERPRET=1 on small
shapes, and is skipped when triton is not installed.  The C++ build is cached in a temp directory
keyed by its source hash, so only the first run pays for the compile.
"""
import importlib.util
import os
import tempfile
import warnings

import numpy as np
import pytest
import torch

os.environ.setdefault("PADDLE_ON_TORCH_EXT_CACHE", os.path.join(tempfile.gettempdir(), "paddle_on_torch_ext"))
if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")  # must be set before triton.jit runs

import paddle_on_torch as paddle  # noqa: E402
from paddle_on_torch.kernels import cpp as ext  # noqa: E402
from paddle_on_torch.kernels import dispatch, norm, rope, swiglu  # noqa: E402

HAS_TRITON = importlib.util.find_spec("triton") is not None
F = paddle.incubate.nn.functional


def _cpp_ok():
    return ext.load() is not None


BACKENDS = [
    "reference",
    pytest.param("cpp", marks=pytest.mark.skipif(not _cpp_ok(), reason="C++ kernels could not be built here")),
    pytest.param("triton", marks=pytest.mark.skipif(not HAS_TRITON, reason="triton is not installed")),
]


def _close(got, want, dtype, what=""):
    got, want = got.detach().float(), want.detach().float()
    assert got.shape == want.shape, what
    if not want.numel():
        return
    if dtype == torch.bfloat16:
        scale = want.abs().max().item() + 1e-6
        tol = 2e-2 * scale
        assert (got - want).abs().max().item() <= tol, f"{what}: {(got - want).abs().max().item()} > {tol}"
    else:
        torch.testing.assert_close(got, want, rtol=2e-5, atol=2e-5, msg=what)


def _leaf(t, dtype):
    return t.to(dtype).detach().requires_grad_(True)


# ------------------------------------------------------------------ norms


def _small(backend):
    return backend == "triton" and not torch.cuda.is_available()


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("rms", [True, False])
@pytest.mark.parametrize("variant", ["plain", "residual", "no_affine", "noncontig"])
def test_norm_forward_and_grads(backend, dtype, rms, variant):
    torch.manual_seed(0)
    shape = (3, 7, 37) if _small(backend) else (5, 123, 123)
    n = shape[-1]
    x = torch.randn(shape)
    if variant == "noncontig":
        x = torch.randn(shape[::-1]).transpose(0, 2)  # non-contiguous input
    x = _leaf(x, dtype)
    if variant == "noncontig":
        x = x.transpose(0, 2).detach().requires_grad_(True).transpose(0, 2)
    res = _leaf(torch.randn(shape), dtype) if variant == "residual" else None
    bias = _leaf(torch.randn(n), torch.float32) if variant == "residual" else None
    w = None if variant == "no_affine" else _leaf(torch.randn(n) + 1, torch.float32)
    nb = None if variant == "no_affine" else _leaf(torch.randn(n), torch.float32)
    x2 = x.reshape(-1, n)
    r2 = res.reshape(-1, n) if res is not None else None
    got = norm.norm(x2, r2, bias, w, nb, 1e-5, 0.5, rms, 1)
    want = norm.ref_norm(x2, r2, bias, w, nb, 1e-5, 0.5, rms)
    for g, r, name in zip(got, want, ["out", "residual_out", "mean", "rstd"]):
        _close(g, r, dtype, name)
    leaves = [t for t in (x, res, bias, w, nb) if t is not None]
    gy = torch.randn(got[0].shape).to(dtype)
    loss = lambda o: (o[0].float() * gy.float()).sum() + (o[1].float().sum() * 0.3 if res is not None else 0)  # noqa
    g1 = torch.autograd.grad(loss(got), leaves)
    g2 = torch.autograd.grad(loss(want), leaves)
    for a, b, i in zip(g1, g2, range(5)):
        _close(a, b, dtype, f"grad {i}")


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_norm_zero_rows_and_one_column(backend):
    for shape in [(0, 8), (4, 1)]:
        x = torch.randn(shape, requires_grad=True)
        w = torch.ones(shape[1], requires_grad=True)
        out = norm.norm_fwd(x, None, None, w, None, 1e-6, 1.0, False, 1)[0]
        _close(out, norm.ref_norm(x, None, None, w, None, 1e-6, 1.0, False)[0], torch.float32)
        out.sum().backward()
        assert w.grad.abs().sum() == 0  # no rows (or one column: every normalised value is 0)


# ------------------------------------------------------------------ rotary embedding


def _rope_numpy(x, sin, cos, pos_ids, neox, time_major, base=10000.0):
    """A transcription of Paddle's CUDA fused_rope kernel, element by element (float64)."""
    x = x.astype(np.float64)
    if time_major:
        x = x.transpose(1, 0, 2, 3)
    b, s, h, d = x.shape
    out = np.empty_like(x)
    for bi in range(b):
        for si in range(s):
            pos = si if pos_ids is None else int(pos_ids[bi, si])
            if sin is None:
                j = np.arange(d)
                theta = pos * (1.0 / base ** ((j // 2 * 2.0) / d))
                sn, cs = np.sin(theta), np.cos(theta)
            else:
                sn, cs = sin.reshape(-1, d)[pos].astype(np.float64), cos.reshape(-1, d)[pos].astype(np.float64)
            for hi in range(h):
                v = x[bi, si, hi]
                for j in range(d):
                    if neox:
                        p = -v[j + 1] if j % 2 == 0 else v[j - 1]
                    else:
                        p = -v[j + d // 2] if j < d // 2 else v[j - d // 2]
                    out[bi, si, hi, j] = v[j] * cs[j] + p * sn[j]
    return out.transpose(1, 0, 2, 3) if time_major else out


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("neox", [True, False])
@pytest.mark.parametrize("mode", ["given", "given_4d_pos_ids", "computed", "time_major"])
def test_rope_matches_paddle_kernel(backend, neox, mode):
    if mode == "computed" and not neox:
        pytest.skip("Paddle asserts use_neox_rotary_style without sin/cos")
    rng = np.random.default_rng(0)
    b, s, h, d = 2, 5, 3, 8
    time_major = mode == "time_major"
    shape = (s, b, h, d) if time_major else (b, s, h, d)
    q, k = rng.standard_normal(shape).astype("float32"), rng.standard_normal(shape).astype("float32")
    v = rng.standard_normal(shape[:2] + (1, d)).astype("float32")  # fewer heads than q
    sin = cos = pos = None
    if mode != "computed":
        ang = rng.standard_normal((7, d)).astype("float32")
        sin, cos = np.sin(ang), np.cos(ang)
        if mode == "given_4d_pos_ids":
            sin, cos = sin[None, :, None], cos[None, :, None]
            pos = rng.integers(0, 7, size=(b, s))
        else:
            sin, cos = sin[:s], cos[:s]
    T = lambda a: None if a is None else paddle.to_tensor(a)  # noqa
    outs = F.fused_rotary_position_embedding(T(q), T(k), T(v), sin=T(sin), cos=T(cos), position_ids=T(pos),
                                             use_neox_rotary_style=neox, time_major=time_major)
    for got, inp in zip(outs, (q, k, v)):
        want = _rope_numpy(inp, sin, cos, pos, neox, time_major)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)


def test_rope_absent_inputs_and_asserts():
    q = paddle.randn([1, 4, 2, 8])
    out_q, out_k, out_v = F.fused_rotary_position_embedding(q)
    assert out_k is None and out_v is None and out_q.shape == [1, 4, 2, 8]
    with pytest.raises(AssertionError):
        F.fused_rotary_position_embedding(q, use_neox_rotary_style=False)
    with pytest.raises(ValueError):
        F.fused_rotary_position_embedding(paddle.randn([1, 4, 2, 7]))


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("neox", [True, False])
def test_rope_grads(backend, dtype, neox):
    torch.manual_seed(0)
    shape = (2, 3, 2, 16) if _small(backend) else (5, 123, 3, 64)
    x = _leaf(torch.randn(shape[1], shape[0], shape[2], shape[3]), dtype)  # non-contiguous view below
    xv = x.transpose(0, 1)
    # distinct sin values within each pair, so a wrong transpose would show
    cos, sin = torch.randn(1, shape[1], shape[3]), torch.randn(1, shape[1], shape[3])
    got = rope.rotary(xv, cos, sin, neox)
    want = rope.ref_rope(xv, cos, sin, neox)
    _close(got, want, dtype, "forward")
    g = torch.randn(shape).to(dtype)
    _close(torch.autograd.grad((got.float() * g.float()).sum(), x)[0],
           torch.autograd.grad((want.float() * g.float()).sum(), x)[0], dtype, "grad")


# ------------------------------------------------------------------ swiglu


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("split", [True, False])
def test_swiglu_forward_and_grads(backend, dtype, split):
    torch.manual_seed(0)
    shape = (3, 5, 2 * 37) if _small(backend) else (5, 123, 2 * 123)
    xx = _leaf(torch.randn(shape), dtype)
    if split:
        x, y = xx.chunk(2, -1)  # strided halves, no copy
        leaves = [xx]
    else:
        x = xx[..., ::2]  # non-unit column stride: copied
        y = _leaf(torch.randn(x.shape), dtype)
        leaves = [xx, y]
    got, want = swiglu.silu_mul(x, y), swiglu.ref_swiglu(x, y)
    _close(got, want, dtype, "forward")
    g = torch.randn(got.shape).to(dtype)
    for a, b in zip(torch.autograd.grad((got.float() * g.float()).sum(), leaves),
                    torch.autograd.grad((want.float() * g.float()).sum(), leaves)):
        _close(a, b, dtype, "grad")


def test_swiglu_paddle_api():
    x = paddle.to_tensor(np.linspace(-3, 3, 12, dtype="float32").reshape(2, 6), stop_gradient=False)
    y = F.swiglu(x)
    a, b = x.numpy()[:, :3], x.numpy()[:, 3:]
    np.testing.assert_allclose(y.numpy(), a / (1 + np.exp(-a)) * b, rtol=1e-5, atol=1e-6)
    y.sum().backward()
    assert x.grad.shape == [2, 6] and not y.stop_gradient


# ------------------------------------------------------------------ Paddle API level


def test_paddle_api_grads_and_shapes():
    x = paddle.randn([2, 3, 16])
    x.stop_gradient = False
    w = paddle.ones([16])
    w.stop_gradient = False
    r = paddle.randn([2, 3, 16])
    out, res_out = F.fused_rms_norm(x, w, None, 1e-6, 2, residual=r)
    assert out.shape == [2, 3, 16] and res_out.shape == [2, 3, 16]
    (out.sum() + res_out.sum()).backward()
    assert x.grad.shape == [2, 3, 16] and w.grad.shape == [16]
    out, _, mean, var = F.fused_layer_norm(x, w, None, 1e-5, begin_norm_axis=2)
    assert mean.shape == [6] and var.shape == [6] and str(mean.dtype) == "paddle.float32"
    out.mean().backward()


def test_quantisation_is_not_implemented():
    x, w = paddle.randn([2, 8]), paddle.ones([8])
    with pytest.raises(NotImplementedError, match="fused_rms_norm"):
        F.fused_rms_norm(x, w, None, 1e-6, 1, quant_scale=0.5)
    with pytest.raises(NotImplementedError, match="fused_layer_norm"):
        F.fused_layer_norm(x, w, None, 1e-6, quant_scale=0.5)
    with pytest.raises(NotImplementedError, match="fused_bias_act"):
        F.fused_bias_act(x, None, quant_scale=0.5)


def test_fused_bias_act():
    x, b = paddle.randn([3, 8]), paddle.randn([8])
    s = x.numpy() + b.numpy()
    np.testing.assert_allclose(F.fused_bias_act(x, b, act_method="relu").numpy(), np.maximum(s, 0), rtol=1e-6)
    a, c = s[:, :4], s[:, 4:]
    np.testing.assert_allclose(F.fused_bias_act(x, b, act_method="swiglu").numpy(), a / (1 + np.exp(-a)) * c,
                               rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError):
        F.fused_bias_act(x, b, act_method="nope")


# ------------------------------------------------------------------ torch.library machinery


def _python_formula(op, *args):
    """op(*args) through its Python autograd formula (register_autograd) instead of the autograd kernel registered
    for the CPU (ext/<op>.cpp): custom_op's autograd entry, called directly for the CPU key."""
    from torch._library.autograd import make_autograd_impl

    impl = make_autograd_impl(op._opoverload, op)
    keys = torch._C.DispatchKeySet(torch._C.DispatchKey.CPU) | torch._C.DispatchKeySet(torch._C.DispatchKey.AutogradCPU)
    return impl(keys, *args)


@pytest.mark.parametrize("backend", BACKENDS[1:2], indirect=True)
def test_cpp_autograd_formula_matches_the_python_one(backend):
    """The eager fast path (the C++ autograd kernel of ext/<op>.cpp, what a CPU call gets) and the op's Python
    formula (what the other devices get) give the same outputs and gradients."""
    torch.manual_seed(0)
    x, r = torch.randn(9, 40, requires_grad=True), torch.randn(9, 40, requires_grad=True)
    w, b = torch.randn(40, requires_grad=True), torch.randn(40, requires_grad=True)
    q, cs, sn = torch.randn(2, 3, 2, 8, requires_grad=True), torch.randn(1, 3, 8), torch.randn(1, 3, 8)
    cases = [(norm.norm_fwd, (x, r, b, w, b, 1e-5, 0.7, False, 1), 2), (rope.rope, (q, cs, sn, True), 1),
             (swiglu.swiglu, (x, r), 1)]
    for op, args, n_out in cases:
        outs = []
        for fn in (lambda: op(*args), lambda: _python_formula(op, *args)):
            o = fn()
            o = tuple(o[:n_out]) if isinstance(o, tuple) else (o,)
            loss = sum((t * torch.linspace(-1, 1, t.numel()).reshape(t.shape)).sum() for t in o)
            outs.append((type(o[0].grad_fn).__name__, list(o) + list(torch.autograd.grad(loss, [x, r, b, w, q],
                                                                                          allow_unused=True))))
        (cpp_node, a_vals), (py_node, c_vals) = outs
        assert "CppFunction" in cpp_node and "CppFunction" not in py_node, (cpp_node, py_node)
        for a, c in zip(a_vals, c_vals):
            assert (a is None) == (c is None)
            if a is not None:
                torch.testing.assert_close(a, c)


def _opcheck_cases():
    x = torch.randn(6, 10, requires_grad=True)
    r = torch.randn(6, 10, requires_grad=True)
    w, nb, bias = (torch.randn(10, requires_grad=True) for _ in range(3))
    q = torch.randn(2, 3, 2, 8, requires_grad=True)
    cs = torch.randn(1, 3, 8)
    y = torch.randn(6, 10, requires_grad=True)
    return [
        (torch.ops.paddle_on_torch.norm_fwd.default, (x, r, bias, w, nb, 1e-5, 0.5, False, 1)),
        (torch.ops.paddle_on_torch.norm_fwd.default, (x, None, None, w, None, 1e-5, 1.0, True, 1)),
        (torch.ops.paddle_on_torch.norm_fwd.default, (x.reshape(2, 3, 10), None, None, w, None, 1e-5, 1.0, True, 2)),
        (torch.ops.paddle_on_torch.rope.default, (q, cs, cs.clone(), True)),
        (torch.ops.paddle_on_torch.rope.default, (q, cs, cs.clone(), False)),
        (torch.ops.paddle_on_torch.swiglu.default, (x, y)),
    ]


@pytest.mark.parametrize("backend", BACKENDS[:2], indirect=True)
def test_opcheck(backend):
    for opfn, args in _opcheck_cases():
        torch.library.opcheck(opfn, args, test_utils=("test_schema", "test_autograd_registration",
                                                      "test_faketensor", "test_aot_dispatch_dynamic"))


def test_compile_fullgraph_and_make_fx():
    def f(x, w, q, cs):
        out = norm.norm_fwd(x, None, None, w, None, 1e-6, 1.0, True, 1)[0]
        return out.sum() + rope.rope(q, cs, cs, True).sum() + swiglu.swiglu(x, out).sum()

    x, w = torch.randn(4, 8, requires_grad=True), torch.randn(8, requires_grad=True)
    q, cs = torch.randn(1, 3, 2, 8, requires_grad=True), torch.randn(1, 3, 8)
    cf = torch.compile(f, backend="aot_eager", fullgraph=True)
    got = cf(x, w, q, cs)
    got.backward()
    g = [x.grad.clone(), w.grad.clone(), q.grad.clone()]
    x.grad = w.grad = q.grad = None
    f(x, w, q, cs).backward()
    for a, b in zip(g, [x.grad, w.grad, q.grad]):
        torch.testing.assert_close(a, b)
    from torch.fx.experimental.proxy_tensor import make_fx

    gm = make_fx(f)(x, w, q, cs)
    assert "paddle_on_torch.norm_fwd" in str(gm.graph)


def test_env_var_forces_backend(monkeypatch):
    t = torch.randn(2, 2)
    monkeypatch.setenv("PADDLE_ON_TORCH_KERNELS", "reference")
    dispatch.reload_env()
    assert dispatch.backend_for(t) == "reference"
    monkeypatch.delenv("PADDLE_ON_TORCH_KERNELS")
    dispatch.reload_env()
    assert dispatch.backend_for(t) == ("cpp" if _cpp_ok() else "reference")
    assert dispatch.backend_for(t.double()) == ("cpp" if _cpp_ok() else "reference")  # float64: its ATen composition


def test_no_compiler_falls_back_with_one_warning(broken_compiler):
    broken_compiler(ext.CPP)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        assert dispatch.backend_for(torch.randn(2)) == "reference"
        x = torch.randn(3, 4)
        norm.norm_fwd(x, None, None, None, None, 1e-6, 1.0, True, 1)
    assert sum("C++ CPU kernels unavailable" in str(r.message) for r in rec) == 1


def _fake_install_time_build(monkeypatch, version, capability):
    import sys
    import types

    mod = types.ModuleType("paddle_on_torch.kernels._C")
    mod.torch_version = version
    mod.capability = lambda: capability
    monkeypatch.setitem(sys.modules, "paddle_on_torch.kernels._C", mod)
    return mod


def test_loader_takes_the_install_time_build_when_it_matches(monkeypatch):
    """The extension setup.py built (paddle_on_torch.kernels._C) is used as is when it was built for this torch and
    this CPU: no JIT build is attempted."""
    from torch.utils import cpp_extension

    mod = _fake_install_time_build(monkeypatch, torch.__version__.split("+")[0], ext.capability())
    monkeypatch.setattr(cpp_extension, "load", lambda *a, **k: pytest.fail("JIT build attempted"))
    assert ext._installed() is mod and ext.CppModule().load() is mod


@pytest.mark.parametrize("stale", [True, False])
def test_loader_reads_the_build_info_before_importing(monkeypatch, tmp_path, stale):
    """setup.py writes what it built from beside the extension (kernels/_C.json); a build of other sources is
    passed over without being imported (importing it would register its kernels with the dispatcher)."""
    import importlib
    import json
    import sys

    monkeypatch.delitem(sys.modules, "paddle_on_torch.kernels._C", raising=False)
    info = tmp_path / "_C.json"
    info.write_text(json.dumps({"source_hash": "0" * 16 if stale else ext.source_hash(), "capability": ext.capability(),
                                "torch": torch.__version__}))
    monkeypatch.setattr(ext, "BUILD_INFO", str(info))  # an absolute path: os.path.join keeps it
    imported = []
    real = importlib.import_module
    monkeypatch.setattr(importlib, "import_module",
                        lambda name, *a: imported.append(name) or (_ for _ in ()).throw(ImportError("not built")))
    assert ext._installed() is None
    assert imported == ([] if stale else ["paddle_on_torch.kernels._C"])
    monkeypatch.setattr(importlib, "import_module", real)


@pytest.mark.parametrize("why", ["torch", "cpu"])
def test_loader_builds_ext_when_the_install_time_build_does_not_match(monkeypatch, why):
    """An install-time build for another torch or another CPU capability is passed over for the JIT build."""
    version = torch.__version__.split("+")[0]
    other_cap = "DEFAULT" if ext.capability() != "DEFAULT" else "AVX2"
    _fake_install_time_build(monkeypatch, "0.0.0" if why == "torch" else version,
                             other_cap if why == "cpu" else ext.capability())
    built = object()
    monkeypatch.setattr(ext, "_jit_build", lambda verbose: built)
    assert ext._installed() is None and ext.CppModule().load() is built


def test_jit_build_runs_the_ninja_beside_this_interpreter(monkeypatch, tmp_path):
    """A script run with the environment's python but not activated must not build with the system's ninja:
    two ninja versions sharing a build folder rebuild every object in turn."""
    import sysconfig

    scripts = sysconfig.get_path("scripts")
    if not os.path.isfile(os.path.join(scripts, "ninja")):
        pytest.skip("no ninja installed beside this interpreter")
    monkeypatch.setenv("PATH", os.pathsep.join(["/usr/bin", "/bin"]))
    with ext._this_environments_ninja():
        assert os.environ["PATH"].split(os.pathsep)[0] == scripts
    assert os.environ["PATH"] == os.pathsep.join(["/usr/bin", "/bin"])


def test_build_folder_differs_per_checkout(monkeypatch):
    here = ext.build_dir(ext.compile_flags())
    monkeypatch.setattr(ext, "SOURCE_DIR", "/elsewhere/ext")
    assert ext.build_dir(ext.compile_flags()) != here


@pytest.mark.build
def test_jit_build_of_ext_serves_the_ops_when_the_install_time_build_does_not_match():
    """A fresh process whose install-time build is for another torch loads the JIT build of the same ext/ sources
    from $PADDLE_ON_TORCH_EXT_CACHE, and the ops' CPU kernels run it.  Where the tests run on the JIT build (no
    install-time build) it is cached already; otherwise it is built (minutes: the `build` lane)."""
    import subprocess
    import sys

    code = (
        "import sys, types, torch\n"
        "fake = types.ModuleType('paddle_on_torch.kernels._C'); fake.torch_version = '0.0.0'\n"
        "sys.modules['paddle_on_torch.kernels._C'] = fake\n"
        "from paddle_on_torch.kernels import cpp, dispatch, swiglu\n"
        "mod = cpp.load()\n"
        "assert mod is not fake and mod.__file__.startswith(cpp.build_dir(cpp.compile_flags())), mod\n"
        "assert dispatch.backend_for(torch.randn(2)) == 'cpp'\n"
        "x = torch.randn(4, 16)\n"
        "torch.testing.assert_close(swiglu.swiglu(x, x), swiglu.ref_swiglu(x, x))\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1200,
                         env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-3000:]


def test_float64_gradcheck():
    """fp64 runs the reference path (the statistics stay float32, as Paddle's)."""
    torch.manual_seed(0)
    x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
    w = torch.randn(6, dtype=torch.float64, requires_grad=True)
    r = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, w, r: norm.norm(x, r, None, w, w, 1e-6, 0.5, False, 1)[:2],
                                    (x, w, r), atol=1e-5)
    q = torch.randn(1, 3, 2, 4, dtype=torch.float64, requires_grad=True)
    c, s = torch.randn(1, 3, 4, dtype=torch.float64), torch.randn(1, 3, 4, dtype=torch.float64)
    for neox in (True, False):
        assert torch.autograd.gradcheck(lambda q: rope.rotary(q, c, s, neox), (q,))
    assert torch.autograd.gradcheck(swiglu.silu_mul, (x, r))


@pytest.mark.skipif(not _cpp_ok(), reason="C++ kernels could not be built here")
def test_big_outputs_reuse_freed_blocks():
    """Outputs of 1 MiB and more come from a cache of freed blocks (no fresh page faults on reuse)."""
    import pickle

    cpp = ext.load()
    ext.empty_cache()
    assert ext.cached_bytes() == 0
    norm_fwd = lambda x, *a: torch.ops.paddle_on_torch.norm_fwd.default(x, *a, 1)  # noqa: E731  (the C++ kernel)
    torch.manual_seed(0)
    x, w = torch.randn(512, 1024), torch.randn(1024)  # a 2 MiB output
    want = norm.ref_norm(x, None, None, w, None, 1e-6, 1.0, True)[0]
    out = norm_fwd(x, None, None, w, None, 1e-6, 1.0, True)[0]
    ptr = out.data_ptr()
    del out
    assert cpp.cached_bytes() == 2 << 20
    again = norm_fwd(x, None, None, w, None, 1e-6, 1.0, True)[0]
    assert again.data_ptr() == ptr and cpp.cached_bytes() == 0
    _close(again, want, torch.float32)
    # an ordinary tensor otherwise: resizable, picklable, numpy-viewable
    again.resize_(600, 1024)
    assert pickle.loads(pickle.dumps(again[:512])).equal(again[:512])
    assert again.numpy().shape == (600, 1024)
    small = norm_fwd(x[:4], None, None, w, None, 1e-6, 1.0, True)[0]  # below 1 MiB: torch's allocator
    del again, small
    # resize_ took a 4 MiB block (2.4 MiB rounded up to 2 MiB pages) from the cache's allocator and gave the old back
    assert ext.cached_bytes() == 6 << 20
    ext.empty_cache()
    assert ext.cached_bytes() == 0
    old = ext.set_cache_limit(3 << 20)  # room for one 2 MiB block: the second one freed evicts the first
    try:
        a, b = (norm_fwd(x, None, None, w, None, 1e-6, 1.0, True)[0] for _ in range(2))
        del a, b
        assert ext.cached_bytes() == 2 << 20
        ext.set_cache_limit(0)  # off: the cache gives its blocks back and outputs come from torch's allocator
        assert ext.cached_bytes() == 0
        norm_fwd(x, None, None, w, None, 1e-6, 1.0, True)  # freed at once
        assert ext.cached_bytes() == 0
    finally:
        ext.set_cache_limit(old)


@pytest.mark.slow
@pytest.mark.skipif(not _cpp_ok(), reason="C++ kernels could not be built here")
def test_outputs_over_32mib_streaming_stores():
    """Outputs of 32 MiB and more are written with streaming stores (a separate code path): same results."""
    torch.manual_seed(0)
    m, n = 2048, 4096  # 32 MiB of fp32
    ops = torch.ops.paddle_on_torch  # on CPU tensors: the C++ kernels
    x, dy, w, b = torch.randn(m, n), torch.randn(m, n), torch.randn(n), torch.randn(n)
    for rms in (True, False):
        got = ops.norm_fwd(x, None, None, w, None if rms else b, 1e-6, 1.0, rms, 1)
        want = norm.ref_norm(x, None, None, w, None if rms else b, 1e-6, 1.0, rms)
        _close(got[0], want[0], torch.float32, "norm out")
        dx, dres, dbias, dw, db = ops.norm_bwd(dy, None, x, got[2], got[3], w, 1.0, rms, False, True, False, True,
                                               not rms, 1)
        assert not dres.numel() and not dbias.numel() and (not db.numel()) == rms
        db = db if db.numel() else None
        for a, c in zip((dx, dw, db), norm.ref_norm_bwd(dy, x, want[2], want[3], w, rms, True, not rms)):
            if c is not None:
                torch.testing.assert_close(a, c, rtol=1e-4, atol=1e-3)
    y = torch.randn(m, n)
    _close(ops.swiglu(x, y), swiglu.ref_swiglu(x, y), torch.float32, "swiglu")
    xs = x.detach().requires_grad_(True)
    want = torch.autograd.grad(swiglu.ref_swiglu(xs, y), xs, dy)[0]
    _close(ops.swiglu_bwd(dy, x, y)[0], want, torch.float32, "swiglu dx")
    q = x.reshape(1, 2048, 32, 128)
    cs, sn = torch.randn(1, 2048, 128).cos(), torch.randn(1, 2048, 128).sin()
    for neox in (True, False):
        _close(ops.rope(q, cs, sn, neox), rope.ref_rope(q, cs, sn, neox), torch.float32, "rope")
    from paddle_on_torch.kernels import cross_entropy as ce

    logits, lab, g = x.reshape(256, 32768), torch.randint(0, 32768, (256,)), torch.randn(256)
    lab[3] = -100
    lab[4] = 32767
    lse = torch.logsumexp(logits, -1)
    _close(ops.softmax_ce_bwd(logits, lab, lse, g, -100), ce._ref_bwd(logits, lab, lse, g, -100), torch.float32, "ce grad")


# ------------------------------------------------------------------ softmax cross entropy (Triton)

@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the interpreter evaluates (in NumPy) lanes tl.where drops
@pytest.mark.parametrize("backend", BACKENDS[2:], indirect=True)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("block", [64, None])  # 64: the vocabulary loop runs over several blocks
def test_triton_softmax_ce_matches_reference(backend, dtype, block, monkeypatch):
    from paddle_on_torch.kernels import cross_entropy as ce
    from paddle_on_torch.kernels import cross_entropy_triton

    if block:
        monkeypatch.setattr(cross_entropy_triton, "_CE_BLOCK", block)
    torch.manual_seed(0)
    m, v = 7, 301
    big = torch.randn(m, v + 5) * 4
    big[3, 10] = float("-inf")
    big[5] = float("-inf")  # an ignored all -inf row
    x = big[:, :v].to(dtype).detach().requires_grad_(True)  # rows with stride v + 5
    lab = torch.randint(0, v, (m,))
    lab[1] = lab[5] = -100
    got = ce.fused_softmax_cross_entropy(x, lab, -100)
    want = ce.ref_softmax_ce(x, lab, -100)[0]
    assert got.dtype == dtype
    _close(got, want, dtype, "loss")
    g = torch.randn(m)
    g1 = torch.autograd.grad((got.float() * g).sum(), x)[0]
    g2 = torch.autograd.grad((want.float() * g).sum(), x)[0]
    rows = [0, 1, 2, 3, 4, 6]  # the reference's grad of the ignored all -inf row is nan (0 * exp(-inf + inf))
    _close(g1[rows], g2[rows], dtype, "grad")
    assert g1[5].abs().sum() == 0 and g1[1].abs().sum() == 0
    # a label outside [0, V) (another vocabulary shard's) adds no one-hot term
    xd = x.detach()
    lse = torch.logsumexp(xd.float(), -1)
    shard = torch.full((m,), v)
    _close(cross_entropy_triton.ce_bwd(xd, shard, lse, g, -100)[rows], (torch.softmax(xd.float(), -1) * g[:, None])[rows],
           dtype, "shard grad")
    with pytest.raises(IndexError):
        ce.fused_softmax_cross_entropy(x, torch.full((m,), v), -100)


# ------------------------------------------------------------------ the dispatch table (kernels/dispatch.py)

FUSED_OPS = ["norm_fwd", "norm_bwd", "rope", "rope_bwd", "swiglu", "swiglu_bwd", "softmax_ce", "softmax_ce_bwd"]


def _op_args(name):
    x, y, w = torch.randn(6, 10), torch.randn(6, 10), torch.randn(10)
    q, cs = torch.randn(2, 3, 2, 8), torch.randn(1, 3, 8)
    mean, rstd = torch.randn(6), torch.rand(6) + 0.5
    lab, lse, g = torch.randint(0, 10, (6,)), torch.logsumexp(x, -1), torch.randn(6)
    return {"norm_fwd": (x, None, None, w, None, 1e-6, 1.0, False, 1),
            "norm_bwd": (y, x * 0.5, x, mean, rstd, w, 0.7, False, True, True, True, True, True, 1),
            "rope": (q, cs, cs.sin(), True), "rope_bwd": (q, cs, cs.sin(), False), "swiglu": (x, y),
            "swiglu_bwd": (y, x, y),
            "softmax_ce": (x, lab, -100), "softmax_ce_bwd": (x, lab, lse, g, -100)}[name]


class _TritonSpy:
    """Stands in for kernels/<op>_triton.py: records which launcher a call reached and answers with the reference
    composition (so the wiring is checked without triton or a GPU)."""

    def __init__(self):
        from paddle_on_torch.kernels import cross_entropy as ce

        self.calls = []
        self.reference = {
            "norm_fwd": norm.ref_norm, "norm_bwd": norm.ref_norm_bwd,
            "rope_fwd": lambda x, c, s, neox, transpose=False: rope.ref_rope(
                x, c, rope.rope_transpose_sin(s, neox) if transpose else s, neox),
            "swiglu_fwd": swiglu.ref_swiglu, "swiglu_bwd": lambda g, x, y: swiglu._swiglu_bwd_reference(g, x, y),
            "ce_fwd": lambda x, lab, ii: tuple(t.float() for t in ce.ref_softmax_ce(x, lab, ii)), "ce_bwd": ce._ref_bwd}

    def __getattr__(self, launcher):
        def call(*args, **kwargs):
            self.calls.append(launcher)
            return self.reference[launcher](*args, **kwargs)
        return call


@pytest.mark.parametrize("name", FUSED_OPS)
def test_cuda_dispatch_key_runs_the_triton_kernel(name, monkeypatch):
    """Each op has its own CPU and CUDA kernels and a fake in the dispatcher, and the CUDA key's kernel calls the
    Triton launcher (reached by redispatching CPU tensors to the CUDA key, with a spy standing in for
    kernels/<op>_triton.py: no triton or GPU needed)."""
    from paddle_on_torch.kernels import cross_entropy as ce  # noqa: F401  (registers softmax_ce)
    from paddle_on_torch.kernels import dispatch

    qual = f"paddle_on_torch::{name}"
    for key in ("CPU", "CUDA", "Meta"):
        assert torch._C._dispatch_has_kernel_for_dispatch_key(qual, key), (name, key)
    assert dispatch.kernel_for(qual, "cuda").__name__.endswith("_cuda")
    assert dispatch.kernel_for(qual, "cpu") == ("cpp" if _cpp_ok() else dispatch.TABLE[qual]["reference"])
    spy = _TritonSpy()
    monkeypatch.setattr(dispatch, "triton_module", lambda name: spy)
    op = getattr(torch.ops.paddle_on_torch, name).default
    torch.manual_seed(0)
    args = _op_args(name)
    got = op.redispatch(torch._C.DispatchKeySet(torch._C.DispatchKey.CUDA), *args)
    assert spy.calls == [{"rope": "rope_fwd", "rope_bwd": "rope_fwd", "swiglu": "swiglu_fwd", "softmax_ce": "ce_fwd",
                          "softmax_ce_bwd": "ce_bwd"}.get(name, name)]
    want = op(*args)  # the CPU kernel
    for a, b in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-4)


def test_backend_override_rewires_the_dispatcher():
    """set_backend changes which kernel the dispatcher's CPU and CUDA entries run, not a branch in the op body."""
    from paddle_on_torch.kernels import dispatch

    qual = "paddle_on_torch::swiglu"
    try:
        dispatch.set_backend("reference")
        assert dispatch.kernel_for(qual, "cpu") is dispatch.TABLE[qual]["reference"]
        assert dispatch.kernel_for(qual, "cuda") is dispatch.TABLE[qual]["reference"]
        dispatch.set_backend("triton")
        assert dispatch.kernel_for(qual, "cpu") is dispatch.TABLE[qual]["cuda"]
    finally:
        dispatch.set_backend(None)
    assert dispatch.kernel_for(qual, "cpu") == ("cpp" if _cpp_ok() else dispatch.TABLE[qual]["reference"])
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    out = swiglu.silu_mul(x, x * 2)  # float64: the C++ CPU kernel's ATen composition
    torch.testing.assert_close(out, swiglu.ref_swiglu(x, x * 2))


@pytest.mark.skipif(not _cpp_ok(), reason="C++ kernels could not be built here")
def test_forced_backend_overrides_the_cpp_kernel_and_gives_it_back():
    """A forced backend registers its CPU kernel over the C++ one (TORCH_LIBRARY_IMPL); unforcing restores it."""
    x = torch.randn(3, 4)
    calls = []
    ref = dispatch.TABLE["paddle_on_torch::swiglu"]["reference"]
    try:
        dispatch.TABLE["paddle_on_torch::swiglu"]["reference"] = lambda *a: calls.append(1) or ref(*a)
        dispatch.set_backend("reference")
        swiglu.silu_mul(x, x)
        assert calls == [1]
    finally:
        dispatch.TABLE["paddle_on_torch::swiglu"]["reference"] = ref
        dispatch.set_backend(None)
    swiglu.silu_mul(x, x)
    assert calls == [1]  # the C++ kernel again


def test_importing_the_kernels_does_not_import_triton():
    import subprocess
    import sys

    code = ("import sys; import paddle_on_torch.kernels.norm, paddle_on_torch.kernels.rope, "
            "paddle_on_torch.kernels.swiglu, paddle_on_torch.kernels.cross_entropy; "
            "assert 'triton' not in sys.modules, 'triton imported'; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_plain_cuda_tensors_take_the_op():
    x = torch.randn(3, 40, device="cuda", requires_grad=True)
    out = swiglu.silu_mul(x, x * 2)
    assert dispatch.backend_for(x) == ("triton" if HAS_TRITON else "reference")
    assert "paddle_on_torch_swiglu" in type(out.grad_fn).__name__
