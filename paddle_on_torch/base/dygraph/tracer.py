"""paddle.base.dygraph.tracer.Tracer: what paddle.base.framework._dygraph_tracer() returns in dynamic mode.

Paddle's tracer records eager ops; here torch's autograd does, so the tracer is a view of the state that libraries
read from it: `_has_grad` (torch's grad mode, settable), `_amp_level` / `_amp_dtype` / `_use_promote` /
`_get_amp_op_list()` (the active auto_cast), `_expected_place` (the current place) and `_train_mode`.
"""
import torch

from ... import _report

__all__ = ["Tracer"]


def _amp():
    from ..._core import amp_state as _state

    return _state.current_amp_state()


class Tracer:
    """The dynamic-graph tracer (one per process, as Paddle's global tracer)."""

    def __init__(self):
        self._train_mode = True

    @property
    def _has_grad(self):
        return torch.is_grad_enabled()

    @_has_grad.setter
    def _has_grad(self, value):
        torch.set_grad_enabled(bool(value))

    @property
    def _amp_level(self):
        from ..core import AmpLevel

        st = _amp()
        return AmpLevel.O0 if st is None else getattr(AmpLevel, st.level)

    @property
    def _amp_dtype(self):
        st = _amp()
        return "float32" if st is None else str(st.dtype).replace("torch.", "")

    @property
    def _use_promote(self):
        st = _amp()
        return False if st is None else st.use_promote

    def _get_amp_op_list(self):
        st = _amp()
        return (set(), set()) if st is None else (set(st.white), set(st.black))

    @property
    def _expected_place(self):
        from ..._core.place import Place, current_torch_device

        return Place(current_torch_device())

    @_expected_place.setter
    def _expected_place(self, place):
        from ..._core.place import set_device

        set_device(place)

    def train_mode(self):
        self._train_mode = True

    def eval_mode(self):
        self._train_mode = False

    def _generate_unique_name(self, key="dygraph_tmp"):
        from ...framework import unique_name

        return unique_name.generate(key)

    def trace_op(self, *args, **kwargs):
        raise _report.unsupported("paddle.base.dygraph.tracer.Tracer.trace_op",
                                  ": Paddle's legacy operators do not exist on torch")

    eager_trace_op = eager_legacy_trace_op = trace_op


_tracer = Tracer()
