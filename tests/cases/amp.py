"""paddle.amp on CPU, where Paddle 3.3.1 enables no mixed precision.

Real Paddle warns and runs auto_cast with no effect on a CPU place, turns GradScaler off (scale()
returns the loss, step() just runs the optimizer) and makes decorate(level='O2') return the models
unchanged; these cases pin that down, with the argument checks that still apply.  The accelerator
path (casting, loss scaling) is tested in tests/test_amp_enabled.py.
"""
import warnings


from tests.cases import case, data, fill_parameters


def _quiet():
    w = warnings.catch_warnings()
    w.__enter__()
    warnings.simplefilter("ignore")
    return w


def _net(paddle):
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.LayerNorm(3), paddle.nn.Linear(3, 2))
    return fill_parameters(net, seed=1)


@case
def auto_cast_cpu_op_dtypes(paddle):
    w = _quiet()
    x = paddle.to_tensor(data([2, 4]))
    y = paddle.to_tensor(data([4, 3], seed=1))
    with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
        out = [paddle.matmul(x, y), paddle.exp(x), x + 1, paddle.nn.functional.softmax(x), paddle.mean(x),
               paddle.nn.functional.linear(x, y), paddle.concat([x, x.astype("bfloat16")])]
        flags = [paddle.amp.is_autocast_enabled(), paddle.amp.get_autocast_dtype()]
    w.__exit__(None, None, None)
    return [t.dtype for t in out] + flags + [out[0]]


@case
def auto_cast_cpu_warns_no_effect(paddle):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        with paddle.amp.auto_cast(dtype="float16", level="O2") as ctx:
            inside = paddle.amp.is_autocast_enabled()
        with paddle.amp.auto_cast(enable=False):
            pass
    return [ctx, inside, [r.category.__name__ for r in rec], ["no effect" in str(r.message) for r in rec]]


@case(rtol=1e-4, atol=1e-5)  # layer_norm backward: float32 round-off differs between kernels
def auto_cast_model_forward_backward(paddle):
    w = _quiet()
    net = _net(paddle)
    x = paddle.to_tensor(data([5, 4], seed=2))
    with paddle.amp.auto_cast(custom_white_list={"layer_norm"}, custom_black_list=["matmul"], dtype="bfloat16"):
        out = net(x)
        loss = out.mean()
    loss.backward()
    w.__exit__(None, None, None)
    return [out, loss, net[0].weight.grad, net[0].weight.dtype]


@case
def auto_cast_as_decorator(paddle):
    w = _quiet()

    @paddle.amp.auto_cast(level="OD", dtype="bfloat16")
    def f(a, b):
        return paddle.matmul(a, b), paddle.amp.is_autocast_enabled()

    r = f(paddle.to_tensor(data([2, 3])), paddle.to_tensor(data([3, 2], seed=4)))
    w.__exit__(None, None, None)
    return [r[0], r[1], paddle.amp.is_autocast_enabled()]


@case
def auto_cast_dtype_spellings(paddle):
    w = _quiet()
    out = []
    for dt in ("BFLOAT16", paddle.bfloat16, "Float16"):
        with paddle.amp.auto_cast(dtype=dt, level="o1"):
            out.append(paddle.amp.get_autocast_gpu_dtype())
    w.__exit__(None, None, None)
    return out + [paddle.amp.get_autocast_cpu_dtype()]


@case
def auto_cast_bad_level(paddle):
    with paddle.amp.auto_cast(level="O3"):
        pass


@case
def auto_cast_bad_dtype(paddle):
    with paddle.amp.auto_cast(dtype="float64"):
        pass


@case
def auto_cast_overlapping_lists(paddle):
    with paddle.amp.auto_cast(custom_white_list=["exp", "tanh"], custom_black_list=("tanh",)):
        pass


@case
def auto_cast_disabled_unknown_dtype(paddle):
    # a disabled guard skips the dtype check but still looks its lists up by dtype
    with paddle.amp.auto_cast(enable=False, dtype="float64"):
        pass


@case
def auto_cast_disabled_o0_float32(paddle):
    with paddle.amp.auto_cast(enable=False, level="O0", dtype="float32"):
        return paddle.amp.is_autocast_enabled()


@case
def amp_lists_bf16(paddle):
    white, black = paddle.amp.white_list(), paddle.amp.black_list()
    return [sorted(white["bfloat16"]["O1"]), sorted(black["bfloat16"]["O1"]), sorted(black["float16"]["O2"]),
            sorted(black["bfloat16"]["OD"]), sorted(white["float16"]["OD"])]


@case
def float16_bfloat16_supported_cpu(paddle):
    return [paddle.amp.is_float16_supported(), paddle.amp.is_bfloat16_supported(),
            paddle.amp.is_float16_supported("cpu"), paddle.amp.is_bfloat16_supported("cpu")]


@case
def supported_bad_device(paddle):
    return paddle.amp.is_bfloat16_supported("tpu")


@case
def decorate_o2_cpu_keeps_float32(paddle):
    w = _quiet()
    net = _net(paddle)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    m, o = paddle.amp.decorate(models=net, optimizers=opt, level="O2", dtype="bfloat16", master_weight=True,
                               save_dtype="float16")
    m2 = paddle.amp.decorate([net], level="O2")
    w.__exit__(None, None, None)
    return [m is net, o is opt, isinstance(m2, list), [p.dtype for p in net.parameters()],
            [v.dtype for v in net.state_dict().values()]]


@case
def decorate_o1_returns_inputs(paddle):
    net = _net(paddle)
    r = paddle.amp.decorate(net, optimizers=[1, 2], level="O1", dtype="float16")
    return [r[0] is net, r[1], paddle.amp.decorate("not a layer", level="O1") == "not a layer"]


@case
def decorate_bad_level(paddle):
    return paddle.amp.decorate(_net(paddle), level="O3")


@case
def decorate_bad_dtype(paddle):
    return paddle.amp.decorate(_net(paddle), level="O2", dtype="float32")


@case
def grad_scaler_cpu_disabled(paddle):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        s = paddle.amp.GradScaler(init_loss_scaling=1024.0, incr_every_n_steps=3)
    loss = paddle.to_tensor(2.5)
    scaled = s.scale(loss)
    return [s.is_enable(), s.is_use_dynamic_loss_scaling(), s.get_init_loss_scaling(), s.state_dict(),
            scaled is loss, s.scale(3) == 3, len(rec), "AmpScaler can only be enabled" in str(rec[0].message)]


@case
def grad_scaler_cpu_unset_ratio(paddle):
    w = _quiet()
    s = paddle.amp.GradScaler()
    w.__exit__(None, None, None)
    return s.get_incr_ratio()


@case
def grad_scaler_setters_when_disabled(paddle):
    s = paddle.amp.GradScaler(enable=False)
    out = [s.is_enable(), s.get_init_loss_scaling()]
    s.set_init_loss_scaling(64.0)
    s.set_incr_ratio(4.0)
    s.set_decr_ratio(0.25)
    s.set_incr_every_n_steps(7)
    s.set_decr_every_n_nan_or_inf(3)
    out += [s.get_init_loss_scaling(), s.get_incr_ratio(), s.get_decr_ratio(), s.get_incr_every_n_steps(),
            s.get_decr_every_n_nan_or_inf(), s.state_dict(), s.load_state_dict({}), s.update()]
    return out


@case
def grad_scaler_bad_ratio(paddle):
    s = paddle.amp.GradScaler(enable=False)
    s.set_decr_ratio(1.5)


@case
def grad_scaler_cpu_step_runs_optimizer_even_with_inf(paddle):
    w = _quiet()
    net = paddle.nn.Linear(3, 1)
    fill_parameters(net, seed=5)
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=net.parameters())
    s = paddle.amp.GradScaler(init_loss_scaling=8.0)
    history = []
    for i, scale_in in enumerate([1.0, float("inf"), 1.0]):
        x = paddle.to_tensor(data([4, 3], seed=i))
        loss = (net(x) * scale_in).mean()
        s.scale(loss).backward()
        s.unscale_(opt)
        s.step(opt)
        s.update()
        opt.clear_grad()
        history.append([net.bias.numpy().copy(), s.state_dict()])
    w.__exit__(None, None, None)
    return history


@case
def grad_scaler_cpu_minimize(paddle):
    w = _quiet()
    net = paddle.nn.Linear(2, 2)
    fill_parameters(net, seed=6)
    opt = paddle.optimizer.Momentum(learning_rate=0.1, parameters=net.parameters())
    s = paddle.amp.GradScaler()
    loss = net(paddle.to_tensor(data([3, 2], seed=9))).sum()
    scaled = s.scale(loss)
    scaled.backward()
    r = s.minimize(opt, scaled)
    w.__exit__(None, None, None)
    return [type(r).__name__, len(r), net.weight, net.bias]


@case
def amp_global_scaler_and_dtype_names(paddle):
    return [paddle.amp.GradScaler.__mro__[1].__name__, [m.name for m in paddle.amp.OptimizerState]]
