"""Gradient-mode switches: paddle.no_grad, enable_grad, set_grad_enabled, is_grad_enabled.

torch's own context managers already work as decorators and context managers
alike, which is exactly Paddle's contract; these names are them.
"""
import torch

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]

no_grad = torch.no_grad
enable_grad = torch.enable_grad
set_grad_enabled = torch.set_grad_enabled
is_grad_enabled = torch.is_grad_enabled
