"""paddle.distributed.auto_parallel.ring_attention: Paddle's ring (context-parallel) flash attention and its
load-balanced sequence split: not provided."""
from ... import _report

raise _report.unsupported_module("paddle.distributed.auto_parallel.ring_attention",
                                 ": ring attention (context parallelism over the sequence axis)")
