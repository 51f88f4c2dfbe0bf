"""paddle.distributed.fsdp.fully_shard: not provided yet (see the package docstring)."""
from ... import _report

fully_shard = _report.unsupported_function("paddle.distributed.fsdp.fully_shard",
                                           ": Paddle's FSDP (torch's fully_shard would be its base)")
