"""paddle_on_torch's own torch operators in the programs jit.save exports.

Paddle's jit.save writes test-time dropout as a `pd_op.dropout` op (is_test=True), whatever the Layer's mode:
its F.dropout calls the dropout op in eval mode too.  In a torch trace test-time dropout is the identity (or a
scale), which leaves nothing for the PIR writer to write as Paddle's op.  While jit.save traces (`saving()`),
F.dropout calls `paddle_on_torch::dropout_infer` instead: one operator that computes test-time dropout and that
the writer writes as Paddle's `pd_op.dropout` (jit/pir_ops/creation.py).  The exported `.pt2` keeps it, so
paddle_on_torch's jit.load imports this module before reading a program.
"""
import contextlib

import torch

_SAVING = [0]


def saving():
    """Whether jit.save is tracing a program now (F.dropout then records test-time dropout as one op)."""
    return _SAVING[0] > 0


@contextlib.contextmanager
def save_trace():
    _SAVING[0] += 1
    try:
        yield
    finally:
        _SAVING[0] -= 1


@torch.library.custom_op("paddle_on_torch::dropout_infer", mutates_args=())
def dropout_infer(x: torch.Tensor, p: float, downscale: bool) -> torch.Tensor:
    """Paddle's dropout at test time: x (upscale_in_train), or x * (1 - p) (downscale_in_infer), as the shim's
    F.dropout computes it in eval mode."""
    return x * (1.0 - p) if downscale else x.clone()


@dropout_infer.register_fake
def _(x, p, downscale):
    return torch.empty_like(x)


def _backward(ctx, grad):
    return (grad * (1.0 - ctx.p) if ctx.downscale else grad), None, None


def _setup(ctx, inputs, output):
    ctx.p, ctx.downscale = inputs[1], inputs[2]


dropout_infer.register_autograd(_backward, setup_context=_setup)

DROPOUT_INFER = torch.ops.paddle_on_torch.dropout_infer.default  # the node target in exported graphs
