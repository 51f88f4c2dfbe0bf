"""paddle.optimizer.LBFGS: a few steps on a small fixed least-squares problem, with and without the
strong-Wolfe line search; its state_dict entries; its errors."""
from tests.cases import case, data, fill_parameters


def _problem(paddle, dtype):
    paddle.seed(0)
    net = fill_parameters(paddle.nn.Linear(4, 2))
    if dtype != "float32":
        net = net.to(dtype=dtype)
    x = paddle.to_tensor(data([8, 4], seed=1).astype(dtype))
    y = paddle.to_tensor(data([8, 2], seed=2).astype(dtype))
    return net, x, y


def _run(paddle, steps=3, dtype="float32", keys=("func_evals", "n_iter", "alpha", "prev_loss", "H_diag", "d",
                                                  "prev_flat_grad"), **kw):
    with paddle.utils.unique_name.guard():
        net, x, y = _problem(paddle, dtype)
        opt = paddle.optimizer.LBFGS(parameters=net.parameters(), **kw)
        losses = []

        def closure():
            opt.clear_grad()
            loss = ((net(x) - y) ** 2).mean()
            loss.backward()
            losses.append(float(loss))
            return loss

        returned = [opt.step(closure) for _ in range(steps)]
        st = opt.state_dict()["state"]
        out = [list(net.parameters()), returned, losses, sorted(st)]
        out += [st[k] for k in keys]
        out.append(len(st["old_yk"]))
        if dtype == "float64":
            # in float32, y = grad - prev_grad and ro = 1 / (y . s) lose most digits to cancellation,
            # so rounding-order differences (our torch sums vs Paddle's) show up at ~1e-4 there
            out += [st["old_yk"][-1:], st["ro"][-1:]]
        return out


@case
def lbfgs_plain(paddle):
    return _run(paddle, max_iter=2, max_eval=4)


@case
def lbfgs_plain_lr_history(paddle):
    return _run(paddle, learning_rate=0.5, max_iter=3, history_size=2)


@case
def lbfgs_plain_max_eval(paddle):
    return _run(paddle, max_iter=6, max_eval=3, history_size=3)


@case
def lbfgs_strong_wolfe(paddle):
    return _run(paddle, max_iter=2, max_eval=10, learning_rate=3.0, line_search_fn="strong_wolfe")


@case
def lbfgs_strong_wolfe_history(paddle):
    return _run(paddle, max_iter=3, max_eval=8, history_size=2, line_search_fn="strong_wolfe")


@case
def lbfgs_float64_strong_wolfe(paddle):
    return _run(paddle, dtype="float64", max_iter=5, line_search_fn="strong_wolfe")


@case
def lbfgs_float64_plain(paddle):
    return _run(paddle, dtype="float64", max_iter=5)


@case
def lbfgs_converged_first_eval(paddle):
    # gradients already under tolerance_grad: step returns after one evaluation, with no iteration state
    with paddle.utils.unique_name.guard():
        net, x, y = _problem(paddle, "float32")
        opt = paddle.optimizer.LBFGS(parameters=net.parameters(), tolerance_grad=1e3)

        def closure():
            opt.clear_grad()
            loss = ((net(x) - y) ** 2).mean()
            loss.backward()
            return loss

        loss = opt.step(closure)
        return [loss, list(net.parameters()), opt.state_dict()]


@case
def lbfgs_set_state_dict_restores_nothing(paddle):
    with paddle.utils.unique_name.guard():
        net, x, y = _problem(paddle, "float32")
        opt = paddle.optimizer.LBFGS(parameters=net.parameters(), max_iter=2)

        def closure():
            opt.clear_grad()
            loss = ((net(x) - y) ** 2).mean()
            loss.backward()
            return loss

        opt.step(closure)
        opt2 = paddle.optimizer.LBFGS(parameters=net.parameters())
        opt2.set_state_dict(opt.state_dict())
        return [sorted(opt.state_dict()["state"]), opt2.state_dict()]


@case
def lbfgs_bad_line_search(paddle):
    net, x, y = _problem(paddle, "float32")
    opt = paddle.optimizer.LBFGS(parameters=net.parameters(), line_search_fn="armijo")

    def closure():
        opt.clear_grad()
        loss = ((net(x) - y) ** 2).mean()
        loss.backward()
        return loss

    opt.step(closure)


@case
def lbfgs_minimize_raises(paddle):
    net, x, y = _problem(paddle, "float32")
    opt = paddle.optimizer.LBFGS(parameters=net.parameters())
    opt.minimize(((net(x) - y) ** 2).mean())


@case
def lbfgs_parameters_none(paddle):
    paddle.optimizer.LBFGS()


@case
def lbfgs_parameters_tensor(paddle):
    paddle.optimizer.LBFGS(parameters=paddle.nn.Linear(2, 2).weight)


@case
def lbfgs_parameters_empty(paddle):
    paddle.optimizer.LBFGS(parameters=[])
