"""Legacy ProgramDesc (.pdmodel) -> Program, with legacy ops translated to their PIR names and input order.

A legacy op names its inputs and outputs by slot ("Input", "Filter", "X" ...) and often carries as
attributes what PIR passes as inputs (reshape's shape, slice's starts/ends, scale's factor).  Each
entry of LEGACY below says how to build the PIR-form op: the PIR name, the input slots in PIR order
(a slot name; "Slot*" for a vector, which becomes a builtin.combine; or a function of the attrs
giving a Literal), the output slots, and how attributes are renamed or converted.  Ops of a legacy
type missing from LEGACY keep the name "legacy.<type>" so the missing-op error names them as they
appear in the file.
"""
import itertools

from .errors import ModelFormatError
from .program import Literal, Op, Program
from .proto import attr_value, parse_program_desc

# Paddle 2.0 .. 3.3.1 write ProgramDesc versions up to this (Paddle encodes X.Y.Z as X*1e6 + Y*1e3 + Z)
MAX_PROGRAM_VERSION = 3003001
_VARTYPE_DTYPES = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32", 6: "float64",
                   20: "uint8", 21: "int8", 22: "bfloat16", 23: "complex64", 24: "complex128"}
_DENSE, _FEED, _FETCH = 7, 9, 10
_IGNORED_ATTRS = {"op_callstack", "op_device", "op_namescope", "op_role", "op_role_var", "with_quant_attr",
                  "use_mkldnn", "use_cudnn", "use_quantizer", "mkldnn_data_type", "is_test_mkldnn"}


def _lit(name, default=None, dtype=None):
    return lambda a: Literal(a.get(name, default), dtype)


def _dtype_attr(name):
    return lambda a: _VARTYPE_DTYPES.get(a.get(name), "float32")


def _slot_or_attr(slot, attr, dtype="int64"):
    """A tensor input if the slot has one, else the attribute as a Literal."""
    return ("either", slot, attr, dtype)


# legacy type -> (pir type, inputs, outputs, attr renames {pir name: legacy name or fn(attrs)})
_UNARY = {"relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "exp": "exp", "sqrt": "sqrt", "rsqrt": "rsqrt",
          "abs": "abs", "log": "log", "silu": "silu", "floor": "floor", "ceil": "ceil", "square": "square",
          "reciprocal": "reciprocal", "erf": "erf", "sin": "sin", "cos": "cos", "logical_not": "logical_not",
          "mish": "mish", "softsign": "softsign", "relu6": "relu6", "hard_swish": "hardswish", "swish": "swish",
          "round": "round", "sign": "sign", "assign": "assign", "isnan_v2": "isnan", "isinf_v2": "isinf"}
_BINARY = {"elementwise_add": "add", "elementwise_sub": "subtract", "elementwise_mul": "multiply",
           "elementwise_div": "divide", "elementwise_max": "maximum", "elementwise_min": "minimum",
           "elementwise_pow": "elementwise_pow", "elementwise_floordiv": "floor_divide",
           "elementwise_mod": "remainder", "equal": "equal", "not_equal": "not_equal", "greater_than": "greater_than",
           "greater_equal": "greater_equal", "less_than": "less_than", "less_equal": "less_equal",
           "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor"}

LEGACY = {
    "conv2d": ("conv2d", ["Input", "Filter"], ["Output"], None),
    "depthwise_conv2d": ("depthwise_conv2d", ["Input", "Filter"], ["Output"], None),
    "conv3d": ("conv3d", ["Input", "Filter"], ["Output"], None),
    "conv2d_transpose": ("conv2d_transpose", ["Input", "Filter", lambda a: Literal(a.get("output_size") or None)],
                         ["Output"], None),
    "depthwise_conv2d_transpose": ("conv2d_transpose",
                                   ["Input", "Filter", lambda a: Literal(a.get("output_size") or None)],
                                   ["Output"], None),
    "batch_norm": ("batch_norm", ["X", "Mean", "Variance", "Scale", "Bias"], ["Y"],
                   {"data_format": "data_layout"}),
    "layer_norm": ("layer_norm", ["X", "Scale", "Bias"], ["Y"], None),
    "group_norm": ("group_norm", ["X", "Scale", "Bias"], ["Y"], {"data_format": "data_layout"}),
    "instance_norm": ("instance_norm", ["X", "Scale", "Bias"], ["Y"], None),
    "pool2d": ("pool2d", ["X", lambda a: Literal(a.get("ksize"), "int64")], ["Out"], None),
    "matmul_v2": ("matmul", ["X", "Y"], ["Out"], {"transpose_x": "trans_x", "transpose_y": "trans_y"}),
    "reshape2": ("reshape", ["X", _slot_or_attr("Shape", "shape")], ["Out"], None),
    "transpose2": ("transpose", ["X"], ["Out"], {"perm": "axis"}),
    "flatten_contiguous_range": ("flatten", ["X"], ["Out"], None),
    "concat": ("concat", ["X*", _slot_or_attr("AxisTensor", "axis")], ["Out"], None),
    "stack": ("stack", ["X*"], ["Y"], None),
    "slice": ("slice", ["Input", _slot_or_attr("StartsTensor", "starts"), _slot_or_attr("EndsTensor", "ends")],
              ["Out"], None),
    "strided_slice": ("strided_slice", ["Input", _slot_or_attr("StartsTensor", "starts"),
                                        _slot_or_attr("EndsTensor", "ends"),
                                        _slot_or_attr("StridesTensor", "strides")], ["Out"], None),
    "scale": ("scale", ["X", _slot_or_attr("ScaleTensor", "scale", "float32")], ["Out"], None),
    "cast": ("cast", ["X"], ["Out"], {"dtype": _dtype_attr("out_dtype")}),
    "dropout": ("dropout", ["X", None, lambda a: Literal(a.get("dropout_prob", 0.5), "float32")], ["Out"],
                {"mode": lambda a: a.get("dropout_implementation", "downgrade_in_infer")}),
    "lookup_table_v2": ("embedding", ["Ids", "W"], ["Out"], None),
    "unsqueeze2": ("unsqueeze", ["X", _slot_or_attr("AxesTensor", "axes")], ["Out"], None),
    "squeeze2": ("squeeze", ["X", lambda a: Literal(a.get("axes", []), "int64")], ["Out"], None),
    "fill_constant": ("full", [], ["Out"], {"dtype": _dtype_attr("dtype"),
                                            "value": lambda a: float(a["str_value"]) if a.get("str_value")
                                            else a.get("value", 0.0)}),
    "shape": ("shape", ["Input"], ["Out"], None),
    "arg_max": ("argmax", ["X", lambda a: Literal(a.get("axis", -1), "int64")], ["Out"],
                {"dtype": _dtype_attr("dtype"), "keepdims": "keepdims"}),
    "arg_min": ("argmin", ["X", lambda a: Literal(a.get("axis", -1), "int64")], ["Out"],
                {"dtype": _dtype_attr("dtype"), "keepdims": "keepdims"}),
    "top_k_v2": ("topk", ["X", _slot_or_attr("K", "k")], ["Out", "Indices"], None),
    "where": ("where", ["Condition", "X", "Y"], ["Out"], None),
    "gather": ("gather", ["X", "Index", _slot_or_attr("Axis", "axis")], ["Out"], None),
    "index_select": ("index_select", ["X", "Index"], ["Out"], {"axis": "dim"}),
    "gather_nd": ("gather_nd", ["X", "Index"], ["Out"], None),
    "bilinear_interp_v2": ("bilinear_interp", ["X", "OutSize", "SizeTensor*", "Scale"], ["Out"],
                           {"data_format": "data_layout"}),
    "nearest_interp_v2": ("nearest_interp", ["X", "OutSize", "SizeTensor*", "Scale"], ["Out"],
                          {"data_format": "data_layout"}),
    "bicubic_interp_v2": ("bicubic_interp", ["X", "OutSize", "SizeTensor*", "Scale"], ["Out"],
                          {"data_format": "data_layout"}),
    "softmax": ("softmax", ["X"], ["Out"], None),
    "log_softmax": ("log_softmax", ["X"], ["Out"], None),
    "expand_v2": ("expand", ["X", _slot_or_attr("Shape", "shape")], ["Out"], None),
    "expand_as_v2": ("expand_as", ["X", "Y"], ["Out"], None),
    "tile": ("tile", ["X", _slot_or_attr("RepeatTimes", "repeat_times")], ["Out"], None),
    "range": ("arange", ["Start", "End", "Step"], ["Out"], None),
    "fill_any_like": ("full_like", ["X", lambda a: Literal(a.get("value", 0.0), "float64")], ["Out"],
                      {"dtype": lambda a: _VARTYPE_DTYPES.get(a.get("dtype"))}),
    "assign_value": ("assign_value", [], ["Out"], {"dtype": _dtype_attr("dtype"), "values": lambda a: (
        a.get("fp32_values") or a.get("int32_values") or a.get("int64_values") or a.get("bool_values")
        or a.get("values") or [])}),
    "gelu": ("gelu", ["X"], ["Out"], None),
    "leaky_relu": ("leaky_relu", ["X"], ["Out"], {"negative_slope": "alpha"}),
    "hard_sigmoid": ("hardsigmoid", ["X"], ["Out"], None),
    "elu": ("elu", ["X"], ["Out"], None),
    "softplus": ("softplus", ["X"], ["Out"], None),
    "pow": ("pow", ["X"], ["Out"], {"y": "factor"}),
    "clip": ("clip", ["X", _slot_or_attr("Min", "min", "float32"), _slot_or_attr("Max", "max", "float32")],
             ["Out"], None),
    "prelu": ("prelu", ["X", "Alpha"], ["Out"], None),
    "pad3d": ("pad3d", ["X", _slot_or_attr("Paddings", "paddings")], ["Out"], None),
    "roll": ("roll", ["X", _slot_or_attr("ShiftsTensor", "shifts")], ["Out"], None),
    "cumsum": ("cumsum", ["X", lambda a: Literal(a.get("axis", -1), "int64")], ["Out"], None),
    "argsort": ("argsort", ["X"], ["Out", "Indices"], None),
    "one_hot_v2": ("one_hot", ["X", _slot_or_attr("depth_tensor", "depth")], ["Out"], None),
    "bmm": ("bmm", ["X", "Y"], ["Out"], None),
    "rnn": ("rnn", ["Input", "PreState*", "WeightList*", "SequenceLength", None], ["Out", None, "State*", None],
            None),
}
for _k, _v in _UNARY.items():
    LEGACY[_k] = (_v, ["X"], ["Out"], None)
for _k, _v in _BINARY.items():
    LEGACY[_k] = (_v, ["X", "Y"], ["Out"], None)
for _k, _v in (("reduce_sum", "sum"), ("reduce_mean", "mean"), ("reduce_max", "max"), ("reduce_min", "min"),
               ("reduce_prod", "prod"), ("reduce_all", "all"), ("reduce_any", "any")):
    LEGACY[_k] = (_v, ["X", lambda a: Literal([] if a.get("reduce_all") else a.get("dim", []), "int64")], ["Out"],
                  {"keepdim": "keep_dim", "dtype": lambda a: _VARTYPE_DTYPES.get(a.get("out_dtype"))})
# Paddle 1.x / 2.x op versions still found in older exported models
LEGACY.update({
    "reshape": ("reshape", ["X", _slot_or_attr("Shape", "shape")], ["Out"], None),
    "transpose": ("transpose", ["X"], ["Out"], {"perm": "axis"}),
    "squeeze": ("squeeze", ["X", lambda a: Literal(a.get("axes", []), "int64")], ["Out"], None),
    "unsqueeze": ("unsqueeze", ["X", _slot_or_attr("AxesTensor", "axes")], ["Out"], None),
    "sum": ("add_n", ["X*"], ["Out"], None),
    "fill_constant_batch_size_like": ("legacy.fill_constant_batch_size_like", ["Input"], ["Out"],
                                      {"dtype": _dtype_attr("dtype")}),
    "linear_interp_v2": ("linear_interp", ["X", "OutSize", "SizeTensor*", "Scale"], ["Out"],
                         {"data_format": "data_layout"}),
    "trilinear_interp_v2": ("trilinear_interp", ["X", "OutSize", "SizeTensor*", "Scale"], ["Out"],
                            {"data_format": "data_layout"}),
    "max_pool2d_with_index": ("max_pool2d_with_index", ["X"], ["Out", "Mask"], {"kernel_size": "ksize"}),
    "max_pool3d_with_index": ("max_pool3d_with_index", ["X"], ["Out", "Mask"], {"kernel_size": "ksize"}),
})
# detection ops (PaddleDetection's exported models): the same attributes, inputs and outputs by slot
LEGACY.update({
    "yolo_box": ("yolo_box", ["X", "ImgSize"], ["Boxes", "Scores"], None),
    "prior_box": ("prior_box", ["Input", "Image"], ["Boxes", "Variances"], None),
    "box_coder": ("box_coder", ["PriorBox", "PriorBoxVar", "TargetBox"], ["OutputBox"], None),
    "roi_align": ("roi_align", ["X", "ROIs", "RoisNum"], ["Out"], None),
    "matrix_nms": ("matrix_nms", ["BBoxes", "Scores"], ["Out", "Index", "RoisNum"], None),
})


def read_program_desc(data, what):
    desc = parse_program_desc(data, what)
    version = (desc.get("version") or {}).get("version", 0)
    if version > MAX_PROGRAM_VERSION:
        raise ModelFormatError(f"{what}: ProgramDesc version {version} is newer than the versions paddle_on_torch "
                               f"reads (up to {MAX_PROGRAM_VERSION}, Paddle 3.3.1)")
    if not desc["blocks"]:
        raise ModelFormatError(f"{what}: ProgramDesc (version {version}) has no blocks")
    prog = Program("program_desc", version)
    block = desc["blocks"][0]
    if len(desc["blocks"]) > 1:
        prog.extra_blocks = len(desc["blocks"]) - 1
    persist = {}
    for v in block["vars"]:
        vt = v.get("type") or {}
        t = (vt.get("dense_tensor") or {}).get("tensor") or {}
        if vt.get("type") == _DENSE:
            prog.types[v["name"]] = (_VARTYPE_DTYPES.get(t.get("data_type"), "float32"), list(t.get("dims", [])))
        if v.get("persistable") and vt.get("type") not in (_FEED, _FETCH):
            persist[v["name"]] = True
            if v.get("stop_gradient"):
                prog.frozen.add(v["name"])
    fresh = itertools.count()
    for o in block["ops"]:
        ins = {i["parameter"]: i["arguments"] for i in o["inputs"]}
        outs = {i["parameter"]: i["arguments"] for i in o["outputs"]}
        attrs = {a["name"]: attr_value(a) for a in o["attrs"] if a["name"] not in _IGNORED_ATTRS}
        t = o["type"]
        if t == "feed":
            name = outs["Out"][0]
            dt, shape = prog.types.get(name, ("float32", []))
            prog.feeds.append((name, name, shape, dt, attrs.get("col", 0)))
            continue
        if t == "fetch":
            prog.fetches.append((ins["X"][0], ins["X"][0], attrs.get("col", 0)))
            continue
        _translate(prog, t, ins, outs, attrs, fresh)
    prog.feeds = [f[:4] for f in sorted(prog.feeds, key=lambda f: f[4])]
    prog.fetches = [f[:2] for f in sorted(prog.fetches, key=lambda f: f[2])]
    for name in persist:
        prog.params[name] = name
    return prog


def _translate(prog, t, ins, outs, attrs, fresh):
    if t == "tril_triu":
        prog.ops.append(Op("pd_op.tril" if attrs.get("lower", True) else "pd_op.triu", [ins["X"][0]], [outs["Out"][0]],
                           {"diagonal": attrs.get("diagonal", 0)}))
        return
    if t in ("split",):
        vec = f"%split{next(fresh)}"
        x = ins["X"][0]
        axis = ins["AxisTensor"][0] if ins.get("AxisTensor") else Literal(attrs.get("axis", 0), "int64")
        if attrs.get("sections"):
            prog.ops.append(Op("pd_op.split", [x, Literal(attrs["sections"], "int64"), axis], [vec], {}))
            prog.types[vec] = [None] * len(outs["Out"])
        else:
            prog.ops.append(Op("pd_op.split_with_num", [x, axis], [vec], {"num": attrs.get("num", len(outs["Out"]))}))
        prog.ops.append(Op("builtin.split", [vec], list(outs["Out"]), {}))
        return
    if t in ("elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div", "elementwise_max",
             "elementwise_min", "elementwise_pow", "elementwise_floordiv", "elementwise_mod") and \
            attrs.get("axis", -1) not in (-1, None):
        # legacy broadcasting: Y lines up with X's dims starting at `axis`
        xr = len((prog.types.get(ins["X"][0]) or ("", []))[1])
        yr = len((prog.types.get(ins["Y"][0]) or ("", []))[1])
        axis = attrs["axis"] if attrs["axis"] >= 0 else xr - yr
        trail = xr - axis - yr
        if trail > 0:
            y2 = f"%bcast{next(fresh)}"
            prog.ops.append(Op("pd_op.unsqueeze", [ins["Y"][0], Literal(list(range(yr, yr + trail)), "int64")],
                               [y2], {}))
            ins = dict(ins, Y=[y2])
    if t == "mul":  # v1 fc: flatten X to 2-D at x_num_col_dims, Y at y_num_col_dims, matmul, unflatten
        prog.ops.append(Op("legacy.mul", [ins["X"][0], ins["Y"][0]], [outs["Out"][0]],
                           {"x_num_col_dims": attrs.get("x_num_col_dims", 1),
                            "y_num_col_dims": attrs.get("y_num_col_dims", 1)}))
        return
    if t == "flatten2":  # v1: flatten to 2-D around `axis`
        prog.ops.append(Op("legacy.flatten2", [ins["X"][0]], [outs["Out"][0]], {"axis": attrs.get("axis", 1)}))
        return
    if t == "lookup_table":  # v1: ids carry a trailing dim of 1
        sq = f"%ids{next(fresh)}"
        prog.ops.append(Op("pd_op.squeeze", [ins["Ids"][0], Literal([-1], "int64")], [sq], {}))
        prog.ops.append(Op("pd_op.embedding", [sq, ins["W"][0]], [outs["Out"][0]],
                           {"padding_idx": attrs.get("padding_idx", -1)}))
        return
    if t == "matmul":  # v1: alpha scales the product
        out = outs["Out"][0]
        alpha = attrs.get("alpha", 1.0)
        mid = f"%matmul{next(fresh)}" if alpha != 1.0 else out
        prog.ops.append(Op("pd_op.matmul", [ins["X"][0], ins["Y"][0]], [mid],
                           {"transpose_x": attrs.get("transpose_X", False),
                            "transpose_y": attrs.get("transpose_Y", False)}))
        if alpha != 1.0:
            prog.ops.append(Op("pd_op.scale", [mid, Literal(alpha, "float32")], [out], {"bias": 0.0}))
        return
    spec = LEGACY.get(t)
    if spec is None:
        prog.ops.append(Op(f"legacy.{t}", [], [a for v in outs.values() for a in v], attrs))
        return
    pir, in_slots, out_slots, renames = spec
    inputs = []
    for s in in_slots:
        if s is None:
            inputs.append(None)
        elif callable(s):
            inputs.append(s(attrs))
        elif isinstance(s, tuple):  # ("either", slot, attr, dtype)
            _, slot, attr, dtype = s
            if ins.get(slot):
                inputs.append(ins[slot][0])
            elif ins.get(slot + "List"):
                inputs.append(_combine(prog, ins[slot + "List"], fresh))
            else:
                inputs.append(Literal(attrs.get(attr), dtype))
        elif s.endswith("*"):
            args = ins.get(s[:-1]) or []
            inputs.append(_combine(prog, args, fresh) if args else None)
        else:
            args = ins.get(s) or []
            inputs.append(args[0] if args else None)
    outputs, splits = [], []
    for s in out_slots:
        if s is None:
            outputs.append(None)
        elif s.endswith("*"):
            vec = f"%vec{next(fresh)}"
            outputs.append(vec)
            splits.append((vec, outs.get(s[:-1], [])))
        else:
            args = outs.get(s) or []
            outputs.append(args[0] if args else None)
    new_attrs = dict(attrs)
    for k, v in (renames or {}).items():
        new_attrs[k] = v(attrs) if callable(v) else attrs.get(v)
    prog.ops.append(Op(pir if pir.startswith("legacy.") else f"pd_op.{pir}", inputs, outputs, new_attrs))
    for vec, names in splits:
        prog.ops.append(Op("builtin.split", [vec], list(names), {}))


def _combine(prog, names, fresh):
    vid = f"%combine{next(fresh)}"
    prog.ops.append(Op("builtin.combine", list(names), [vid], {}))
    return vid
