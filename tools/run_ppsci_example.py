"""Run one of PaddleScience's example programs unchanged, through its own command line, recording its losses.

    python tools/run_ppsci_example.py [--save-init W | --load-init W] [--to-static] --losses OUT.json \\
        EXAMPLE.py [hydra overrides ...]

Under real Paddle (the oracle) with --save-init, under paddle_on_torch (`python -m paddle_on_torch
tools/run_ppsci_example.py ...`) with --load-init: the example script (ppsci 1.4.0's examples/, not part of
this repository: a checkout or download of PaddleScience) runs as `python EXAMPLE.py overrides...` would,
with these hooks around it, none in its code:

- ppsci.solver.Solver, when built, first saves (paddle.save) or loads (set_state_dict) the model's weights, so
  that both frameworks train from the same start (their initialisers draw from different generators);
- --seed N seeds NumPy, random and paddle before the script runs (for an example run without its own
  seeding callback);
- --to-static builds every Solver with to_static=True (what euler_beam's own `to_static=true` does; the other
  examples have no switch for it);
- the loss dict ppsci logs at every training step is collected and written to OUT.json (with the error, if
  the run failed).
The collocation points come from NumPy's RNG, seeded by the example: both frameworks draw the same ones.
"""
import argparse
import json
import os
import runpy
import sys
import traceback


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    init = p.add_mutually_exclusive_group()
    init.add_argument("--save-init", metavar="W.pdparams")
    init.add_argument("--load-init", metavar="W.pdparams")
    p.add_argument("--to-static", action="store_true")
    p.add_argument("--seed", type=int, help="seed NumPy, random and paddle first (ppsci.utils.misc.set_random_seed), "
                                            "for an example whose seeding callback had to be removed")
    p.add_argument("--losses", required=True, metavar="OUT.json")
    p.add_argument("example")
    p.add_argument("overrides", nargs=argparse.REMAINDER)
    args = p.parse_args(argv)

    import paddle
    import ppsci
    from ppsci.solver import printer

    steps = []
    update_train_loss = printer.update_train_loss

    def record(solver, loss_dict, batch_size):
        steps.append({k: float(v) for k, v in loss_dict.items()})
        return update_train_loss(solver, loss_dict, batch_size)

    solver_init = ppsci.solver.Solver.__init__

    def init_solver(self, model, *a, **k):
        if args.save_init:
            paddle.save(model.state_dict(), args.save_init)
        elif args.load_init:
            model.set_state_dict(paddle.load(args.load_init))
        if args.to_static:
            k["to_static"] = True
        return solver_init(self, model, *a, **k)

    if args.seed is not None:
        ppsci.utils.misc.set_random_seed(args.seed)
    printer.update_train_loss = record
    ppsci.solver.Solver.__init__ = init_solver
    os.environ.setdefault("HYDRA_FULL_ERROR", "1")  # hydra raises the task's error instead of exit(1)
    example = os.path.abspath(args.example)
    sys.argv = [example] + args.overrides
    sys.path.insert(0, os.path.dirname(example))
    result = {"paddle": paddle.__version__, "shim": "paddle_on_torch" in paddle.__file__, "steps": steps}
    code = 0
    try:
        runpy.run_path(example, run_name="__main__")
    except SystemExit as e:  # hydra exits 1 after printing the error
        code = e.code if isinstance(e.code, int) else 1
    except Exception as e:  # noqa: BLE001 - the error is part of the record
        traceback.print_exc()
        result["error"] = f"{type(e).__name__}: {str(e).strip().splitlines()[-1] if str(e).strip() else ''}"
        code = 1
    if code and "error" not in result:
        result["error"] = f"exit status {code}"
    tmp = args.losses + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f, indent=1)
    os.replace(tmp, args.losses)
    return code


if __name__ == "__main__":
    sys.exit(main())
