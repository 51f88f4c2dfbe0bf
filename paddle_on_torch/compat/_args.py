"""What every paddle.compat API shares: refusing Paddle-style keywords (the point of compat is torch's
signature, so `axis=` is an error that names the Paddle API to use instead) and checking `out=`."""
import functools

from ..tensor.creation import assign
from ..tensor.tensor import Tensor


def forbid_keywords(api, correct, *keys):
    """Raise Paddle's TypeError when any of `keys` is passed as a keyword to `api`."""
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            found = sorted(k for k in keys if k in kwargs)
            if found:
                raise TypeError(f"{api}() received unexpected keyword argument{'s' if len(found) > 1 else ''} "
                                f"{', '.join(repr(k) for k in found)}. \nDid you mean to use {correct}() instead?")
            return fn(*args, **kwargs)

        wrapper.__wrapped__ = fn
        return wrapper

    return deco


def check_out(out, pair=False):
    if out is None:
        return
    if pair:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"Expected a list or tuple of two tensors, got {type(out)} instead.")
        if not (isinstance(out[0], Tensor) and isinstance(out[1], Tensor)):
            raise TypeError(f"Expected Tensor type in the tuple/list, got ({type(out[0])}, {type(out[1])}) instead.")
    elif not isinstance(out, Tensor):
        raise TypeError(f"Expected a Tensor, got {type(out)} instead.")


def write_out(result, out):
    """Copy a result (a Tensor or a named pair) into `out` as Paddle does (paddle.assign); return what the
    API returns then."""
    if out is None:
        return result
    if isinstance(result, tuple):
        for src, dst in zip(result, out):
            assign(src, dst)
        return type(result)(*out)
    assign(result, out)
    return out
