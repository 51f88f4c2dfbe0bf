"""SDPBackend and sdpa_kernel as Paddle keeps them: a table of enabled backends and a priority order, changed for
the duration of a `with sdpa_kernel(...)` block.

The shim's scaled_dot_product_attention computes the same values whichever backend is chosen (torch picks its own
kernel), so the table is bookkeeping that Paddle code reads back (`_cur_sdpa_kernel_backends`).  On a CPU build,
Paddle enables only MATH (its flags for flash and memory-efficient attention are off there); so do we.
"""
import contextlib
from enum import IntEnum

import torch


class SDPBackend(IntEnum):
    """The scaled-dot-product-attention backends sdpa_kernel selects among."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2


_on_gpu = torch.cuda.is_available()
_backend_enabled = {SDPBackend.MATH: True, SDPBackend.FLASH_ATTENTION: _on_gpu,
                    SDPBackend.EFFICIENT_ATTENTION: _on_gpu}
_current_priority = [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]


def _get_enabled_backends():
    return [b for b, on in _backend_enabled.items() if on]


def _set_enabled_backends(backends):
    for b in _backend_enabled:
        _backend_enabled[b] = False
    for b in backends:
        if b in _backend_enabled:
            _backend_enabled[b] = True


def _validate_backends(backends):
    if isinstance(backends, SDPBackend):
        backends = [backends]
    if not isinstance(backends, (list, tuple)):
        raise TypeError("backends must be an instance of SDPBackend or a list of SDPBackend instances")
    for b in backends:
        if not isinstance(b, SDPBackend):
            raise TypeError(f"All backends must be SDPBackend instances, got {type(b)}")
    return list(dict.fromkeys(backends))


def _cur_sdpa_kernel_backends(with_priority=False):
    backends = _get_enabled_backends()
    if with_priority:
        order = list(_current_priority)
        backends = sorted(backends, key=lambda b: order.index(b) if b in order else float("inf"))
    return backends


def _sdpa_kernel(backends, set_priority=False):
    global _current_priority
    _set_enabled_backends(list(backends))
    if set_priority:
        prio = list(backends)
        prio += [b for b in _current_priority if b not in prio]
        _current_priority = prio


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Within the block, only `backends` (one SDPBackend or a list) are enabled; `set_priority`: their order is
    the priority order.  (The checks run on entering the block, as in Paddle.)"""
    assert isinstance(backends, (list, SDPBackend)), \
        "Backend must be an instance of SDPBackend or a list of SDPBackend instances"
    backends = _validate_backends(backends)
    if not backends:
        raise ValueError("At least one backend must be specified")
    previous = _cur_sdpa_kernel_backends(with_priority=set_priority)
    try:
        _sdpa_kernel(backends, set_priority)
        yield {}
    finally:
        _sdpa_kernel(previous, set_priority)
