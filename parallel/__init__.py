"""Automatic parallel planning over torch.fx graphs (issue 7).

`plan(layer, example_inputs, mesh, marks)` captures one training step as an aten graph, places
every unmarked parameter and input on `mesh` by estimated cost (DTensor's sharding propagation for
the activations, with the outputs of Linear layers and blocks as decision variables of their own,
an alpha-beta communication model, a memory limit), and returns a `Plan` to
inspect (`explain()`), apply (`apply(layer)`, `shard_inputs(...)`), save and load.  See
docs/planner.md.
"""
from .cost import Topology
from .planner import Plan, plan

__all__ = ["plan", "Plan", "Topology", "load"]


def load(path):
    """A Plan saved with `Plan.save`."""
    return Plan.load(path)
