"""placeholder"""
DistModel = ShardDataloader = shard_dataloader = shard_optimizer = to_static = None
