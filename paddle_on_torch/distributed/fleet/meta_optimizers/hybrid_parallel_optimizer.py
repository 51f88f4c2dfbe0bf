"""HybridParallelOptimizer: Paddle's dygraph wrapper that makes an optimizer hybrid-parallel.

step(): average the gradients over the data-parallel group (unless plain DataParallel already
did; with sharding_degree > 1 first reduce them onto their owners, see DygraphShardingOptimizer),
then the inner optimizer's step.  A ClipGradByGlobalNorm becomes HybridParallelClipGrad: the
squared norms of tensor-parallel shards (`is_distributed`) are summed over the sharding, model- and
pipeline-parallel ranks, those of replicated parameters over the sharding and pipeline ranks only (they are
equal on every model-parallel rank), and a pipeline-shared weight counts once (`is_firstly_shared`),
so every rank clips with the norm one process would compute.  As in Paddle, the clip factor is
clip_norm / (max(norm, clip_norm) + 1e-6).
"""
import torch
import torch.distributed as tdist

from ....nn.clip import ClipGradByGlobalNorm, global_norm_scale, scale_grads_
from ..base.topology import ParallelMode
from ..utils.hybrid_parallel_util import fused_allreduce_gradients
from ...._report import unsupported

__all__ = ["HybridParallelOptimizer", "HybridParallelClipGrad"]


def _pg(group):
    return group.process_group


class HybridParallelClipGrad:
    def __init__(self, clip, hcg, split_norm_comm=False, timers=None):
        self._clip = clip
        self._hcg = hcg
        self.clip_norm = clip.clip_norm
        self.not_sharding_stage1 = True
        self.split_norm_comm = split_norm_comm
        self.processed_steps = 0

    @torch.no_grad()
    def _dygraph_clip(self, params_grads):
        dist_sq, rep_sq = [], []
        for p, g in params_grads:
            if g is None or getattr(p, "need_clip", True) is False:
                continue
            if getattr(p, "is_firstly_shared", True) is False:
                continue
            sq = torch.sum(torch.square(g._t.float()))
            (dist_sq if getattr(p, "is_distributed", False) else rep_sq).append(sq)
        zero = torch.zeros([], dtype=torch.float32)
        dist_norm = torch.stack(dist_sq).sum() if dist_sq else zero.clone()
        rep_norm = torch.stack(rep_sq).sum() if rep_sq else zero.clone()
        hcg = self._hcg
        # shards of tensor-parallel weights: summed over sharding, model and pipeline ranks; replicated
        # parameters (equal on every model-parallel rank): over sharding and pipeline ranks only
        for getter, tensors in ((hcg.get_sharding_parallel_group, (dist_norm, rep_norm)),
                                (hcg.get_model_parallel_group, (dist_norm,)),
                                (hcg.get_pipe_parallel_group, (dist_norm, rep_norm))):
            group = getter()
            if group.nranks > 1:
                for t in tensors:
                    tdist.all_reduce(t, group=_pg(group))
        scale = global_norm_scale(dist_norm + rep_norm, self.clip_norm, epsilon=1.0e-6)
        scale_grads_([g._t for p, g in params_grads if g is not None and getattr(p, "need_clip", True) is not False],
                     scale)
        self.processed_steps += 1
        return params_grads

    def __call__(self, params_grads):
        return self._dygraph_clip(params_grads)

    def __getattr__(self, item):
        return getattr(self.__dict__["_clip"], item)


def _params_of(opt):
    opt = getattr(opt, "_inner_opt", opt)
    plist = opt._parameter_list or []
    if plist and isinstance(plist[0], dict):
        return [p for group in opt._param_groups for p in group["params"]]
    return list(plist)


class HybridParallelOptimizer:
    def __init__(self, optimizer, hcg, strategy):
        if hcg.get_sharding_parallel_world_size() > 1:
            if strategy.hybrid_configs["sharding_configs"].split_param:
                raise unsupported("paddle.distributed.fleet.distributed_optimizer",
                                  " with sharding_configs.split_param (DygraphShardingOptimizerV2)")
            from .dygraph_sharding_optimizer import DygraphShardingOptimizer

            optimizer = DygraphShardingOptimizer(optimizer, hcg)
        self._inner_opt = optimizer
        self._strategy = strategy
        self._hcg = hcg
        self._use_dp_mode = hcg.get_parallel_mode() == ParallelMode.DATA_PARALLEL
        self._need_dp = hcg.get_data_parallel_world_size() > 1
        # pure DataParallel averages in its backward hook; otherwise the optimizer does it
        self._dp_enable = not self._use_dp_mode and self._need_dp
        self._sharding_enable = hcg.get_sharding_parallel_world_size() > 1
        self._sep_enable = hcg.get_sep_parallel_world_size() > 1
        optimizer = optimizer._inner_opt if self._sharding_enable else optimizer  # the clip lives on the inner one
        clip = getattr(optimizer, "_grad_clip", None)
        if isinstance(clip, ClipGradByGlobalNorm) and not self._use_dp_mode:
            optimizer._grad_clip = HybridParallelClipGrad(clip, hcg,
                                                          strategy.hybrid_configs["split_norm_comm"])
            if optimizer._default_dict.get("grad_clip") is clip:
                optimizer._default_dict["grad_clip"] = optimizer._grad_clip
            for group in (optimizer._param_groups or []):
                if isinstance(group, dict) and isinstance(group.get("grad_clip"), ClipGradByGlobalNorm):
                    group["grad_clip"] = HybridParallelClipGrad(group["grad_clip"], hcg)
        self.processed_steps = 0

    def _hybrid_sync_grad(self, parameter_list):
        if self._sharding_enable:
            self._inner_opt.reduce_gradients(parameter_list, self._hcg)
            parameter_list = self._inner_opt.filter_parameters(parameter_list, self._hcg)
        if self._dp_enable or self._sep_enable:
            fused_allreduce_gradients(parameter_list, self._hcg)

    @torch.no_grad()
    def step(self):
        self._hybrid_sync_grad(_params_of(self._inner_opt))
        self._inner_opt.step()
        self.processed_steps += 1

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        params = list(parameters) if parameters else _params_of(self._inner_opt)
        self._hybrid_sync_grad(params)
        return self._inner_opt.minimize(loss, startup_program, params, no_grad_set)

    def __getattr__(self, item):
        return getattr(self.__dict__["_inner_opt"], item)
