"""paddle.distributed.fleet.meta_parallel.sharding: Paddle's group-sharded (ZeRO stage 2/3) classes, which
PaddleNLP's Trainer imports; none is supported (stage 1 is DygraphShardingOptimizer)."""
__all__ = []
