"""The planner behind `dist.to_static`: when the user marked the inputs (a shard_dataloader feeds
distributed Tensors) and at most some of the parameters (the rest still dense), plan the others
from the first batch and apply the plan before the DistModel is built.  Opt-in with
`dist.Strategy({"auto_plan": True})` or `{"auto_plan": {plan() keyword arguments}}` (an extension:
Paddle's Strategy has no such key)."""
from .._report import unsupported
from ..distributed.auto_parallel.api import is_dist_tensor, placements_of, process_mesh_of
from ..tensor.tensor import Tensor
from .planner import plan

__all__ = ["plan_for_to_static"]


def plan_for_to_static(layer, loader, loss, config):
    """The Plan applied to `layer`, or None when there is nothing to plan (every trainable parameter is
    already distributed, or the loader gives no distributed input).  Parameters the user placed are
    marks."""
    if all(is_dist_tensor(p) for p in layer.parameters() if not p.stop_gradient):
        return None  # the user placed every parameter: leave the program as marked
    if loader is None:
        raise ValueError("to_static with auto_plan needs the loader (its first batch gives the shapes and marks)")
    batch = next(iter(loader))
    if isinstance(batch, dict):
        raise unsupported("paddle.distributed.to_static", " with auto_plan and a loader of dict batches")
    batch = list(batch) if isinstance(batch, (list, tuple)) else [batch]
    inputs, labels = ([batch[0]], batch[1:]) if loss is not None else (batch, [])
    if not all(isinstance(x, Tensor) for x in inputs + labels):
        raise TypeError("to_static auto_plan: the loader must yield Tensors")
    first = next((x for x in inputs + labels if is_dist_tensor(x)), None)
    if first is None:
        return None
    mesh = process_mesh_of(first)._as_process_mesh()
    marks = {f"input{i}": placements_of(x) for i, x in enumerate(inputs) if is_dist_tensor(x)}
    marks.update({f"label{i}": placements_of(y) for i, y in enumerate(labels) if is_dist_tensor(y)})
    kwargs = dict(config) if isinstance(config, dict) else {}
    loss_fn = None if loss is None else (lambda out, *ys: loss(out, *ys))
    p = plan(layer, inputs, mesh, marks, labels=labels, loss_fn=loss_fn, **kwargs)
    p.apply(layer)
    return p


def plan_for_parallelize(model, mesh, config):
    """`dist.parallelize(model, opt, mesh, {"auto_plan": {"example_inputs": [...], "marks": {...}, ...}})`:
    plan the parameters on `mesh` from example inputs and input marks (other keys are plan() keyword
    arguments) and apply the plan; dp_config's sharding level still applies to the optimizer."""
    conf = config["auto_plan"]
    if not isinstance(conf, dict) or "example_inputs" not in conf:
        raise ValueError("parallelize auto_plan must be a dict with 'example_inputs' (and usually 'marks': "
                         "{input index: placements})")
    if config.get("mp_config") is not None or config.get("pp_config") is not None:
        raise ValueError("parallelize: auto_plan places the parameters itself; give it without mp_config / pp_config")
    kwargs = dict(conf)
    inputs = kwargs.pop("example_inputs")
    p = plan(model, inputs, mesh._as_process_mesh(), kwargs.pop("marks", None), **kwargs)
    p.apply(model)
    return p
