"""paddle.distributed.sharding: Paddle's group-sharded (ZeRO stage 1-3) wrappers for dygraph training.  Not
provided: fleet's sharding (ShardingParallel, DygraphShardingOptimizer) covers the stage-1 path PaddleNLP's
Trainer takes by default; these entry points refuse, naming themselves."""
from ... import _report

_WHY = ": Paddle's GroupShardedStage2/3 wrappers are not implemented (fleet's sharding_degree path is)"
group_sharded_parallel = _report.unsupported_function("paddle.distributed.sharding.group_sharded_parallel", _WHY)
save_group_sharded_model = _report.unsupported_function("paddle.distributed.sharding.save_group_sharded_model",
                                                        _WHY)
__getattr__ = _report.module_getattr("paddle.distributed.sharding")
