"""paddle.distributed.Strategy: the configuration dist.to_static reads (Paddle's fields and defaults)."""
import copy
import json

__all__ = ["Strategy"]

_DEFAULTS = {
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
    "amp": {"enable": False, "dtype": "float16", "level": "o1", "init_loss_scaling": 32768.0,
            "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0, "decr_ratio": 0.8,
            "use_dynamic_loss_scaling": True, "custom_white_list": [], "custom_black_list": [],
            "custom_black_varnames": [], "use_fp16_guard": False, "use_bf16_guard": False, "use_master_grad": False,
            "use_promote": True},
    "recompute": {"enable": False, "checkpoints": [], "no_recompute_segments": [], "sr": 0,
                  "refined_ops_patterns": [], "enable_tuning": False},
    "mp_optimization": {"allreduce_matmul_grad_overlapping": False, "replace_with_c_embedding": False,
                        "replace_with_parallel_cross_entropy": False},
    "dp_optimization": {"enable": False, "fuse_all_reduce_ops": True, "fuse_grad_size_in_MB": 32,
                        "overlap_comm_cacl": True, "gradient_sync_after_accumulate": False},
    "sp_optimization": {"enable": True},
    "fused_passes": {"enable": False, "gemm_epilogue": False, "dropout_add": False},
}
_BASE = {"auto_mode": "semi", "gradient_scale": True, "gradient_scale_using_allreduce_avg": False,
         "use_cache": True, "return_numpy": True, "all_ranks": False, "split_data": True, "seed": None,
         "reinit": False}


class BaseConfig:
    """A group of settings with Paddle's defaults, overridable by a dict."""

    def __init__(self, category, config_dict=None):
        self._category = category
        for k, v in copy.deepcopy(_DEFAULTS.get(category, _BASE if category == "strategy" else {})).items():
            setattr(self, k, v)
        if config_dict is not None:
            if not isinstance(config_dict, dict):
                raise ValueError(f"Expected a dictionary. But received: {config_dict}")
            self.from_dict(config_dict)

    def from_dict(self, config_dict):
        for k, v in config_dict.items():
            if not isinstance(getattr(self, k, None), BaseConfig):
                setattr(self, k, copy.deepcopy(v))

    def to_dict(self):
        return {k: (v.to_dict() if isinstance(v, BaseConfig) else v) for k, v in self.__dict__.items()
                if not k.startswith("_")}

    def get(self, k, d=None):
        return self.__dict__.get(k, d)

    def __repr__(self):
        return json.dumps({k: str(v) for k, v in self.__dict__.items() if not k.startswith("_")},
                          separators=(",", ":"))

    def __deepcopy__(self, memo):
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            setattr(new, k, copy.deepcopy(v, memo))
        return new


class Strategy(BaseConfig):
    """Parallelization settings for dist.to_static: sharding, fused_passes, gradient_merge, pipeline, amp, recompute."""

    def __init__(self, config=None):
        if config is not None and not isinstance(config, dict):
            raise ValueError(f"Expected a dictionary. But received: {config}")
        self._config_dict = copy.deepcopy(config) if config is not None else {}
        super().__init__("strategy", {k: v for k, v in self._config_dict.items() if k in _BASE})
        for name in ("sharding", "gradient_merge", "pipeline", "amp", "fused_passes", "recompute", "mp_optimization",
                     "dp_optimization", "sp_optimization"):
            setattr(self, "_" + name, BaseConfig(name, self._config_dict.get(name)))
        self._full_graph = self._config_dict.get("full_graph", True)

    full_graph = property(lambda self: self._full_graph)
    sharding = property(lambda self: self._sharding)
    gradient_merge = property(lambda self: self._gradient_merge)
    pipeline = property(lambda self: self._pipeline)
    amp = property(lambda self: self._amp)
    fused_passes = property(lambda self: self._fused_passes)
    recompute = property(lambda self: self._recompute)
    mp_optimization = property(lambda self: self._mp_optimization)
    dp_optimization = property(lambda self: self._dp_optimization)
    sp_optimization = property(lambda self: self._sp_optimization)
