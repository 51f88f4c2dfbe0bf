"""paddle.incubate.multiprocessing: Python's multiprocessing, with Tensors sent between processes through shared
memory (torch's reductions, with the file_system sharing strategy as Paddle uses) instead of being copied;
a parameter arrives as a parameter (name and trainability kept)."""
from multiprocessing import *  # noqa: F401,F403
from multiprocessing.reduction import ForkingPickler

__all__ = []


def _rebuild_tensor(rebuild, args, stop_gradient):
    from .._normalize import wrap

    x = wrap(rebuild(*args))
    x.stop_gradient = stop_gradient
    return x


def _rebuild_param(rebuild, args, trainable, name):
    from ..nn.layer.layers import EagerParamBase

    return EagerParamBase.from_tensor(_rebuild_tensor(rebuild, args, True), trainable=trainable, name=name)


def _reduce_tensor(x):
    from torch.multiprocessing.reductions import reduce_tensor

    rebuild, args = reduce_tensor(x._t.detach())
    return _rebuild_tensor, (rebuild, args, x.stop_gradient)


def _reduce_param(p):
    from torch.multiprocessing.reductions import reduce_tensor

    rebuild, args = reduce_tensor(p._t.detach())
    return _rebuild_param, (rebuild, args, p.trainable, p.name)


def init_reductions():
    """Registers the shared-memory reduction of paddle Tensors with multiprocessing's pickler (done at import)."""
    import torch.multiprocessing

    from ..nn.layer.layers import EagerParamBase
    from ..tensor.tensor import Tensor

    torch.multiprocessing.set_sharing_strategy("file_system")
    ForkingPickler.register(Tensor, _reduce_tensor)
    ForkingPickler.register(EagerParamBase, _reduce_param)


init_reductions()
