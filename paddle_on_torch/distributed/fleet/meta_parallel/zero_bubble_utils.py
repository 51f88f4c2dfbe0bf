"""paddle.distributed.fleet.meta_parallel.zero_bubble_utils: the weight-gradient store of Paddle's zero-bubble
pipeline schedule (WeightGradStore, EventStore): not provided."""
from .... import _report

raise _report.unsupported_module("paddle.distributed.fleet.meta_parallel.zero_bubble_utils",
                                 ": Paddle's zero-bubble pipeline schedule (split weight-gradient passes)")
