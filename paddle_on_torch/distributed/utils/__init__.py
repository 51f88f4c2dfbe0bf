"""paddle.distributed.utils: Paddle's launcher internals (launch_utils, process_utils' CPU affinity, nccl_utils,
moe_utils' global_scatter / global_gather): not provided; paddle.distributed.launch and spawn are."""
from ... import _report

raise _report.unsupported_module("paddle.distributed.utils",
                                 ": Paddle's launcher and NCCL internals (use paddle.distributed.launch / spawn)")
