"""What the tensor layer calls in the floors above it, handed down by paddle_on_torch/__init__ at import.

The tensor layer names no module above it (tests/test_layers.py); where a Tensor needs paddle.distributed
(a DTensor behind `_t`), or paddle.nn (paddle.create_parameter), it calls what the top of
the package provided here.  Each provider loads its module on first use, so `import paddle` stays light.
"""
distributed = None  # () -> paddle_on_torch.distributed.auto_parallel.api: the DTensor helpers
distributed_ops = None  # () -> the auto-parallel op rules (local_matmul)
create_parameter = None  # paddle.create_parameter, as paddle.nn makes parameters


def provide(**providers):
    """Set the providers (called once, by paddle_on_torch/__init__)."""
    unknown = providers.keys() - {"distributed", "distributed_ops", "create_parameter"}
    assert not unknown, f"no such provider: {sorted(unknown)}"
    globals().update(providers)
