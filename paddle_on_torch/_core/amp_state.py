"""The auto_cast state and the per-op input cast, Paddle's eager AMP rule.

Kept free of paddle_on_torch imports beyond torch so the op wrappers in `_normalize.py` can read it.
`_state` is None outside an enabled auto_cast (Paddle's level O0); inside it is an `AmpState`.
The op wrapper calls `cast_inputs(api, tensors)` with the op's tensor arguments (torch tensors,
None, or lists of torch tensors) when `_state is not None`, and uses what it returns.

The rule, after Paddle's `GetAmpDestDtype` / `AmpAutoCast` (paddle/fluid/eager/amp_utils.h):
  - white-list op: the low dtype;  black-list op: float32;
  - any other op: float32 at level OD; otherwise the low dtype unless some input is float32
    (for batch_norm / layer_norm only the first input counts);
  - at O2 with use_promote=False: float32 for black-list ops, the low dtype for all others;
  - the low dtype only when some input lives on an accelerator (CPU-only ops stay float32);
  - only float32 / float16 / bfloat16 inputs are cast; for the norms with a low destination
    only the first input (x) is cast.
"""
import torch

_state = None
_LOW = (torch.float16, torch.bfloat16)
_FLOATS = (torch.float32, torch.float16, torch.bfloat16)
_FIRST_INPUT_ONLY = frozenset({"batch_norm", "layer_norm", "sync_batch_norm"})

# paddle_on_torch API name -> the name of the Paddle kernel it runs; others use their last component
_KERNEL = {
    "paddle.nn.functional.linear": "linear_v2",
    "paddle.nn.functional.conv1d": "conv2d",  # Paddle runs conv1d as a conv2d
    "paddle.nn.functional.cross_entropy": "cross_entropy_with_softmax",
    "paddle.nn.functional.softmax_with_cross_entropy": "cross_entropy_with_softmax",
    "paddle.nn.functional.max_pool2d": "pool2d",
    "paddle.nn.functional.avg_pool2d": "pool2d",
    "paddle.mm": "matmul",
    "paddle.Tensor.mm": "matmul",
    "paddle.Tensor.__matmul__": "matmul",
}
_kernel_cache = {}


class AmpState:
    __slots__ = ("level", "dtype", "white", "black", "use_promote")

    def __init__(self, level, dtype, white, black, use_promote):
        self.level, self.dtype, self.white, self.black, self.use_promote = level, dtype, white, black, use_promote


def current_amp_state():
    """The active AmpState, or None when no enabled auto_cast is in effect."""
    return _state


def kernel_name(api):
    """'paddle.nn.functional.softmax' -> 'softmax': the name Paddle's AMP lists use for an API."""
    k = _kernel_cache.get(api)
    if k is None:
        k = _kernel_cache[api] = _KERNEL.get(api) or api.rsplit(".", 1)[-1]
    return k


def _right_place(t):
    """Paddle casts to the low dtype only for tensors on an accelerator (GetDtypeWithPlace)."""
    return t.device.type != "cpu"


def _tensors(args):
    for a in args:
        if isinstance(a, torch.Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            for v in a:
                if isinstance(v, torch.Tensor):
                    yield v


def dest_dtype(state, kernel, args):
    low = state.dtype
    if state.level == "O2" and not state.use_promote:
        dst = torch.float32 if kernel in state.black else low
    elif kernel in state.white:
        dst = low
    elif kernel in state.black:
        dst = torch.float32
    elif state.level == "OD":
        dst = torch.float32
    else:
        dst = low
        if kernel in _FIRST_INPUT_ONLY:
            first = next(_tensors(args), None)
            if first is not None and first.dtype is torch.float32:
                dst = torch.float32
        else:
            for t in _tensors(args):
                if t.dtype is torch.float32:
                    dst = torch.float32
                    break
    if dst is not torch.float32 and not any(_right_place(t) for t in _tensors(args)):
        dst = torch.float32
    return dst


def _cast(a, dst):
    if isinstance(a, torch.Tensor):
        return a.to(dst) if a.dtype in _FLOATS and a.dtype is not dst else a
    if isinstance(a, (list, tuple)):
        return type(a)(_cast(v, dst) for v in a)
    return a


def cast_inputs(api, args):
    """Paddle's AMP cast of an op's tensor arguments `args` (a tuple); returns a tuple of the same shape."""
    state = _state
    if state is None:
        return args
    kernel = kernel_name(api)
    dst = dest_dtype(state, kernel, args)
    if dst in _LOW and kernel in _FIRST_INPUT_ONLY:
        return (_cast(args[0], dst),) + tuple(args[1:]) if args else args
    return tuple(_cast(a, dst) for a in args)
