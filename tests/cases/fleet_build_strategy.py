"""fleet.DistributedStrategy.build_strategy: a copy of the static BuildStrategy fields it carries."""
from tests.cases import case


@case
def build_strategy_default_and_assignment(paddle):
    s = paddle.distributed.fleet.DistributedStrategy()
    default = s.build_strategy
    bs = paddle.static.BuildStrategy()
    bs.fuse_elewise_add_act_ops = True
    bs.enable_auto_fusion = True
    bs.enable_inplace = True
    s.build_strategy = bs
    got = s.build_strategy
    got.enable_addto = True  # a copy: editing it changes nothing
    return [type(default).__name__, default.enable_inplace, default.fuse_elewise_add_act_ops, got is bs,
            got.fuse_elewise_add_act_ops, got.enable_auto_fusion, got.enable_inplace, s.build_strategy.enable_addto]


@case
def build_strategy_rejects_other_objects(paddle):
    paddle.distributed.fleet.DistributedStrategy().build_strategy = 3
