"""Small PINN problems on PaddleScience's (ppsci 1.4.0) APIs, written for this project: the APIs its laplace2d,
ldc2d_steady, euler_beam and gPINN poisson_1d examples drive (ppsci.arch.MLP, ppsci.equation.Laplace /
NavierStokes / Biharmonic / a sympy PDE subclass, ppsci.geometry, ppsci.constraint, ppsci.loss, ppsci.optimizer
with a Cosine schedule, ppsci.validate, ppsci.solver.Solver), at sizes that train in well under a second per step.

Shared by tools/record_ppsci.py (run under real Paddle: it saves each case's initial weights with paddle.save and
records the loss of every step, eager and with to_static=True) and tests/test_ppsci.py (paddle_on_torch: loads
the same weights, trains, compares).  The collocation points come from NumPy's RNG (seeded through
ppsci.utils.misc.set_random_seed), so both sides draw the same ones.

Each case is `build(ppsci, paddle, output_dir, to_static, init)` -> Solver, where `init(model)` is called on the
freshly built model (to save or to load its weights) before the Solver is made.
"""
import contextlib

import numpy as np

EPOCHS = 12
SEED = 42

# Model and point-set sizes: "test" trains in well under a second per step (tests/test_ppsci.py); "example" is
# what the example programs' own configurations use (their yaml / script constants), for bench/ppsci.py.
SIZES = {
    "laplace2d": {"test": dict(layers=4, width=16, interior=324, bc=64),
                  "example": dict(layers=5, width=20, interior=9801, bc=400)},
    "ldc2d_steady": {"test": dict(layers=3, width=16, interior=225, wall=(17, 17, 17, 17)),
                     "example": dict(layers=9, width=50, interior=9801, wall=(101, 101, 99, 99))},
    "euler_beam": {"test": dict(layers=3, width=16, interior=50), "example": dict(layers=3, width=20, interior=100)},
    "gpinn_poisson_1d": {"test": dict(layers=3, width=16, interior=15),
                         "example": dict(layers=3, width=20, interior=15)},
}


def _dataloader(iters):
    return {"dataset": "IterableNamedArrayDataset", "iters_per_epoch": iters}


def laplace2d(ppsci, paddle, output_dir, to_static, init, size=SIZES["laplace2d"]["test"]):
    """laplace2d's setup: evenly sampled interior, random boundary points, sum-MSE, Adam, an MSE validator."""
    ppsci.utils.misc.set_random_seed(SEED)
    model = ppsci.arch.MLP(("x", "y"), ("u",), size["layers"], size["width"])
    init(model)
    equation = {"laplace": ppsci.equation.Laplace(dim=2)}
    geom = {"rect": ppsci.geometry.Rectangle((0.0, 0.0), (1.0, 1.0))}

    def u_exact(out):
        return np.cos(out["x"]) * np.cosh(out["y"])

    pde = ppsci.constraint.InteriorConstraint(
        equation["laplace"].equations, {"laplace": 0}, geom["rect"],
        {**_dataloader(1), "batch_size": size["interior"]}, ppsci.loss.MSELoss("sum"), evenly=True, name="EQ")
    bc = ppsci.constraint.BoundaryConstraint(
        {"u": lambda out: out["u"]}, {"u": u_exact}, geom["rect"], {**_dataloader(1), "batch_size": size["bc"]},
        ppsci.loss.MSELoss("sum"), name="BC")
    validator = ppsci.validate.GeometryValidator(
        {"u": lambda out: out["u"]}, {"u": u_exact}, geom["rect"],
        {"dataset": "IterableNamedArrayDataset", "total_size": 400}, ppsci.loss.MSELoss(), evenly=True,
        metric={"MSE": ppsci.metric.MSE()}, with_initial=True, name="MSE_Metric")
    optimizer = ppsci.optimizer.Adam(learning_rate=1e-3)(model)
    return ppsci.solver.Solver(
        model, {pde.name: pde, bc.name: bc}, output_dir, optimizer, epochs=EPOCHS, iters_per_epoch=1,
        eval_during_train=True, eval_freq=EPOCHS, equation=equation, geom=geom,
        validator={validator.name: validator}, to_static=to_static)


def ldc2d_steady(ppsci, paddle, output_dir, to_static, init, size=SIZES["ldc2d_steady"]["test"], validator=None):
    """ldc2d_steady's setup: Navier-Stokes residuals with per-equation weights, four walls picked by criteria,
    a Cosine schedule with warm-up passed to the Solver (and `validator`, a dict, if given)."""
    ppsci.utils.misc.set_random_seed(SEED)
    model = ppsci.arch.MLP(("x", "y"), ("u", "v", "p"), size["layers"], size["width"], "tanh")
    init(model)
    equation = {"NavierStokes": ppsci.equation.NavierStokes(0.01, 1.0, 2, False)}
    geom = {"rect": ppsci.geometry.Rectangle((-0.05, -0.05), (0.05, 0.05))}
    loader = _dataloader(1)
    pde = ppsci.constraint.InteriorConstraint(
        equation["NavierStokes"].equations, {"continuity": 0, "momentum_x": 0, "momentum_y": 0}, geom["rect"],
        {**loader, "batch_size": size["interior"]}, ppsci.loss.MSELoss("sum"), evenly=True,
        weight_dict={"continuity": 0.0001, "momentum_x": 0.0001, "momentum_y": 0.0001}, name="EQ")
    walls = {"top": (lambda x, y: np.isclose(y, 0.05), 1), "bottom": (lambda x, y: np.isclose(y, -0.05), 0),
             "left": (lambda x, y: np.isclose(x, -0.05), 0), "right": (lambda x, y: np.isclose(x, 0.05), 0)}
    constraint = {pde.name: pde}
    for (name, (criteria, u)), points in zip(walls.items(), size["wall"]):
        bc = ppsci.constraint.BoundaryConstraint(
            {"u": lambda out: out["u"], "v": lambda out: out["v"]}, {"u": u, "v": 0}, geom["rect"],
            {**loader, "batch_size": points}, ppsci.loss.MSELoss("sum"), criteria=criteria, name=f"BC_{name}")
        constraint[bc.name] = bc
    lr_scheduler = ppsci.optimizer.lr_scheduler.Cosine(
        epochs=EPOCHS, iters_per_epoch=1, learning_rate=1e-3, warmup_epoch=3)()
    optimizer = ppsci.optimizer.Adam(lr_scheduler)(model)
    return ppsci.solver.Solver(
        model, constraint, output_dir, optimizer, lr_scheduler, EPOCHS, 1, equation=equation, geom=geom,
        validator=validator, to_static=to_static)


def euler_beam(ppsci, paddle, output_dir, to_static, init, size=SIZES["euler_beam"]["test"]):
    """euler_beam's setup: the 1-D biharmonic equation (4th derivatives through paddle.grad), Hammersley points,
    boundary terms from ppsci.autodiff's jacobian / hessian, the prim switches the example turns on."""
    from ppsci.autodiff import hessian, jacobian

    # as the example: on for the rest of the process (train() turns them off again after training)
    paddle.framework.core.set_prim_eager_enabled(True)
    paddle.framework.core._set_prim_all_enabled(True)
    ppsci.utils.misc.set_random_seed(SEED)
    model = ppsci.arch.MLP(("x",), ("u",), size["layers"], size["width"])
    init(model)
    equation = {"biharmonic": ppsci.equation.Biharmonic(dim=1, q=-1.0, D=1.0)}
    geom = {"interval": ppsci.geometry.Interval(0, 1)}
    pde = ppsci.constraint.InteriorConstraint(
        equation["biharmonic"].equations, {"biharmonic": 0}, geom["interval"],
        {**_dataloader(1), "batch_size": size["interior"]}, ppsci.loss.MSELoss(), random="Hammersley", name="EQ")
    bc = ppsci.constraint.BoundaryConstraint(
        {"u0": lambda d: d["u"][0:1],
         "u__x": lambda d: jacobian(d["u"], d["x"])[1:2],
         "u__x__x": lambda d: hessian(d["u"], d["x"])[2:3],
         "u__x__x__x": lambda d: jacobian(hessian(d["u"], d["x"]), d["x"])[3:4]},
        {"u0": 0, "u__x": 0, "u__x__x": 0, "u__x__x__x": 0}, geom["interval"],
        {**_dataloader(1), "batch_size": 4}, ppsci.loss.MSELoss("sum"), evenly=True, name="BC")
    optimizer = ppsci.optimizer.Adam(1e-3)(model)
    return ppsci.solver.Solver(
        model, {pde.name: pde, bc.name: bc}, output_dir, optimizer, epochs=EPOCHS, iters_per_epoch=1,
        seed=SEED, equation=equation, geom=geom, to_static=to_static)


def gpinn_poisson_1d(ppsci, paddle, output_dir, to_static, init, size=SIZES["gpinn_poisson_1d"]["test"]):
    """gPINN poisson_1d's setup: a PDE subclass built from sympy (2nd and 3rd derivatives), an output transform
    registered on the MLP, a weighted mean-MSE."""
    import sympy as sp

    class GradientPoisson(ppsci.equation.PDE):
        def __init__(self):
            super().__init__()
            x = self.create_symbols("x")
            u = self.create_function("u", (x,))
            f = 8 * sp.sin(8 * x) + sum(i * sp.sin(i * x) for i in range(1, 5))
            self.add_equation("res1", -u.diff(x, 2) - f)
            self.add_equation("res2", -u.diff(x, 3) - sp.diff(f, x))

    ppsci.utils.misc.set_random_seed(2023)
    model = ppsci.arch.MLP(("x",), ("u",), size["layers"], size["width"], "tanh")
    init(model)
    model.register_output_transform(
        lambda in_, out: {"u": in_["x"] + paddle.tanh(in_["x"]) * paddle.tanh(np.pi - in_["x"]) * out["u"]})
    equation = {"gPINN": GradientPoisson()}
    geom = {"line": ppsci.geometry.Interval(0, np.pi)}
    pde = ppsci.constraint.InteriorConstraint(
        equation["gPINN"].equations, {"res1": 0, "res2": 0}, geom["line"],
        {**_dataloader(1), "batch_size": size["interior"]}, ppsci.loss.MSELoss("mean", weight={"res2": 0.01}),
        evenly=True, name="EQ")
    optimizer = ppsci.optimizer.Adam(0.001)(model)
    return ppsci.solver.Solver(
        model, {pde.name: pde}, output_dir, optimizer, None, EPOCHS, 1, equation=equation, geom=geom,
        to_static=to_static)


CASES = {f.__name__: f for f in (laplace2d, ldc2d_steady, euler_beam, gpinn_poisson_1d)}

# PaddleScience's own example programs (not in this repository; the test that runs them needs $PPSCI_EXAMPLES,
# a checkout's examples/ folder): script, the command-line overrides that shorten the training, and options of
# tools/run_ppsci_example.py.  ldc2d_steady_Re10's yaml fails ppsci 1.4.0's own config check in its InitCallback
# (EVAL.batch_size is a dict there, an int in ppsci's schema: exit status 2 under real Paddle too), so the
# callback is removed on the command line and the runner seeds NumPy / random / paddle as that callback would.
EXAMPLE_EPOCHS = 20
_SHORT = [f"TRAIN.epochs={EXAMPLE_EPOCHS}", f"TRAIN.eval_freq={EXAMPLE_EPOCHS}"]
EXAMPLES = {
    "laplace2d": ("laplace/laplace2d.py", _SHORT, []),
    "ldc2d_steady": ("ldc/ldc2d_steady_Re10.py", _SHORT + ["~hydra.callbacks.init_callback"], ["--seed", "42"]),
    "euler_beam": ("euler_beam/euler_beam.py", _SHORT, []),
    "gpinn_poisson_1d": ("gpinn/poisson_1d.py", _SHORT, []),
}

# A program of this project's own in the examples' shape (tests/ppsci_program: hydra command line, yaml config,
# train then eval), run through tools/run_ppsci_example.py the same way, so that the path runs in CI, where the
# examples are not at hand (PaddleScience publishes no sdist; its wheel has no examples/).
PROGRAM_DIR = "tests/ppsci_program"
PROGRAMS = {"poisson2d": ("poisson2d.py", ["TRAIN.epochs=10"], [])}


@contextlib.contextmanager
def recorded_losses(ppsci):
    """Collects the loss dict ppsci logs at every training step ({"loss": ..., "EQ": ..., ...}, Python floats)."""
    from ppsci.solver import printer

    steps = []
    original = printer.update_train_loss

    def update_train_loss(solver, loss_dict, batch_size):
        steps.append({k: float(v) for k, v in loss_dict.items()})
        return original(solver, loss_dict, batch_size)

    printer.update_train_loss = update_train_loss
    try:
        yield steps
    finally:
        printer.update_train_loss = original


def train(name, ppsci, paddle, output_dir, to_static, init):
    """Builds case `name`, trains it; returns the per-step loss dicts and the final evaluation metric (or None)."""
    try:
        with recorded_losses(ppsci) as steps:
            solver = CASES[name](ppsci, paddle, output_dir, to_static, init)
            solver.train()
        metric = float(solver.eval()[0]) if solver.validator else None
    finally:
        paddle.framework.core._set_prim_all_enabled(False)
        paddle.framework.core.set_prim_eager_enabled(False)
        paddle.jit.enable_to_static(True)  # the Solver switched it to its to_static; Paddle's default is on
    return steps, metric
