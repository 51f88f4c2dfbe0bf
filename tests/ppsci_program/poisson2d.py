"""A PaddleScience program written for this project in the shape of ppsci's examples (a hydra command line, a
yaml config, Solver.train then Solver.eval), for tests/test_ppsci.py: it runs through tools/run_ppsci_example.py
exactly as PaddleScience's own examples/ do, under real Paddle (recorded) and under paddle_on_torch.

-laplace(p) = 2 pi^2 sin(pi x) sin(pi y) on the unit square, p = 0 on its boundary (solution sin(pi x) sin(pi y));
ppsci.equation.Poisson names its unknown p.

    python poisson2d.py TRAIN.epochs=10 output_dir=out
"""
import hydra
import numpy as np
from omegaconf import DictConfig

import ppsci


def exact(out):
    return np.sin(np.pi * out["x"]) * np.sin(np.pi * out["y"])


def train(cfg: DictConfig):
    ppsci.utils.misc.set_random_seed(cfg.seed)
    model = ppsci.arch.MLP(**cfg.MODEL)
    equation = {"Poisson": ppsci.equation.Poisson(dim=2)}
    geom = {"square": ppsci.geometry.Rectangle((0.0, 0.0), (1.0, 1.0))}
    loader = {"dataset": "IterableNamedArrayDataset", "iters_per_epoch": cfg.TRAIN.iters_per_epoch}
    source = {"poisson": lambda out: -2 * np.pi ** 2 * np.sin(np.pi * out["x"]) * np.sin(np.pi * out["y"])}
    pde = ppsci.constraint.InteriorConstraint(
        equation["Poisson"].equations, source, geom["square"], {**loader, "batch_size": cfg.NPOINT_INTERIOR},
        ppsci.loss.MSELoss("mean"), evenly=True, name="EQ")
    bc = ppsci.constraint.BoundaryConstraint(
        {"p": lambda out: out["p"]}, {"p": 0}, geom["square"], {**loader, "batch_size": cfg.NPOINT_BC},
        ppsci.loss.MSELoss("mean"), weight_dict={"p": cfg.TRAIN.bc_weight}, name="BC")
    optimizer = ppsci.optimizer.Adam(cfg.TRAIN.learning_rate)(model)
    validator = ppsci.validate.GeometryValidator(
        {"p": lambda out: out["p"]}, {"p": exact}, geom["square"],
        {"dataset": "NamedArrayDataset", "total_size": cfg.NPOINT_EVAL, "batch_size": cfg.EVAL.batch_size,
         "sampler": {"name": "BatchSampler"}},
        ppsci.loss.MSELoss(), evenly=True, metric={"MSE": ppsci.metric.MSE()}, name="p_error")
    solver = ppsci.solver.Solver(
        model, {pde.name: pde, bc.name: bc}, cfg.output_dir, optimizer, epochs=cfg.TRAIN.epochs,
        iters_per_epoch=cfg.TRAIN.iters_per_epoch, eval_during_train=cfg.TRAIN.eval_during_train,
        eval_freq=cfg.TRAIN.eval_freq, equation=equation, geom=geom, validator={validator.name: validator})
    solver.train()
    solver.eval()


@hydra.main(version_base=None, config_path="./conf", config_name="poisson2d.yaml")
def main(cfg: DictConfig):
    if cfg.mode != "train":
        raise ValueError(f"cfg.mode should be 'train', but got '{cfg.mode}'")
    train(cfg)


if __name__ == "__main__":
    main()
