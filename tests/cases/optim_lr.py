"""paddle.optimizer.lr: each scheduler's learning-rate sequence over 20 steps, state dicts, verbose output."""
import contextlib
import io

from tests.cases import case

N = 20


def _seq(sched, n=N):
    out = [sched()]
    for _ in range(n - 1):
        sched.step()
        out.append(sched())
    return out + [sched.last_epoch, sched.state_dict()]


def _lr(paddle):
    return paddle.optimizer.lr


@case
def noam(paddle):
    return _seq(_lr(paddle).NoamDecay(d_model=64, warmup_steps=5, learning_rate=2.0))


@case
def piecewise(paddle):
    return _seq(_lr(paddle).PiecewiseDecay(boundaries=[3, 7, 12], values=[0.1, 0.05, 0.01, 0.001]))


@case
def natural_exp(paddle):
    return _seq(_lr(paddle).NaturalExpDecay(0.5, gamma=0.1))


@case
def inverse_time(paddle):
    return _seq(_lr(paddle).InverseTimeDecay(0.5, gamma=0.3))


@case
def polynomial(paddle):
    return _seq(_lr(paddle).PolynomialDecay(0.5, decay_steps=8, end_lr=0.01, power=2.0))


@case
def polynomial_cycle(paddle):
    return _seq(_lr(paddle).PolynomialDecay(0.5, decay_steps=6, cycle=True))


@case
def linear_warmup_float(paddle):
    return _seq(_lr(paddle).LinearWarmup(0.5, warmup_steps=5, start_lr=0.0, end_lr=0.5))


@case
def linear_warmup_scheduler(paddle):
    lr = _lr(paddle)
    return _seq(lr.LinearWarmup(lr.CosineAnnealingDecay(0.4, T_max=6), warmup_steps=4, start_lr=0.01, end_lr=0.4))


@case
def exponential(paddle):
    return _seq(_lr(paddle).ExponentialDecay(0.5, gamma=0.8))


@case
def multistep(paddle):
    return _seq(_lr(paddle).MultiStepDecay(0.5, milestones=[2, 5, 11], gamma=0.5))


@case
def step_decay(paddle):
    return _seq(_lr(paddle).StepDecay(0.5, step_size=3, gamma=0.7))


@case
def lambda_decay(paddle):
    return _seq(_lr(paddle).LambdaDecay(0.5, lr_lambda=lambda e: 0.9 ** e + 0.01 * e))


@case
def reduce_on_plateau(paddle):
    s = _lr(paddle).ReduceOnPlateau(1.0, factor=0.5, patience=2, cooldown=1, threshold=0.01)
    metrics = [5.0, 4.0, 4.0, 3.99, 4.1, 4.2, 3.0, 3.0, 3.0, 3.0, 3.0, 2.0, 2.5, 2.5, 2.5, 2.5]
    out = []
    for m in metrics:
        s.step(m)
        out.append(s())
    return out + [s.state_dict()]


@case
def reduce_on_plateau_max_abs_tensor(paddle):
    s = _lr(paddle).ReduceOnPlateau(0.5, mode="max", factor=0.2, patience=1, threshold_mode="abs", threshold=0.1)
    out = []
    for m in [1.0, 1.05, 1.2, 1.25, 1.21, 1.3, 1.31]:
        s.step(paddle.to_tensor(m))
        out.append(s())
    return out + [s.state_dict()]


@case
def cosine_annealing(paddle):
    return _seq(_lr(paddle).CosineAnnealingDecay(0.5, T_max=4, eta_min=0.05))


@case
def cosine_annealing_step_epoch(paddle):
    s = _lr(paddle).CosineAnnealingDecay(0.5, T_max=10)
    out = []
    for e in (3, 7, 12, 25):
        s.step(e)
        out.append(s())
    return out


@case
def multiplicative(paddle):
    return _seq(_lr(paddle).MultiplicativeDecay(0.5, lr_lambda=lambda e: 0.95))


@case
def one_cycle(paddle):
    return _seq(_lr(paddle).OneCycleLR(max_learning_rate=1.0, total_steps=20))


@case
def one_cycle_three_phase_linear(paddle):
    return _seq(_lr(paddle).OneCycleLR(max_learning_rate=0.5, total_steps=20, phase_pct=0.25,
                                       anneal_strategy="linear", three_phase=True))


@case
def cyclic_triangular(paddle):
    return _seq(_lr(paddle).CyclicLR(0.1, 1.0, step_size_up=3, step_size_down=5))


@case
def cyclic_triangular2(paddle):
    return _seq(_lr(paddle).CyclicLR(0.1, 1.0, step_size_up=4, mode="triangular2"))


@case
def cyclic_exp_range(paddle):
    return _seq(_lr(paddle).CyclicLR(0.1, 1.0, step_size_up=4, mode="exp_range", exp_gamma=0.9))


@case
def linear_lr(paddle):
    return _seq(_lr(paddle).LinearLR(0.5, total_steps=8, start_factor=0.2, end_factor=0.9))


@case
def warm_restarts(paddle):
    return _seq(_lr(paddle).CosineAnnealingWarmRestarts(0.5, T_0=3, T_mult=2, eta_min=0.01))


@case
def warm_restarts_step_epoch(paddle):
    s = _lr(paddle).CosineAnnealingWarmRestarts(0.5, T_0=3, T_mult=2)
    out = []
    for e in (1, 4, 10, 2):
        s.step(e)
        out.append([s(), s.T_cur, s.T_i])
    return out


@case
def verbose_prints(paddle):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        s = _lr(paddle).StepDecay(0.5, step_size=2, verbose=True)
        s.step()
        s.step()
        r = _lr(paddle).ReduceOnPlateau(1.0, patience=0, verbose=True)
        r.step(1.0)
        r.step(2.0)
    return buf.getvalue()


@case
def state_dict_round_trip(paddle):
    lr = _lr(paddle)
    a = lr.LinearWarmup(lr.StepDecay(0.5, step_size=2), warmup_steps=2, start_lr=0.0, end_lr=0.5)
    for _ in range(5):
        a.step()
    b = lr.LinearWarmup(lr.StepDecay(0.5, step_size=2), warmup_steps=2, start_lr=0.0, end_lr=0.5)
    b.set_state_dict(a.state_dict())
    b.step()
    return [a.state_dict(), b(), b.last_epoch]


@case
def set_state_dict_missing_key(paddle):
    s = _lr(paddle).StepDecay(0.5, step_size=2)
    s.set_state_dict({"last_epoch": 3})


@case
def bad_arguments(paddle):
    lr = _lr(paddle)
    errors = []
    for make in (lambda: lr.StepDecay(0.5, step_size=2.0), lambda: lr.MultiStepDecay(0.5, [3, 2]),
                 lambda: lr.LRScheduler("a"), lambda: lr.CosineAnnealingDecay(0.5, T_max=2.5),
                 lambda: lr.OneCycleLR(1.0, total_steps=10, anneal_strategy="x"),
                 lambda: lr.CyclicLR(0.1, 1.0, step_size_up=2, mode="bad"),
                 lambda: lr.LinearLR(0.5, total_steps=0), lambda: lr.ReduceOnPlateau(0.5, mode="avg")):
        try:
            make()
            errors.append(None)
        except Exception as e:  # noqa: BLE001
            errors.append(type(e).__name__)
    return errors
