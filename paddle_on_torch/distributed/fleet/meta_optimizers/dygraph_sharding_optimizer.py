"""DygraphShardingOptimizer: ZeRO stage 1 over fleet's sharding group (sharding_degree > 1).

The parameters are dealt to the sharding ranks as Paddle does (largest first, each to the rank with
the fewest elements so far); a rank keeps optimizer state only for its own.  A step: the gradients
are reduced (averaged) onto each parameter's owner, the owner updates it, and every parameter is
broadcast from its owner over the sharding group.
"""
import torch
import torch.distributed as tdist

__all__ = ["DygraphShardingOptimizer"]


class DygraphShardingOptimizer:
    def __init__(self, optimizer, hcg):
        plist = optimizer._parameter_list
        if plist and isinstance(plist[0], dict):
            raise TypeError("Do not support param_groups now, please set optimizer._parameter_list as a list of "
                            "Parameter")
        self._inner_opt = optimizer
        self._hcg = hcg
        self._parameter_list = list(plist)
        self._sharding_world_size = hcg.get_sharding_parallel_world_size()
        self._sharding_rank = hcg.get_sharding_parallel_rank()
        self._rank2params = self._partition_parameters()
        self._param2rank = {p.name: r for r, ps in self._rank2params.items() for p in ps}

    def _partition_parameters(self):
        mapping = {r: [] for r in range(self._sharding_world_size)}
        sizes = [0] * self._sharding_world_size
        for p in sorted(self._parameter_list, key=lambda p: p._t.numel(), reverse=True):
            r = sizes.index(min(sizes))
            mapping[r].append(p)
            sizes[r] += p._t.numel()
        return mapping

    def filter_parameters(self, parameter_list, hcg):
        return [p for p in parameter_list if self._param2rank[p.name] == self._sharding_rank]

    @torch.no_grad()
    def reduce_gradients(self, parameter_list, hcg):
        group = hcg.get_sharding_parallel_group()
        for p in parameter_list:
            if p.stop_gradient:
                continue
            if p._t.grad is None:
                p._t.grad = torch.zeros_like(p._t)
            g = p._t.grad
            g.div_(group.nranks)
            tdist.reduce(g, group.ranks[self._param2rank[p.name]], group=group.process_group)

    @torch.no_grad()
    def _sharding_sync_parameters(self):
        group = self._hcg.get_sharding_parallel_group()
        for r, ps in self._rank2params.items():
            for p in ps:
                tdist.broadcast(p._t.detach(), group.ranks[r], group=group.process_group)

    @torch.no_grad()
    def step(self):
        mine = {p.name for p in self._rank2params[self._sharding_rank]}
        params_grads = [(p, g) for p, g in self._inner_opt._params_grads(self._parameter_list) if p.name in mine]
        self._inner_opt._apply_optimize(params_grads, None)
        self._sharding_sync_parameters()

    def clear_grad(self, set_to_zero=True):
        self._inner_opt.clear_grad(set_to_zero)

    def __getattr__(self, item):
        return getattr(self.__dict__["_inner_opt"], item)
