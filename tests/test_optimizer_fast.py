"""The optimizers' multi-tensor (torch._foreach_*) step against their per-parameter step.

Both paths must give the same bits: parameters, accumulators, master weights, over several steps, for
every option that changes the update (weight decay kinds, apply_decay_param_fun, lr_ratio, ParamAttr
learning rates and regularizers, gradient clipping, parameter groups, amsgrad, Nesterov, float64,
multi_precision).  The per-parameter path is the one the golden tests (tests/cases/optim.py) settle
against real Paddle; `opt._foreach = False` selects it.
"""
import numpy as np
import pytest

import paddle

STEPS = 4


def _net(dtype="float32", attr=None, bias_attr=None):
    paddle.seed(3)
    net = paddle.nn.Sequential(paddle.nn.Linear(5, 4, weight_attr=attr, bias_attr=bias_attr), paddle.nn.Tanh(),
                               paddle.nn.Linear(4, 3), paddle.nn.LayerNorm(3))
    if dtype != "float32":
        net.to(dtype=dtype)
    return net


def _run(make_opt, foreach, dtype="float32", attr=None, bias_attr=None, groups=False):
    with paddle.utils.unique_name.guard():
        net = _net(dtype, attr, bias_attr)
        params = net.parameters()
        if groups:
            params = [{"params": params[:2], "learning_rate": 0.5, "weight_decay": 0.03},
                      {"params": params[2:]}]
        opt = make_opt(params)
        opt._foreach = foreach
        if foreach:  # the multi-tensor path must be the one taken
            opt._update = _not_called
        rng = np.random.default_rng(0)
        for _ in range(STEPS):
            x = paddle.to_tensor(rng.standard_normal([6, 5]).astype("float32")).astype(dtype)
            y = net(x)
            loss = (y * y).mean() + y.sum() * 0.1
            loss.backward()
            opt.step()
            opt.clear_grad()
        state = opt.state_dict()
        masters = state.pop("master_weights", {})
        state.pop("LR_Scheduler", None)
        out = {p.name: p.numpy() for p in net.parameters()}
        out.update({k: v.numpy() for k, v in state.items()})
        out.update({"master:" + k: v.numpy() for k, v in masters.items()})
        return out


def _not_called(*args):
    raise AssertionError("the per-parameter update ran")


def _decay_fun(name):
    return name.endswith("w_0")


def _lr_ratio(p):
    return 0.5 if p.name.endswith("b_0") else 1.0


O = paddle.optimizer
CLIP = paddle.nn.ClipGradByGlobalNorm(0.5)
CASES = {
    "sgd": lambda ps: O.SGD(0.1, parameters=ps),
    "sgd_l2": lambda ps: O.SGD(0.1, parameters=ps, weight_decay=0.05),
    "sgd_l1_clip": lambda ps: O.SGD(0.1, parameters=ps, weight_decay=paddle.regularizer.L1Decay(0.02),
                                    grad_clip=paddle.nn.ClipGradByValue(0.05)),
    "momentum": lambda ps: O.Momentum(0.05, momentum=0.9, parameters=ps),
    "momentum_nesterov_l2": lambda ps: O.Momentum(0.05, momentum=0.8, parameters=ps, use_nesterov=True,
                                                  weight_decay=0.01),
    "momentum_l1": lambda ps: O.Momentum(0.05, parameters=ps, weight_decay=paddle.regularizer.L1Decay(0.01)),
    "momentum_scheduler_clip": lambda ps: O.Momentum(O.lr.PiecewiseDecay([1, 2], [0.1, 0.05, 0.01]),
                                                     parameters=ps, weight_decay=1e-4, grad_clip=CLIP),
    "adam": lambda ps: O.Adam(0.01, parameters=ps),
    "adam_l2_amsgrad": lambda ps: O.Adam(0.01, parameters=ps, weight_decay=0.02, amsgrad=True),
    "adam_tensor_betas": lambda ps: O.Adam(0.01, beta1=paddle.to_tensor([0.8]), beta2=paddle.to_tensor([0.99]),
                                           parameters=ps),
    "adam_named": lambda ps: O.Adam(0.01, parameters=ps, name="my"),
    "adamw": lambda ps: O.AdamW(0.01, parameters=ps, weight_decay=0.05),
    "adamw_decay_fun_lr_ratio_clip": lambda ps: O.AdamW(
        O.lr.CosineAnnealingDecay(0.01, T_max=3), parameters=ps, weight_decay=0.1,
        apply_decay_param_fun=_decay_fun, lr_ratio=_lr_ratio, grad_clip=CLIP),
    "adamw_no_decay_amsgrad": lambda ps: O.AdamW(0.01, parameters=ps, weight_decay=0.0, amsgrad=True),
    "adagrad": lambda ps: O.Adagrad(0.1, parameters=ps, initial_accumulator_value=0.1),
    "adagrad_l2": lambda ps: O.Adagrad(0.1, parameters=ps, weight_decay=0.01, epsilon=1e-5),
    "rmsprop": lambda ps: O.RMSProp(0.01, parameters=ps),
    "rmsprop_centered_momentum": lambda ps: O.RMSProp(0.01, rho=0.9, momentum=0.5, centered=True, parameters=ps,
                                                      grad_clip=CLIP),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_foreach_equals_per_parameter(name):
    ref = _run(CASES[name], False)
    got = _run(CASES[name], True)
    assert ref.keys() == got.keys()
    for k in ref:
        np.testing.assert_array_equal(got[k], ref[k], err_msg=k)


@pytest.mark.parametrize("name", ["sgd", "momentum_nesterov_l2", "adam", "adamw_decay_fun_lr_ratio_clip", "adagrad",
                                  "rmsprop_centered_momentum"])
def test_param_groups_and_paramattr(name):
    attr = paddle.ParamAttr(learning_rate=0.3, regularizer=paddle.regularizer.L2Decay(0.2))
    for kw in ({"groups": True}, {"attr": attr}, {"bias_attr": paddle.ParamAttr(learning_rate=2.0)}):
        ref = _run(CASES[name], False, **kw)
        got = _run(CASES[name], True, **kw)
        for k in ref:
            np.testing.assert_array_equal(got[k], ref[k], err_msg=f"{kw} {k}")


@pytest.mark.parametrize("name", ["sgd", "momentum", "adam", "adamw", "adagrad", "rmsprop_centered_momentum"])
def test_float64(name):
    ref = _run(CASES[name], False, dtype="float64")
    got = _run(CASES[name], True, dtype="float64")
    for k in ref:
        assert got[k].dtype == ref[k].dtype
        np.testing.assert_array_equal(got[k], ref[k], err_msg=k)


@pytest.mark.parametrize("opt", ["SGD", "Momentum", "Adam", "AdamW"])
def test_multi_precision_bfloat16(opt):
    def make(ps):
        return getattr(O, opt)(0.01, parameters=ps, multi_precision=True)
    ref = _run(make, False, dtype="bfloat16")
    got = _run(make, True, dtype="bfloat16")
    assert any(k.startswith("master:") for k in ref)
    assert ref.keys() == got.keys()
    for k in ref:
        np.testing.assert_array_equal(got[k], ref[k], err_msg=k)


def test_shared_parameter_listed_twice_falls_back():
    with paddle.utils.unique_name.guard():
        lin = paddle.nn.Linear(3, 2)
        ref = paddle.nn.Linear(3, 2)
        ref.set_state_dict(lin.state_dict())
    outs = []
    for layer, foreach in ((lin, True), (ref, False)):
        opt = O.SGD(0.1, parameters=[layer.weight, layer.weight, layer.bias])
        opt._foreach = foreach
        layer(paddle.ones([2, 3])).sum().backward()
        opt.step()
        outs.append(layer.weight.numpy())
    np.testing.assert_array_equal(outs[0], outs[1])


def test_momentum_mixed_l2_and_none():
    attr = paddle.ParamAttr(regularizer=paddle.regularizer.L2Decay(0.2))
    ref = _run(CASES["momentum"], False, attr=attr)
    got = _run(CASES["momentum"], True, attr=attr)
    for k in ref:
        np.testing.assert_array_equal(got[k], ref[k], err_msg=k)


@pytest.mark.parametrize("name", ["momentum_nesterov_l2", "adam_l2_amsgrad", "adamw_decay_fun_lr_ratio_clip"])
def test_flat_state_dict_save_resume(name, tmp_path):
    """The flat (packed) accumulators read, save, load and resume like separate ones."""
    def train(foreach, resume):
        rng = np.random.default_rng(1)
        xs = [paddle.to_tensor(rng.standard_normal([6, 5]).astype("float32")) for _ in range(2 * STEPS)]
        with paddle.utils.unique_name.guard():
            net = _net()
            opt = CASES[name](net.parameters())
            opt._foreach = foreach
            for x in xs[:STEPS]:
                net(x).sum().backward()
                opt.step()
                opt.clear_grad()
            paddle.save(opt.state_dict(), str(tmp_path / f"{foreach}.pdopt"))
            paddle.save(net.state_dict(), str(tmp_path / f"{foreach}.pdparams"))
        with paddle.utils.unique_name.guard():  # accumulators are named at their first step
            if resume:
                net = _net()
                net.set_state_dict(paddle.load(str(tmp_path / f"{foreach}.pdparams")))
                opt = CASES[name](net.parameters())
                opt._foreach = foreach
                opt.set_state_dict(paddle.load(str(tmp_path / f"{foreach}.pdopt")))
            for x in xs[STEPS:]:
                net(x).sum().backward()
                opt.step()
                opt.clear_grad()
        sd = {k: v.numpy() for k, v in opt.state_dict().items() if k not in ("LR_Scheduler", "master_weights")}
        return [p.numpy() for p in net.parameters()], sd

    ref_p, ref_sd = train(False, resume=False)
    for resume in (False, True):
        got_p, got_sd = train(True, resume)
        for a, b in zip(got_p, ref_p):
            np.testing.assert_array_equal(a, b)
        assert got_sd.keys() == ref_sd.keys()
        for k in ref_sd:
            np.testing.assert_array_equal(got_sd[k], ref_sd[k], err_msg=k)


def test_set_value_on_flat_accumulator_is_seen():
    with paddle.utils.unique_name.guard():
        net = _net()
        opt = O.Momentum(0.1, momentum=0.9, parameters=net.parameters())
        net(paddle.ones([2, 5])).sum().backward()
        opt.step()
        key = sorted(k for k in opt.state_dict() if "velocity" in k)[0]
        acc = opt.state_dict()[key]
        acc.set_value(np.full(acc.shape, 2.0, "float32"))
        before = {p.name: p.numpy() for p in net.parameters()}
        opt.step()  # same gradients again
        for p in net.parameters():
            if key.startswith(p.name + "_"):
                g = p.grad.numpy()
                want = before[p.name] - np.float32(0.1) * (np.float32(0.9) * np.float32(2.0) + g)
                np.testing.assert_allclose(p.numpy(), want, rtol=1e-6)


KERNEL_CASES = [n for n in sorted(CASES) if n.startswith(("adam", "momentum", "sgd"))]


@pytest.mark.parametrize("name", KERNEL_CASES)
def test_kernel_optimizers_torch_op_path(name):
    """Without the C++ optimizer kernel (no compiler, or PADDLE_ON_TORCH_KERNELS=reference) the flat torch-op
    path runs, and gives the same bits too."""
    from paddle_on_torch.kernels import dispatch

    try:
        dispatch.set_backend("reference")
        ref = _run(CASES[name], False)
        got = _run(CASES[name], True)
    finally:
        dispatch.set_backend(None)
    for k in ref:
        np.testing.assert_array_equal(got[k], ref[k], err_msg=k)


def _adam_kernel():
    from paddle_on_torch.kernels import cpp as ext

    mod = ext.load()
    if mod is None:
        pytest.skip("the C++ optimizer kernel cannot be built here")
    return mod


def test_adam_kernel_runs_and_matches_on_big_parameters():
    """The kernel path is the one taken on plain CPU parameters (no flat pack is built), and matches the
    per-parameter ops on parameters spanning several of its chunks and vector tails."""
    _adam_kernel()

    def run(foreach, amsgrad):
        with paddle.utils.unique_name.guard():
            paddle.seed(5)
            net = paddle.nn.Sequential(paddle.nn.Linear(129, 300), paddle.nn.Linear(300, 7))
            opt = O.AdamW(0.01, parameters=net.parameters(), weight_decay=0.05, amsgrad=amsgrad,
                          apply_decay_param_fun=_decay_fun)
            opt._foreach = foreach
            rng = np.random.default_rng(2)
            for _ in range(3):
                net(paddle.to_tensor(rng.standard_normal([4, 129]).astype("float32"))).square().mean().backward()
                opt.step()
                opt.clear_grad()
            assert not getattr(opt, "_packs", None)
            return [p.numpy() for p in net.parameters()] + [v.numpy() for v in opt.state_dict().values()
                                                             if hasattr(v, "numpy")]

    for amsgrad in (False, True):
        for a, b in zip(run(True, amsgrad), run(False, amsgrad)):
            np.testing.assert_array_equal(a, b)


BIG_KERNEL_CASES = {
    "momentum_nesterov_l2": CASES["momentum_nesterov_l2"],
    "momentum_l2_paramattr": lambda ps: O.Momentum(0.05, momentum=0.9, parameters=ps, weight_decay=1e-3),
    "sgd_l2": CASES["sgd_l2"],
}


@pytest.mark.parametrize("name", sorted(BIG_KERNEL_CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_momentum_sgd_kernel_matches_on_big_parameters(name, dtype):
    """Momentum and SGD by the kernel (no flat pack built) on parameters spanning several of its chunks and
    vector tails, with per-parameter learning rates and L2 coefficients (one parameter's own ParamAttr
    regularizer and learning rate, one with none), match the per-parameter ops bit for bit."""
    _adam_kernel()

    def run(foreach):
        with paddle.utils.unique_name.guard():
            paddle.seed(5)
            attr = paddle.ParamAttr(learning_rate=0.3, regularizer=paddle.regularizer.L2Decay(0.2))
            net = paddle.nn.Sequential(paddle.nn.Linear(129, 300, weight_attr=attr), paddle.nn.Linear(300, 7),
                                       paddle.nn.Linear(7, 5, bias_attr=paddle.ParamAttr(learning_rate=2.0)))
            net.to(dtype=dtype)
            opt = BIG_KERNEL_CASES[name](net.parameters())
            opt._foreach = foreach
            if foreach:
                opt._update = _not_called
            rng = np.random.default_rng(2)
            for _ in range(3):
                x = paddle.to_tensor(rng.standard_normal([4, 129]).astype(dtype))
                net(x).square().mean().backward()
                opt.step()
                opt.clear_grad()
            assert not getattr(opt, "_packs", None)
            return [p.numpy() for p in net.parameters()] + [v.numpy() for v in opt.state_dict().values()
                                                             if hasattr(v, "numpy")]

    for a, b in zip(run(True), run(False), strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def _step_operands(kind, dtype, seed, transposed):
    """The operands of one optimizer-step op (kernels/optim.py) over parameters of several sizes (vector bodies and
    tails, several parallel chunks); `transposed`: the 2-D ones given as non-contiguous views."""
    import torch

    g = torch.Generator().manual_seed(seed)
    shapes = [(3, 5), (129, 300), (7,), (1000, 33)]

    def tensors(fn=torch.randn):
        ts = [fn(s, generator=g, dtype=dtype) for s in shapes]
        return [t.t().contiguous().t() if transposed and t.dim() == 2 else t for t in ts]

    params, grads = tensors(), tensors()
    lrs, coeffs = [1e-3, 2e-3, 1e-3, 0.5], [1 - 1e-5, 1.0, 0.0, 0.5]
    if kind == "adam_step":
        pows = [[torch.tensor([b ** 3], dtype=dtype) for _ in shapes] for b in (0.9, 0.999)]
        return [params, grads, tensors(), tensors(torch.rand), tensors(torch.rand), pows[0], pows[1], lrs, coeffs,
                0.9, 0.999, 0.1, 1 - 0.999, 1e-8]
    if kind == "momentum_step":
        return [params, grads, tensors(), lrs, [0.0, 0.2, 0.0, 1e-3], 0.9, seed % 2 == 1]
    return [params, grads, lrs]


@pytest.mark.parametrize("kind", ["adam_step", "momentum_step", "sgd_step"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_step_op_cpu_kernel_matches_reference(kind, dtype):
    """The optimizer-step ops' CPU kernel (ext/optim.cpp, registered with TORCH_LIBRARY_IMPL) gives the bits of the
    ops' reference composition (foreach ops), on contiguous operands and through copies of non-contiguous ones
    (written back), and bumps the version counters of what it updates."""
    import copy

    import torch

    from paddle_on_torch.kernels import dispatch, optim

    _adam_kernel()
    assert dispatch.kernel_for(f"paddle_on_torch::{kind}", "cpu") == "cpp"
    op, ref = getattr(optim, kind), optim.REFERENCES[kind]
    for seed, transposed in ((0, False), (1, True)):
        got = _step_operands(kind, getattr(torch, dtype), seed, transposed)
        want = copy.deepcopy(got)
        versions = [t._version for t in got[0]]
        op(*got)
        ref(*want)
        assert all(t._version > v for t, v in zip(got[0], versions))
        for a, b in zip(got, want):
            if isinstance(a, list) and a and isinstance(a[0], torch.Tensor):
                for x, y in zip(a, b, strict=True):
                    assert x.stride() == y.stride()
                    torch.testing.assert_close(x, y, rtol=0, atol=0)


def test_step_op_checks_and_fake():
    """The ops' CPU kernel refuses mismatched operands with a message naming the argument; fake and meta tensors
    reach the ops' fake (nothing to allocate), an empty step does nothing."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    from paddle_on_torch.kernels import optim

    _adam_kernel()
    z = torch.zeros
    with pytest.raises(RuntimeError, match=r"sgd_step: grads\[0\] has 4 elements, expected 3"):
        optim.sgd_step([z(3)], [z(4)], [0.1])
    with pytest.raises(RuntimeError, match="lrs holds 2 numbers for 1 parameters"):
        optim.sgd_step([z(3)], [z(3)], [0.1, 0.2])
    with pytest.raises(RuntimeError, match="velocity\\[0\\] must be a dense CPU tensor of the parameters' dtype"):
        optim.momentum_step([z(3)], [z(3)], [z(3, dtype=torch.float64)], [0.1], [0.0], 0.9, False)
    with pytest.raises(RuntimeError, match="takes float32 or float64"):
        optim.sgd_step([z(3, dtype=torch.bfloat16)], [z(3, dtype=torch.bfloat16)], [0.1])
    optim.sgd_step([], [], [])
    with FakeTensorMode():
        optim.adam_step(*_step_operands("adam_step", torch.float32, 0, False))
    meta = [z(3, device="meta")]
    optim.momentum_step(meta, meta, meta, [0.1], [0.0], 0.9, True)


@pytest.mark.parametrize("make", [lambda ps: O.Adam(0.1, parameters=ps), lambda ps: O.Momentum(0.1, parameters=ps),
                                  lambda ps: O.SGD(0.1, parameters=ps)], ids=["adam", "momentum", "sgd"])
def test_kernel_bumps_versions(make):
    """The kernel writes in place through raw pointers, and still bumps the version counters: a backward
    through a graph that saved the old parameter raises, as after torch's in-place ops."""
    _adam_kernel()
    lin = paddle.nn.Linear(3, 2)
    opt = make(lin.parameters())
    lin(paddle.ones([2, 3])).sum().backward()
    y = (lin.weight * lin.weight).sum()  # saves the weight for its backward
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_adam_without_compiler_falls_back_with_one_warning(broken_compiler):
    """No compiler: one warning, then the torch-op path, with the same bits."""
    import warnings

    from paddle_on_torch.kernels import cpp as ext

    broken_compiler(ext.CPP)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        got = _run(CASES["adamw"], True)
    assert sum("C++ CPU kernels unavailable" in str(r.message) for r in rec) == 1
    ref = _run(CASES["adamw"], False)
    for k in ref:
        np.testing.assert_array_equal(got[k], ref[k], err_msg=k)
