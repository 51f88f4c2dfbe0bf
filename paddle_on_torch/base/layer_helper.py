"""paddle.base.layer_helper.LayerHelper: Paddle's helper for appending operators by their C++ op type.

In dynamic mode Paddle runs an appended operator at once (its tracer): so does this helper, through the legacy
op of that type (paddle._legacy_C_ops: inputs in the op's OpProto order, attributes as name/value pairs), and it
writes the results into the output Tensors the caller made with create_variable_for_type_inference.  That is the
path PaddleDetection's and older libraries' detection helpers take (multiclass_nms3, anchor_generator, ...).  In
static mode the shim's programs record torch calls, not Paddle operator types: append_op refuses there."""
import torch

from .. import _report
from .._core import dtype as _dtypes
from .._normalize import wrap

__all__ = ["LayerHelper"]


def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


class LayerHelper:
    def __init__(self, layer_type, **kwargs):
        from ..utils import unique_name

        self.kwargs = kwargs
        if kwargs.get("name") is None:
            kwargs["name"] = unique_name.generate(layer_type)
        self._name, self._layer_type = kwargs["name"], layer_type

    @property
    def name(self):
        return self._name

    @property
    def layer_type(self):
        return self._layer_type

    @property
    def main_program(self):
        from ..static import default_main_program

        return default_main_program()

    @property
    def startup_program(self):
        from ..static import default_startup_program

        return default_startup_program()

    # ------------------------------------------------------------ inputs
    def multiple_input(self, input_param_name="input"):
        inputs = self.kwargs.get(input_param_name, [])
        return _as_list(inputs) if inputs is not None else []

    def input(self, input_param_name="input"):
        inputs = self.multiple_input(input_param_name)
        if len(inputs) != 1:
            raise ValueError(f"{self.layer_type} layer only takes one input")
        return inputs[0]

    def input_dtype(self, input_param_name="input"):
        dtype = None
        for each in self.multiple_input(input_param_name):
            if dtype is None:
                dtype = each.dtype
            elif dtype != each.dtype:
                raise ValueError(f"Data Type mismatch: {dtype} to {each.dtype}")
        return dtype

    # ------------------------------------------------------------ variables and operators
    def create_variable_for_type_inference(self, dtype, stop_gradient=False, shape=None):
        """A Tensor without a value yet (Paddle's uninitialised variable): append_op fills it."""
        from .. import in_dynamic_mode

        if not in_dynamic_mode():
            raise _report.unsupported("paddle.base.layer_helper.LayerHelper.create_variable_for_type_inference",
                                      " in static mode (the shim's programs record torch calls, not Paddle operators)")
        t = wrap(torch.empty([0], dtype=_dtypes.to_torch_dtype(dtype), device="meta"))
        t.stop_gradient = stop_gradient
        return t

    create_variable = create_variable_for_type_inference

    def append_op(self, type=None, inputs=None, outputs=None, attrs=None, **kwargs):  # noqa: A002 - Paddle's names
        """Run operator `type` now (dynamic mode) and write its results into `outputs`' Tensors."""
        from .. import _C_ops, _legacy_C_ops, in_dynamic_mode

        if not in_dynamic_mode():
            raise _report.unsupported("paddle.base.layer_helper.LayerHelper.append_op",
                                      f" in static mode ({type!r}: the shim's programs record torch calls, not Paddle "
                                      "operators)")
        proto = _C_ops.signatures()["legacy_ops"].get(type)
        if proto is None:
            raise _report.unsupported(f"paddle.base.layer_helper.LayerHelper.append_op of {type!r}")
        inputs, outputs, attrs = inputs or {}, outputs or {}, attrs or {}
        args = []
        for slot, duplicable, _ in proto["inputs"]:
            value = inputs.get(slot)
            if value is None and slot.endswith("Num") and slot[:-3] not in outputs:
                # Paddle's tracer reads an absent input named ...Num as the length of output ...: without that
                # output its assertion fails (multiclass_nms3 needs RoisNum in dynamic mode)
                raise AssertionError()
            args.append(_as_list(value) if duplicable and value is not None else
                        (value[0] if isinstance(value, (list, tuple)) else value))
        for slot, duplicable, _ in proto["outputs"]:  # a list output: its length comes before the attributes
            if duplicable:
                args.append(len(_as_list(outputs.get(slot, []))))
        for k, v in attrs.items():
            args += [k, v]
        results = getattr(_legacy_C_ops, type)(*args)
        results = results if isinstance(results, tuple) else (results,)
        for (slot, _, _), result in zip(proto["outputs"], results):
            if slot not in outputs or result is None:
                continue
            for dst, src in zip(_as_list(outputs[slot]), _as_list(result)):
                if dst is not None and src is not None:
                    dst.reconstruct_from_(src)

    def append_activation(self, input_var):
        """The activation kwargs['act'] names (Paddle's legacy activation op of that name), or the input."""
        from .. import _legacy_C_ops

        act = self.kwargs.get("act")
        if act is None:
            return input_var
        if not isinstance(act, str):
            raise TypeError(f"{act} should be unicode or str")
        return getattr(_legacy_C_ops, act)(input_var)
