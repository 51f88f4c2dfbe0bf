"""fleet.DistributedStrategy: the fields collective (dygraph) training reads, as plain Python.

Paddle keeps them in a protobuf message; here each config group is a dict of its defaults
(recorded from Paddle 3.3.1), and the nested `hybrid_configs` groups (mp_configs, pp_configs,
sharding_configs, ...) are attribute objects, as Paddle's message fields are.  Setting a config
dict merges into the defaults; an unknown key raises AssertionError, as in Paddle.
"""
import copy

from .... import _report

__all__ = ["DistributedStrategy"]

_MP = dict(sync_param=True, sync_grad=False, sync_moment=False, sync_mode="broadcast", mp_async_allreduce=False,
           mp_skip_c_identity=False, mp_fused_linear_param_grad_add=False, need_broadcast_data=True,
           recompute_allgather=False, sp_async_reduce_scatter=False)
_PP = dict(dp_comm_overlap=False, delay_scale_loss=False, enable_timer=False, sharding_comm_overlap=False,
           profiling=False, release_gradients=False, overlap_p2p_comm=False, clear_every_step_cache=False,
           use_batch_p2p_comm=True, best_unbalanced_scheduler=False, enable_offload_queue=False,
           enable_dynamic_shape=False, use_dualpipev=False, forward_backward_overlap_scheduler=False,
           sync_param=False, sync_moment=False, sync_mode="broadcast")
_SHARDING = dict(tensor_fusion=False, accumulate_steps=1, comm_overlap=False, split_param=False, fuse_optimizer=True,
                 use_reduce_avg=True, comm_buffer_size_MB=256, release_gradients=False, free_grads_in_comm=False,
                 enable_fuse_optimizer_states=False, offload_opt_buffer_size=-1)
_CONFIG_GROUPS = {"mp_configs": _MP, "pp_configs": _PP, "sharding_configs": _SHARDING}
_EMPTY_GROUPS = ("dp_configs", "sep_configs", "dp_sep_configs", "pp_tp_configs", "ep_configs", "moe_sharding_configs",
                 "default_comm_group_configs", "cp_configs", "cp_sharding_configs", "dp_cp_configs", "cp_mp_configs")
_HYBRID = dict(dp_degree=-1, mp_degree=1, pp_degree=1, sharding_degree=1, sep_degree=1, enable_optimizer_timer=False,
               split_norm_comm=False, ep_degree=1, moe_sharding_degree=1, cp_degree=1, cp_sharding_degree=1)
_ORDER = ["dp", "pp", "sharding", "sep", "cp", "mp"]

_DEFAULTS = {
    "pipeline_configs": dict(micro_batch_size=1, accumulate_steps=1, schedule_mode="1F1B", p2p_cache_shape=True,
                             enable_partial_send_recv=True),
    "recompute_configs": dict(checkpoints=[], enable_offload=False, checkpoint_shape=[], enable_tuning=False,
                              refined_ops_patterns=[]),
    "amp_configs": dict(init_loss_scaling=32768.0, incr_every_n_steps=1000, decr_every_n_nan_or_inf=2, incr_ratio=2.0,
                        decr_ratio=0.800000011920929, use_dynamic_loss_scaling=True, custom_white_list=[],
                        custom_black_list=[], custom_black_varnames=[], use_pure_fp16=False, use_fp16_guard=True,
                        use_optimizer_fp16=False, use_pure_bf16=False),
    "tensor_parallel_configs": dict(tensor_parallel_degree=1, tensor_init_seed=-1),
    "sharding_configs": dict(sharding_segment_strategy="segment_broadcast_MB", segment_broadcast_MB=32.0,
                             segment_anchors=[], sharding_degree=8, gradient_merge_acc_step=1,
                             optimize_offload=False, hybrid_dp=False, mp_degree=1, pp_degree=1, dp_degree=1,
                             stage=1, pp_allreduce_in_optimize=False, optimize_cast=False),
    "gradient_merge_configs": dict(k_steps=1, avg=True),
    # stored for scripts that set them; collective dygraph training here does not read them
    "qat_configs": dict(channel_wise_abs_max=True, weight_bits=8, activation_bits=8, not_quant_pattern=[], algo=""),
    "localsgd_configs": dict(k_steps=1, begin_step=1),
    "adaptive_localsgd_configs": dict(init_k_steps=1, begin_step=1),
    "dgc_configs": dict(rampup_begin_step=0, rampup_step=1, sparsity=[]),
    "lars_configs": dict(lars_coeff=0.0010000000474974513, lars_weight_decay=0.0005000000237487257, epsilon=0.0,
                         exclude_from_weight_decay=[]),
    "lamb_configs": dict(lamb_weight_decay=0.009999999776482582, exclude_from_weight_decay=[]),
    "gradient_scale_configs": dict(scale_strategy="avg", scale_gradient=False),
}
_FLAGS = dict(amp=False, recompute=False, pipeline=False, sharding=False, tensor_parallel=False,
              gradient_merge=False, find_unused_parameters=False, fuse_all_reduce_ops=True, fuse_grad_size_in_MB=32,
              last_comm_group_size_MB=1.0, nccl_comm_num=1, heter_ccl_mode=False, sync_nccl_allreduce=True,
              fuse_grad_merge=False, without_graph_optimization=True, sync_batch_norm=False, lamb=False, lars=False,
              dgc=False, localsgd=False, adaptive_localsgd=False, a_sync=True, auto=False, semi_auto=False,
              fp16_allreduce=False, asp=False, qat=False, elastic=False, split_data=True,
              use_hierarchical_allreduce=False, hierarchical_allreduce_inter_nranks=1, fuse_grad_size_in_num=8,
              auto_search=False, conv_workspace_size_limit=512, cudnn_batchnorm_spatial_persistent=False,
              cudnn_exhaustive_search=False, is_fl_ps_mode=False, is_with_coordinator=False)


class _ConfigGroup:
    """A nested config message: attribute access, keys checked on assignment."""

    def __init__(self, name, defaults):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_values", copy.deepcopy(defaults))

    def __getattr__(self, key):
        if key.startswith("__"):
            raise AttributeError(key)
        try:
            return self.__dict__["_values"][key]
        except KeyError:
            raise AttributeError(f"{self._name} has no field '{key}'") from None

    def __setattr__(self, key, value):
        if key not in self._values:
            raise AttributeError(f"{self._name} has no field '{key}'")
        self._values[key] = value

    def __deepcopy__(self, memo):
        return _ConfigGroup(self._name, self._values)

    def _update(self, configs):
        for k, v in configs.items():
            assert k in self._values, f"key:{k} not in {self._name}"
            self._values[k] = v

    def __repr__(self):
        return "" if not self._values else repr(self._values)


def _merge(name, target, configs):
    if not isinstance(configs, dict):
        raise TypeError(f"{name} should be a dict, but got {type(configs).__name__}")
    for k, v in configs.items():
        assert k in target, f"key:{k} not in {name}"
        target[k] = v


# the BuildStrategy fields of Paddle's DistributedStrategy protobuf, with its defaults
_BUILD_FIELDS = dict(fuse_elewise_add_act_ops=False, fuse_bn_act_ops=False, fuse_relu_depthwise_conv=False,
                     fuse_broadcast_ops=False, fuse_all_optimizer_ops=False, enable_inplace=False,
                     enable_backward_optimizer_op_deps=True, cache_runtime_context=False, fuse_bn_add_act_ops=True,
                     enable_auto_fusion=False, enable_addto=False, allow_cuda_graph_capture=False, reduce_strategy=0,
                     fuse_gemm_epilogue=False, debug_graphviz_path="", fused_attention=False,
                     fused_feedforward=False, fuse_dot_product_attention=False, fuse_resunit=False)


class DistributedStrategy:
    def __init__(self):
        d = self.__dict__
        d["_hybrid"] = dict(_HYBRID)
        for name, defaults in _CONFIG_GROUPS.items():
            d["_hybrid"][name] = _ConfigGroup(name, defaults)
        for name in _EMPTY_GROUPS:
            d["_hybrid"][name] = _ConfigGroup(name, {})
        d["hybrid_parallel_order"] = list(_ORDER)
        d["sync_param_name"] = ["embedding", "layer_norm", ".b_"]
        d["_configs"] = copy.deepcopy(_DEFAULTS)
        d["_flags"] = dict(_FLAGS)
        d["_build"] = dict(_BUILD_FIELDS)

    @property
    def build_strategy(self):
        """A fresh paddle.static.BuildStrategy holding this strategy's build fields (as Paddle's)."""
        from ....static.executor import BuildStrategy

        bs = BuildStrategy()
        bs.__dict__.update(self._build)
        return bs

    @property
    def hybrid_configs(self):
        # a fresh dict each time, as Paddle's (editing it changes nothing); the nested groups are shared
        return dict(self._hybrid)

    @hybrid_configs.setter
    def hybrid_configs(self, configs):
        configs = dict(configs)
        if "order" in configs:
            self.__dict__["hybrid_parallel_order"] = list(configs.pop("order"))
        for k in configs:
            assert k in self._hybrid, f"key:{k} not in hybrid_configs"
        for k, v in configs.items():
            if isinstance(self._hybrid[k], _ConfigGroup):
                v = dict(v)
                if k == "mp_configs" and "sync_param_name" in v:
                    self.__dict__["sync_param_name"] = v.pop("sync_param_name")
                self._hybrid[k]._update(v)
            else:
                self._hybrid[k] = v

    def __getattr__(self, name):
        d = self.__dict__
        if name in d.get("_configs", {}):
            return d["_configs"][name]
        if name in d.get("_flags", {}):
            return d["_flags"][name]
        raise AttributeError(f"'DistributedStrategy' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        d = self.__dict__
        if name in d["_configs"]:
            _merge(name, d["_configs"][name], value)
        elif name in d["_flags"]:
            if type(value) is not type(_FLAGS[name]) and not (isinstance(_FLAGS[name], float)
                                                              and isinstance(value, int)):
                # Paddle logs a warning and keeps the old value for a flag of the wrong type
                return
            d["_flags"][name] = value
        elif name == "build_strategy":  # Paddle copies the fields its protobuf has
            d["_build"].update((k, getattr(value, k)) for k in _BUILD_FIELDS if hasattr(value, k))
            if not all(hasattr(value, k) for k in ("fuse_elewise_add_act_ops", "enable_inplace")):
                raise AttributeError(f"'{type(value).__name__}' object has no attribute 'fuse_elewise_add_act_ops'")
        elif name in ("hybrid_configs", "hybrid_parallel_order", "sync_param_name") or name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            raise AttributeError(f"'DistributedStrategy' object has no attribute '{name}'")

    def save_to_prototxt(self, output):
        raise _report.unsupported("paddle.distributed.fleet.DistributedStrategy.save_to_prototxt",
                                  " (Paddle writes its protobuf message; this strategy is a plain object)")

    def load_from_prototxt(self, pb_file):
        raise _report.unsupported("paddle.distributed.fleet.DistributedStrategy.load_from_prototxt",
                                  " (Paddle reads its protobuf message; this strategy is a plain object)")

    def __deepcopy__(self, memo):
        new = DistributedStrategy.__new__(DistributedStrategy)
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    def __repr__(self):
        changed = {k: v for k, v in self._flags.items() if v != _FLAGS[k]}
        degrees = {k: v for k, v in self._hybrid.items() if k.endswith("_degree")}
        return f"DistributedStrategy(hybrid_configs={degrees}, changed={changed})"
