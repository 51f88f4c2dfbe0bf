"""Gradient and parameter synchronisation helpers (Paddle's fleet.utils.hybrid_parallel_util)."""
import torch
import torch.distributed as tdist


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


def fused_allreduce_gradients(parameter_list, hcg):
    """Average the gradients of `parameter_list` over the data-parallel group of `hcg` (None: the global group)."""
    group = None if hcg is None else hcg.get_data_parallel_group()
    fused_allreduce_gradients_with_group(parameter_list, group)


@torch.no_grad()
def fused_allreduce_gradients_with_group(parameter_list, group, bucket_size=128 * 1024 * 1024, scale=None):
    """All-reduce (sum) the gradients of `parameter_list` over `group` (None: the global group), then scale them
    by `scale` (default 1 / the group's size), one flat buffer per dtype (Paddle buckets by bucket_size)."""
    n = (group.nranks if group is not None else tdist.get_world_size()) if tdist.is_initialized() else 1
    scale = 1.0 / n if scale is None else scale
    by_dtype = {}
    for p in parameter_list:
        if not p.stop_gradient and p._t.grad is not None:
            by_dtype.setdefault(p._t.grad.dtype, []).append(p)
    for ps in by_dtype.values():
        flat = torch.cat([p._t.grad.reshape(-1) for p in ps])
        if n > 1:
            tdist.all_reduce(flat, group=None if group is None else group.process_group)
        flat *= scale
        offset = 0
        for p in ps:
            size = p._t.grad.numel()
            p._t.grad.copy_(flat[offset:offset + size].view_as(p._t.grad))
            offset += size


def unwrap_optimizer(optimizer, optimizer_instances=()):
    """The optimizer inside wrappers of the given classes (HybridParallelOptimizer, ...): follows _inner_opt."""
    inner = optimizer
    while isinstance(inner, optimizer_instances):
        inner = inner._inner_opt
    return inner
