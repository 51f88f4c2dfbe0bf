"""paddle.distributed.auto_parallel.strategy: the configuration groups (Paddle's fields and defaults) and the
legacy `Strategy` of the static auto-parallel engine, which Paddle exports as `fleet.auto.Strategy` and
`paddle.distributed.auto_parallel.Strategy`.  `paddle.distributed.Strategy`, what dist.to_static reads, is
another class (auto_parallel/api.py) built from these groups, as in Paddle."""
import copy

__all__ = ["Strategy", "BaseConfig"]

BASE = "strategy"
_DEFAULTS = {
    BASE: {"auto_mode": "semi", "gradient_scale": True, "gradient_scale_using_allreduce_avg": False,
           "use_cache": True, "return_numpy": True, "all_ranks": False, "split_data": True, "seed": None,
           "reinit": False},
    "recompute": {"enable": False, "checkpoints": [], "no_recompute_segments": [], "sr": 0,
                  "refined_ops_patterns": [], "enable_tuning": False},
    "fused_linear_promotion": {"enable": False},
    "amp": {"enable": False, "dtype": "float16", "level": "o1", "init_loss_scaling": 32768.0,
            "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0, "decr_ratio": 0.8,
            "use_dynamic_loss_scaling": True, "custom_white_list": [], "custom_black_list": [],
            "custom_black_varnames": [], "use_fp16_guard": False, "use_bf16_guard": False, "use_master_grad": False,
            "use_promote": True},
    "sharding": {"enable": False, "stage": 1, "degree": 8, "enable_overlap": False, "param_comm_stream_num": 1,
                 "grad_comm_stream_num": 1, "param_bucket_size_numel": 1, "grad_bucket_size_numel": 1,
                 "enable_hierarchical_comm": False, "partition_algor": "greedy_even", "enable_tuning": False,
                 "tuning_range": [], "release_gradients": False, "comm_buffer_size_MB": 256,
                 "enable_tensor_fusion": False, "save_unbalanced_param": True},
    "gradient_merge": {"enable": False, "k_steps": 1, "avg": True},
    "pipeline": {"enable": False, "schedule_mode": "1F1B", "pp_degree": 1, "vpp_degree": 1, "vpp_seg_method": "",
                 "micro_batch_size": 1, "accumulate_steps": 1, "generation_batch_size": 1,
                 "enable_send_recv_overlap": False, "job_schedule_profiler_start": -1,
                 "job_schedule_profiler_stop": -1, "program_runtimes": [61, 72, 71, 34, 3],
                 "memory_limit_times": -1, "split_backward": False, "auto_parallel_sync_shared_params": False},
    "qat": {"enable": False, "channel_wise_abs_max": True, "weight_bits": 8, "activation_bits": 8,
            "not_quant_pattern": ["skip_quant"], "algo": None, "onnx_format": True},
    "tuning": {"enable": False, "profile_start_step": 1, "profile_end_step": 1, "run_after_tuning": True,
               "debug": False},
    "dataset": {"enable": False, "num_shards": 1},
    "fused_passes": {"enable": False, "fused_passes_list": []},
    "dp_optimization": {"enable": False, "fuse_all_reduce_ops": True, "fuse_grad_size_in_MB": 32,
                        "overlap_comm_cacl": True, "gradient_sync_after_accumulate": False},
    "mp_optimization": {"allreduce_matmul_grad_overlapping": False, "replace_with_c_embedding": False,
                        "replace_with_parallel_cross_entropy": False},
    "sp_optimization": {"enable": True},
}


class BaseConfig:
    """A group of settings with Paddle's defaults for its category, overridable by a dict (keys that are not
    fields of the category are ignored, as in Paddle)."""

    def __init__(self, category, config_dict=None):
        self._category = category
        self._config_dict = None
        if config_dict is not None:
            if not isinstance(config_dict, dict):
                raise ValueError(f"Expected a dictionary. But received: {config_dict}")
            self._config_dict = config_dict
        for k, v in copy.deepcopy(_DEFAULTS.get(category, {})).items():
            setattr(self, k, v)
        if self._config_dict:
            self.from_dict(self._config_dict)

    def from_dict(self, config_dict):
        for k in _DEFAULTS.get(self._category, {}):
            if k in config_dict:
                setattr(self, k, config_dict[k])

    def to_dict(self):
        out = {k: getattr(self, k) for k in _DEFAULTS.get(self._category, {})}
        out.update((k, v.to_dict()) for k, v in self.__dict__.items() if isinstance(v, BaseConfig))
        return out

    def get(self, k, d=None):
        return self.to_dict().get(k, d)

    def __repr__(self):
        return "{" + "".join(f'"{k}":"{v}",' for k, v in self.to_dict().items()) + "}"

    def __deepcopy__(self, memo):
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            setattr(new, k, copy.deepcopy(v, memo))
        return new


def _group(class_name, category):
    def __init__(self, config_dict=None):
        BaseConfig.__init__(self, category, config_dict)

    return type(class_name, (BaseConfig,), {"__init__": __init__, "__module__": __name__,
                                            "__doc__": f"Strategy.{category}: Paddle's fields and defaults."})


RecomputeConfig = _group("RecomputeConfig", "recompute")
FusedLinearPromotionConfig = _group("FusedLinearPromotionConfig", "fused_linear_promotion")
AMPConfig = _group("AMPConfig", "amp")
ShardingConfig = _group("ShardingConfig", "sharding")
GradientMergeConfig = _group("GradientMergeConfig", "gradient_merge")
PipelineConfig = _group("PipelineConfig", "pipeline")
QATConfig = _group("QATConfig", "qat")
TuningConfig = _group("TuningConfig", "tuning")
DatasetConfig = _group("DatasetConfig", "dataset")
FusedPassesConfig = _group("FusedPassesConfig", "fused_passes")
DPOptimizationConfig = _group("DPOptimizationConfig", "dp_optimization")
MPOptimizationConfig = _group("MPOptimizationConfig", "mp_optimization")
SPOptimizationConfig = _group("SPOptimizationConfig", "sp_optimization")

# attribute -> group class, in Paddle's order
_LEGACY_GROUPS = {"recompute": RecomputeConfig, "amp": AMPConfig, "sharding": ShardingConfig,
                  "gradient_merge": GradientMergeConfig, "pipeline": PipelineConfig, "qat": QATConfig,
                  "tuning": TuningConfig, "dataset": DatasetConfig, "fused_passes": FusedPassesConfig,
                  "fused_linear_promotion": FusedLinearPromotionConfig, "dp_optimization": DPOptimizationConfig,
                  "mp_optimization": MPOptimizationConfig, "sp_optimization": SPOptimizationConfig}


class Strategy(BaseConfig):
    """The static auto-parallel engine's Strategy (`fleet.auto.Strategy`): each group a plain attribute.
    dist.to_static accepts it as Paddle does, reading it as a `paddle.distributed.Strategy`."""

    def __init__(self, config=None):
        if config is not None and not isinstance(config, dict):
            raise ValueError(f"Expected a dictionary. But received: {config}")
        self._config_dict = copy.deepcopy(config) if config is not None else {}
        super().__init__(BASE, self._config_dict)
        for name, cls in _LEGACY_GROUPS.items():
            setattr(self, name, cls(self._config_dict.get(name, None)))
