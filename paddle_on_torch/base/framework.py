"""paddle.base.framework: the static/dynamic mode switch.

`_static` is None in dynamic mode; static mode (paddle_on_torch.static) sets it to its recorder state.
Hooks elsewhere (parameter creation, Tensor.shape) test `_static is None` first, so dynamic mode pays
one global lookup and nothing else.
"""
_static = None


def in_dygraph_mode():
    return _static is None


in_dynamic_mode = in_dygraph_mode
in_dynamic_or_pir_mode = in_dygraph_mode


def in_pir_mode():
    return _static is not None
