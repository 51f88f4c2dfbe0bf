"""paddle.autograd.saved_tensors_hooks over torch.autograd.graph.saved_tensors_hooks.

The hooks see paddle Tensors: pack_hook receives each tensor an op (or a PyLayer's
save_for_backward) keeps for backward, unpack_hook returns the Tensor to use in its place.
"""
import torch

from .._normalize import to_torch, wrap

__all__ = ["saved_tensors_hooks"]


class saved_tensors_hooks:
    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook
        self._torch = None

    def __enter__(self):
        pack, unpack = self.pack_hook, self.unpack_hook
        self._torch = torch.autograd.graph.saved_tensors_hooks(lambda t: pack(wrap(t)),
                                                               lambda obj: to_torch(unpack(obj)))
        self._torch.__enter__()

    def __exit__(self, *args):
        self._torch.__exit__(*args)
        self._torch = None
