"""paddle.summary: a per-layer table of input/output shapes and parameter counts."""
import numbers
from collections import OrderedDict

import numpy as np

__all__ = ["summary"]


def _spec_shape(obj):
    from .model import _is_spec

    return tuple(obj.shape) if _is_spec(obj) else None


def summary(net, input_size=None, dtypes=None, input=None):
    """Print the table for `net` run on inputs of `input_size` (or on `input`); return
    {'total_params': n, 'trainable_params': m}."""
    from .model import _is_tensor

    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    if input_size is None:
        if _is_tensor(input):
            input_size = tuple(input.shape)
        elif isinstance(input, (list, tuple)):
            input_size = [tuple(x.shape) for x in input]
        elif isinstance(input, dict):
            input_size = [tuple(v.shape) for v in input.values()]
        else:
            raise ValueError("Input is not tensor, list, tuple and dict, unable to determine input_size, please "
                             "input input_size.")
    if _spec_shape(input_size) is not None:
        size = _spec_shape(input_size)
    elif isinstance(input_size, list):
        size = []
        for item in input_size:
            if isinstance(item, int):
                item = (item,)
            assert isinstance(item, tuple) or _spec_shape(item) is not None, \
                f"When input_size is list, expect item in input_size is a tuple or InputSpec, but got {type(item)}"
            size.append(_spec_shape(item) if _spec_shape(item) is not None else item)
    elif isinstance(input_size, int):
        size = (input_size,)
    else:
        size = input_size

    was_training = net.training
    if was_training:
        net.eval()

    def is_shape(shape):
        return not any(isinstance(i, (list, tuple)) for i in shape)

    def check_shape(shape):
        unknown, out = 0, []
        for item in shape:
            if item is None or item == -1:
                unknown += 1
                if unknown > 1:
                    raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
                item = 1
            elif isinstance(item, numbers.Number) and item <= 0:
                raise ValueError(f"Expected element in input size greater than zero, but got {item}")
            out.append(item)
        return tuple(out)

    def check_input(s):
        if isinstance(s, (list, tuple)) and is_shape(s):
            return check_shape(s)
        return [check_input(i) for i in s]

    try:
        text, info = summary_string(net, check_input(size), dtypes, input)
    finally:
        if was_training:
            net.train()
    print(text)
    return info


def _all_numbers(items):
    return all(isinstance(i, numbers.Number) for i in items)


def _shape_of_inputs(x):
    from .model import _is_tensor

    if _is_tensor(x):
        return list(x.shape)
    if isinstance(x, (list, tuple)):
        return [_shape_of_inputs(v) for v in x]
    return None


def _shape_of_output(out):
    if isinstance(out, (list, tuple)):
        return [_shape_of_output(o) for o in out]
    return list(out.shape) if hasattr(out, "shape") else []


def summary_string(model, input_size=None, dtypes=None, input=None):
    from .. import cast, rand
    from ..framework.grad_mode import no_grad
    from ..nn import LayerList, Sequential

    def build_dtypes(s, dtype):
        dtype = "float32" if dtype is None else dtype
        if isinstance(s, (list, tuple)) and _all_numbers(s):
            return [dtype]
        return [build_dtypes(i, dtype) for i in s]

    if not isinstance(dtypes, (list, tuple)):
        dtypes = build_dtypes(input_size, dtypes)
    depth = len(list(model.sublayers()))
    table = OrderedDict()
    hooks = []

    def hook(layer, inputs, output):
        class_name = type(layer).__name__
        try:
            idx = int(layer._full_name.split("_")[-1])
        except ValueError:
            idx = len(table)
        row = table[f"{class_name}-{idx + 1}"] = OrderedDict()
        row["input_shape"] = _shape_of_inputs(inputs)
        row["output_shape"] = _shape_of_output(output)
        params, trainable_flag = 0, False
        row["trainable_params"] = 0
        for k, v in layer._parameters.items():
            if v is None:
                continue
            n = np.prod(v.shape)
            params += n
            if v.trainable and not v.stop_gradient:
                row["trainable_params"] += n
                row["trainable"] = trainable_flag = True
            elif not trainable_flag:
                row["trainable"] = False
        row["nb_params"] = params

    def register(layer):
        if not isinstance(layer, (Sequential, LayerList)) and (layer is not model or depth < 1):
            hooks.append(layer.register_forward_post_hook(hook))

    if isinstance(input_size, tuple):
        input_size = [input_size]

    def build_input(s, dt):
        if isinstance(s, (list, tuple)) and _all_numbers(s):
            return cast(rand(list(s)), dt[0] if isinstance(dt, (list, tuple)) else dt)
        return [build_input(i, d) for i, d in zip(s, dt)]

    model.apply(register)
    try:
        with no_grad():
            if input is not None:
                model(input)
            else:
                model(*build_input(input_size, dtypes))
    finally:
        for h in hooks:
            h.remove()

    widths = {"layer_width": 15, "input_shape_width": 20, "output_shape_width": 20, "params_width": 15,
              "table_width": 75}
    for name, row in table.items():
        widths["output_shape_width"] = max(widths["output_shape_width"], len(str(row["output_shape"])))
        widths["input_shape_width"] = max(widths["input_shape_width"], len(str(row["input_shape"])))
        widths["layer_width"] = max(widths["layer_width"], len(str(name)))
        widths["params_width"] = max(widths["params_width"], len(str(row["nb_params"])))
    cols = sum(v for k, v in widths.items() if k != "table_width")
    widths["table_width"] = max(widths["table_width"], cols + 5)
    tw = widths["table_width"]

    def line(a, b, c, d):
        return (f"{a:^{widths['layer_width']}} {b:^{widths['input_shape_width']}} "
                f"{c:^{widths['output_shape_width']}} {d:^{widths['params_width']}}\n")

    text = "-" * tw + "\n" + line("Layer (type)", "Input Shape", "Output Shape", "Param #") + "=" * tw + "\n"
    total_params = total_output = trainable_params = 0
    for name, row in table.items():
        text += line(name, str(row["input_shape"]), str(row["output_shape"]), f"{row['nb_params']:,}")
        total_params += row["nb_params"]
        try:
            total_output += np.sum(np.prod(row["output_shape"], axis=-1))
        except ValueError:  # outputs of different ranks
            for shape in row["output_shape"]:
                total_output += np.sum(np.prod(shape, axis=-1))
        if row.get("trainable"):
            trainable_params += row["trainable_params"]

    def input_mb(s):
        if isinstance(s, (list, tuple)) and _all_numbers(s):
            return abs(np.prod(s) * 4.0 / 1024 ** 2.0)
        return sum(input_mb(i) for i in s)

    in_mb = input_mb(input_size)
    out_mb = abs(2.0 * total_output * 4.0 / 1024 ** 2.0)
    params_mb = abs(total_params * 4.0 / 1024 ** 2.0)
    text += "=" * tw + "\n"
    text += f"Total params: {total_params:,}\n"
    text += f"Trainable params: {trainable_params:,}\n"
    text += f"Non-trainable params: {total_params - trainable_params:,}\n"
    text += "-" * tw + "\n"
    text += f"Input size (MB): {in_mb:0.2f}\n"
    text += f"Forward/backward pass size (MB): {out_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {params_mb + out_mb + in_mb:0.2f}\n"
    text += "-" * tw + "\n"
    return text, {"total_params": total_params, "trainable_params": trainable_params}
