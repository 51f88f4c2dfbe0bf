"""The floor every other part of paddle_on_torch stands on: Paddle's dtypes, places and device backends, and
the AMP state the op wrappers read.

The package is layered; a module imports only from its own floor or the floors below it (late imports
included; tests/test_layers.py walks the import graph and fails on an upward edge):

    0  _errors, _report, _api          Paddle's error types, the unsupported-API report, Paddle's name lists
    1  _core                           dtype, place, backends, amp_state
    2  _normalize                      Paddle arguments -> torch arguments, the @op wrapper generator
    3  tensor                          the Tensor and paddle.tensor's families
    4  everything else                 nn, optimizer, io, jit, distributed, ... (and paddle.framework, which
                                       re-exports dtype and place from here)

What a lower floor needs from a higher one is handed down at import time by the higher one (registration:
`tensor.tensor.register_distributed`, `tensor.creation.register_create_parameter`, the method binders called
from `paddle_on_torch/__init__`), never imported upward.
"""
