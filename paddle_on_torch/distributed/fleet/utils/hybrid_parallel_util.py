"""Gradient and parameter synchronisation helpers (Paddle's fleet.utils.hybrid_parallel_util)."""
import torch
import torch.distributed as tdist

from ..meta_optimizers.hybrid_parallel_optimizer import fused_allreduce_gradients  # noqa: F401

__all__ = ["fused_allreduce_gradients", "broadcast_mp_parameters", "broadcast_dp_parameters",
           "broadcast_input_data", "obtain_optimizer_parameters_list"]


@torch.no_grad()
def _broadcast_params(model, group, skip_distributed):
    if group is None or group.nranks < 2:
        return
    for p in model.parameters():
        if skip_distributed and getattr(p, "is_distributed", False):
            continue
        tdist.broadcast(p._t.detach(), group.ranks[0], group=group.process_group)


def broadcast_mp_parameters(model, hcg):
    """Replicated (not tensor-parallel) parameters start equal on every model-parallel rank."""
    _broadcast_params(model, hcg.get_model_parallel_group(), skip_distributed=True)


def broadcast_dp_parameters(model, hcg):
    _broadcast_params(model, hcg.get_data_parallel_group(), skip_distributed=False)


def broadcast_sharding_parameters(model, hcg):
    _broadcast_params(model, hcg.get_sharding_parallel_group(), skip_distributed=False)


@torch.no_grad()
def broadcast_input_data(hcg, *inputs, **kwargs):
    """Every model-parallel rank gets the first rank's input tensors (in place)."""
    from ....tensor.tensor import Tensor

    group = hcg.get_model_parallel_group()
    if group.nranks > 1:
        for v in list(inputs) + list(kwargs.values()):
            if isinstance(v, Tensor):
                tdist.broadcast(v._t.detach(), group.ranks[0], group=group.process_group)
    if len(inputs) == 0 and not kwargs:
        return inputs, kwargs
    return inputs, kwargs


def obtain_optimizer_parameters_list(optimizer):
    """The parameters an optimizer updates, flattened out of its parameter groups when it has them."""
    groups = getattr(optimizer, "_param_groups", None)
    if groups and isinstance(groups[0], dict):
        return [p for g in groups for p in g["params"]]
    return list(optimizer._parameter_list)
