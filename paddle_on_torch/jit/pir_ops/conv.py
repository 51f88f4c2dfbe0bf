"""Convolution (1-3D, transposed) and pooling."""
import torch

from ..._report import unsupported
from ..pir_writer import _api, _out, a_arr, a_bool, a_i32, a_i32s, a_i64s, a_str, pir


def _conv_bias(w, y, b, t, nd):
    shape = [1, -1] + [1] * nd
    bshape = [1, w.shape(b)[0]] + [1] * nd
    rb = w.op1("reshape", [b, w.int_array(shape)], [], (w.dtype(b), bshape))
    return w.op1("add", [y, rb], [], t)


def _conv_attrs(stride, padding, dilation, groups, nd, depthwise=False):
    pad = list(padding) if isinstance(padding, (list, tuple)) else [padding] * nd
    if isinstance(padding, str):
        raise unsupported(_api(), f" (Paddle program): convolution padding={padding!r}")
    return [("strides", a_i32s(stride)), ("paddings", a_i32s(pad)), ("padding_algorithm", a_str("EXPLICIT")),
            ("dilations", a_i32s(dilation)), ("groups", a_i32(groups)),
            ("data_format", a_str("NCHW" if nd == 2 else "NCDHW"))]


def _conv(w, node, x, weight, bias, stride, padding, dilation, groups, nd, t):
    ws = w.shape(weight)
    stride = list(stride) * (nd // len(stride)) if len(stride) != nd else list(stride)
    dilation = list(dilation) * (nd // len(dilation)) if len(dilation) != nd else list(dilation)
    if isinstance(padding, (list, tuple)) and len(padding) == 1 and nd > 1:
        padding = list(padding) * nd
    if nd == 1:  # Paddle's conv1d: unsqueeze to 2-D, conv2d, squeeze
        xs = w.shape(x)
        x2 = w.op1("unsqueeze", [x, w.int_array([2])], [], (w.dtype(x), xs[:2] + [1] + xs[2:]))
        w2 = w.op1("unsqueeze", [weight, w.int_array([2])], [], (w.dtype(weight), ws[:2] + [1] + ws[2:]))
        pad = list(padding) if isinstance(padding, (list, tuple)) else [padding]
        ts = list(t[1])
        y = _conv(w, node, x2, w2, bias, [1] + stride, [0] + pad, [1] + dilation, groups, 2,
                  (t[0], ts[:2] + [1] + ts[2:]))
        return w.op1("squeeze", [y, w.int_array([2])], [], t)
    cin = w.shape(x)[1]
    depthwise = nd == 2 and groups > 1 and cin == groups and ws[0] % cin == 0
    name = "depthwise_conv2d" if depthwise else ("conv2d" if nd == 2 else "conv3d")
    attrs = _conv_attrs(stride, padding, dilation, groups, nd)
    if nd == 3 or depthwise:  # these ops list groups before dilations
        attrs = attrs[:3] + [attrs[4], attrs[3]] + attrs[5:]
    y = w.op1(name, [x, weight], attrs, t if bias is None else t)
    if bias is not None:
        y = _conv_bias(w, y, bias, t, nd)
    return y


@pir(torch.ops.aten.conv2d.default, torch.ops.aten.conv1d.default, torch.ops.aten.conv3d.default)
def _convnd(w, node, args):
    nd = {torch.ops.aten.conv1d.default: 1, torch.ops.aten.conv2d.default: 2}.get(node.target, 3)
    x, weight = args[0], args[1]
    bias = args[2] if len(args) > 2 else None
    stride = args[3] if len(args) > 3 else [1] * nd
    padding = args[4] if len(args) > 4 else [0] * nd
    dilation = args[5] if len(args) > 5 else [1] * nd
    groups = args[6] if len(args) > 6 else 1
    return _conv(w, node, x, weight, bias, stride, padding, dilation, groups, nd, _out(node))


@pir(torch.ops.aten.convolution.default)
def _convolution(w, node, args):
    x, weight, bias, stride, padding, dilation, transposed, output_padding, groups = args[:9]
    nd = len(w.shape(x)) - 2
    t = _out(node)
    if not transposed:
        return _conv(w, node, x, weight, bias, stride, padding, dilation, groups, nd, t)
    return _conv_transpose(w, x, weight, bias, stride, padding, output_padding, groups, dilation, nd, t)


def _conv_transpose(w, x, weight, bias, stride, padding, output_padding, groups, dilation, nd, t):
    if nd == 1:  # as Paddle's conv1d_transpose: unsqueeze x and the weight at the end, conv2d_transpose, squeeze
        y = _conv_transpose(w, _unsq(w, x, [3]), _unsq(w, weight, [3]), None, list(stride) + [1],
                            list(padding) + [0], [int(p) for p in output_padding] + [0], groups, list(dilation) + [1],
                            2, (t[0], t[1] + [1]))
        y = w.op1("squeeze", [y, w.int_array([3])], [], t)
        return y if bias is None else _conv_bias(w, y, bias, t, 1)
    if nd == 3:
        out_pad = [int(p) for p in output_padding]
        y = w.op1("conv3d_transpose", [x, weight],
                  [("strides", a_i32s(stride)), ("paddings", a_i32s(padding)),
                   ("output_padding", a_i32s(out_pad) if any(out_pad) else a_arr([])), ("output_size", a_arr([])),
                   ("padding_algorithm", a_str("EXPLICIT")), ("groups", a_i32(groups)),
                   ("dilations", a_i32s(dilation)), ("data_format", a_str("NCDHW"))], t)
        return y if bias is None else _conv_bias(w, y, bias, t, 3)
    cin = w.shape(x)[1]
    ws = w.shape(weight)
    depthwise = groups > 1 and cin == groups and ws[1] == 1
    out_pad = [int(p) for p in output_padding]
    y = w.op1("depthwise_conv2d_transpose" if depthwise else "conv2d_transpose", [x, weight, w.int_array([])],
              [("strides", a_i32s(stride)), ("paddings", a_i32s(padding)),
               ("output_padding", a_i32s(out_pad) if any(out_pad) else a_arr([])),
               ("padding_algorithm", a_str("EXPLICIT")), ("groups", a_i32(groups)), ("dilations", a_i32s(dilation)),
               ("data_format", a_str("NCHW"))], t)
    if bias is not None:
        y = _conv_bias(w, y, bias, t, 2)
    return y


@pir(torch.ops.aten.conv_transpose2d.input)
def _conv_transpose2d(w, node, args):
    x, weight = args[0], args[1]
    bias = args[2] if len(args) > 2 else None
    stride = args[3] if len(args) > 3 else [1, 1]
    padding = args[4] if len(args) > 4 else [0, 0]
    output_padding = args[5] if len(args) > 5 else [0, 0]
    groups = args[6] if len(args) > 6 else 1
    dilation = args[7] if len(args) > 7 else [1, 1]
    two = lambda v: list(v) * 2 if len(v) == 1 else list(v)  # noqa: E731
    return _conv_transpose(w, x, weight, bias, two(stride), two(padding), two(output_padding), groups, two(dilation),
                           2, _out(node))


def _pool2d(w, x, kernel, stride, padding, ceil_mode, exclusive, kind, t, adaptive=False, global_pooling=False):
    return w.op1("pool2d", [x, w.int_array(kernel)],
                 [("strides", a_i64s(stride)), ("paddings", a_i64s(padding)), ("ceil_mode", a_bool(ceil_mode)),
                  ("exclusive", a_bool(exclusive)), ("data_format", a_str("NCHW")), ("pooling_type", a_str(kind)),
                  ("global_pooling", a_bool(global_pooling)), ("adaptive", a_bool(adaptive)),
                  ("padding_algorithm", a_str("EXPLICIT"))], t)


def _pair(v, n=2):
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * n if len(v) == 1 else v


@pir(torch.ops.aten.max_pool2d.default)
def _max_pool2d(w, node, args):
    x, kernel = args[0], _pair(args[1])
    stride = _pair(args[2]) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3]) if len(args) > 3 else [0, 0]
    dilation = _pair(args[4]) if len(args) > 4 else [1, 1]
    ceil_mode = args[5] if len(args) > 5 else False
    if dilation != [1, 1]:
        raise unsupported(_api(), " (Paddle program): max_pool2d with dilation")
    return _pool2d(w, x, kernel, stride, padding, ceil_mode, True, "max", _out(node))


@pir(torch.ops.aten.avg_pool2d.default)
def _avg_pool2d(w, node, args):
    x, kernel = args[0], _pair(args[1])
    stride = _pair(args[2]) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3]) if len(args) > 3 else [0, 0]
    ceil_mode = args[4] if len(args) > 4 else False
    count_include_pad = args[5] if len(args) > 5 else True
    if len(args) > 6 and args[6] is not None:
        raise unsupported(_api(), " (Paddle program): avg_pool2d with divisor_override")
    return _pool2d(w, x, kernel, stride, padding, ceil_mode, not count_include_pad, "avg", _out(node))


@pir(torch.ops.aten.adaptive_avg_pool2d.default, torch.ops.aten._adaptive_avg_pool2d.default)
def _adaptive_avg_pool2d(w, node, args):
    x, size = args[0], _pair(args[1])
    return _pool2d(w, x, size, [1, 1], [0, 0], False, True, "avg", _out(node), adaptive=True)


@pir(torch.ops.aten.max_pool1d.default, torch.ops.aten.avg_pool1d.default)
def _pool1d(w, node, args):
    x, kernel = args[0], _pair(args[1], 1)
    stride = _pair(args[2], 1) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3], 1) if len(args) > 3 else [0]
    t = _out(node)
    xs = w.shape(x)
    x2 = w.op1("unsqueeze", [x, w.int_array([2])], [], (w.dtype(x), xs[:2] + [1] + xs[2:]))
    t2 = (t[0], t[1][:2] + [1] + t[1][2:])
    if node.target is torch.ops.aten.max_pool1d.default:
        dilation = _pair(args[4], 1) if len(args) > 4 else [1]
        ceil_mode = args[5] if len(args) > 5 else False
        if dilation != [1]:
            raise unsupported(_api(), " (Paddle program): max_pool1d with dilation")
        y = _pool2d(w, x2, [1] + kernel, [1] + stride, [0] + padding, ceil_mode, True, "max", t2)
    else:
        ceil_mode = args[4] if len(args) > 4 else False
        count_include_pad = args[5] if len(args) > 5 else True
        y = _pool2d(w, x2, [1] + kernel, [1] + stride, [0] + padding, ceil_mode, not count_include_pad, "avg", t2)
    return w.op1("squeeze", [y, w.int_array([2])], [], t)


# ------------------------------------------------------------------ more pooling (1-D / 3-D, adaptive, with indices)
def _unsq(w, x, axes):
    """x with unit dims inserted at `axes` (Paddle's 1-D pools and convs run as 2-D ones on [N, C, 1, L])."""
    shape = list(w.shape(x))
    for a in axes:
        shape.insert(a, 1)
    return w.op1("unsqueeze", [x, w.int_array(axes)], [], (w.dtype(x), shape))


def _with_unit(t, axis=2):
    return (t[0], t[1][:axis] + [1] + t[1][axis:])


@pir(torch.ops.aten.adaptive_avg_pool1d.default)
def _adaptive_avg_pool1d(w, node, args):
    t = _out(node)
    y = _pool2d(w, _unsq(w, args[0], [2]), [1] + _pair(args[1], 1), [1, 1], [0, 0], False, True, "avg",
                _with_unit(t), adaptive=True)
    return w.op1("squeeze", [y, w.int_array([2])], [], t)


def _pool3d(w, x, kernel, stride, padding, ceil_mode, exclusive, kind, t, adaptive=False):
    return w.op1("pool3d", [x],  # unlike pool2d, Paddle's pool3d takes its kernel as an attribute
                 [("kernel_size", a_i64s(kernel)), ("strides", a_i64s(stride)), ("paddings", a_i64s(padding)), ("ceil_mode", a_bool(ceil_mode)),
                  ("exclusive", a_bool(exclusive)), ("data_format", a_str("NCDHW")), ("pooling_type", a_str(kind)),
                  ("global_pooling", a_bool(False)), ("adaptive", a_bool(adaptive)),
                  ("padding_algorithm", a_str("EXPLICIT"))], t)


@pir(torch.ops.aten.adaptive_avg_pool3d.default, torch.ops.aten._adaptive_avg_pool3d.default)
def _adaptive_avg_pool3d(w, node, args):
    return _pool3d(w, args[0], _pair(args[1], 3), [1, 1, 1], [0, 0, 0], False, True, "avg", _out(node),
                   adaptive=True)


@pir(torch.ops.aten.max_pool3d.default)
def _max_pool3d(w, node, args):
    x, kernel = args[0], _pair(args[1], 3)
    stride = _pair(args[2], 3) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3], 3) if len(args) > 3 else [0, 0, 0]
    dilation = _pair(args[4], 3) if len(args) > 4 else [1, 1, 1]
    ceil_mode = args[5] if len(args) > 5 else False
    if dilation != [1, 1, 1]:
        raise unsupported(_api(), " (Paddle program): max_pool3d with dilation")
    return _pool3d(w, x, kernel, stride, padding, ceil_mode, True, "max", _out(node))


@pir(torch.ops.aten.avg_pool3d.default)
def _avg_pool3d(w, node, args):
    x, kernel = args[0], _pair(args[1], 3)
    stride = _pair(args[2], 3) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3], 3) if len(args) > 3 else [0, 0, 0]
    ceil_mode = args[4] if len(args) > 4 else False
    count_include_pad = args[5] if len(args) > 5 else True
    if len(args) > 6 and args[6] is not None:
        raise unsupported(_api(), " (Paddle program): avg_pool3d with divisor_override")
    return _pool3d(w, x, kernel, stride, padding, ceil_mode, not count_include_pad, "avg", _out(node))


def _max_with_index(w, x, kernel, stride, padding, ceil_mode, adaptive, types):
    """Paddle's max_pool{2,3}d_with_index: the values and the flat index of each maximum within its channel's
    spatial plane (torch's indices)."""
    nd = len(kernel)
    outs = w.emit(f"pd_op.max_pool{nd}d_with_index", [x],
                  [("kernel_size", a_i32s(kernel)), ("strides", a_i32s(stride)), ("paddings", a_i32s(padding)),
                   ("global_pooling", a_bool(False)), ("adaptive", a_bool(adaptive)), ("ceil_mode", a_bool(ceil_mode))],
                  [types[0], ("int32", types[1][1])])
    return [outs[0], w.cast(outs[1], types[1][0])]


def _adaptive_max(nd):
    def lower(w, node, args):
        t = _out(node)
        size = _pair(args[1], nd)
        if nd == 1:
            ts = [_with_unit(x) for x in t]
            y, i = _max_with_index(w, _unsq(w, args[0], [2]), [1] + size, [1, 1], [0, 0], False, True, ts)
            return [w.op1("squeeze", [v, w.int_array([2])], [], tt) for v, tt in zip((y, i), t)]
        return _max_with_index(w, args[0], size, [1] * nd, [0] * nd, False, True, t)
    return lower


for _nd in (1, 2, 3):
    pir(getattr(torch.ops.aten, f"adaptive_max_pool{_nd}d").default)(_adaptive_max(_nd))


@pir(torch.ops.aten.max_pool2d_with_indices.default, torch.ops.aten.max_pool3d_with_indices.default)
def _max_pool_with_indices(w, node, args):
    nd = 2 if node.target is torch.ops.aten.max_pool2d_with_indices.default else 3
    x, kernel = args[0], _pair(args[1], nd)
    stride = _pair(args[2], nd) if len(args) > 2 and args[2] else kernel
    padding = _pair(args[3], nd) if len(args) > 3 else [0] * nd
    dilation = _pair(args[4], nd) if len(args) > 4 else [1] * nd
    ceil_mode = args[5] if len(args) > 5 else False
    if dilation != [1] * nd:
        raise unsupported(_api(), f" (Paddle program): max_pool{nd}d with dilation")
    return _max_with_index(w, x, kernel, stride, padding, ceil_mode, False, _out(node))


# ------------------------------------------------------------------ transposed convolution 1-D / 3-D
@pir(torch.ops.aten.conv_transpose1d.default, torch.ops.aten.conv_transpose3d.input)
def _conv_transpose_nd(w, node, args):
    nd = 1 if node.target is torch.ops.aten.conv_transpose1d.default else 3
    x, weight = args[0], args[1]
    bias = args[2] if len(args) > 2 else None
    stride = _pair(args[3] if len(args) > 3 else 1, nd)
    padding = _pair(args[4] if len(args) > 4 else 0, nd)
    output_padding = _pair(args[5] if len(args) > 5 else 0, nd)
    groups = args[6] if len(args) > 6 else 1
    dilation = _pair(args[7] if len(args) > 7 else 1, nd)
    return _conv_transpose(w, x, weight, bias, stride, padding, output_padding, groups, dilation, nd, _out(node))


# ------------------------------------------------------------------ im2col / col2im (F.unfold / F.fold)
@pir(torch.ops.aten.im2col.default)
def _im2col(w, node, args):
    x, kernel, dilation, padding, stride = args[:5]
    pad = _pair(padding)
    return w.op1("unfold", [x], [("kernel_sizes", a_i32s(_pair(kernel))), ("strides", a_i32s(_pair(stride))),
                                 ("paddings", a_i32s(pad + pad)), ("dilations", a_i32s(_pair(dilation)))], _out(node))


@pir(torch.ops.aten.col2im.default)
def _col2im(w, node, args):
    x, output_size, kernel, dilation, padding, stride = args[:6]
    pad = _pair(padding)
    return w.op1("fold", [x], [("output_sizes", a_i32s(_pair(output_size))), ("kernel_sizes", a_i32s(_pair(kernel))),
                               ("strides", a_i32s(_pair(stride))), ("paddings", a_i32s(pad + pad)),
                               ("dilations", a_i32s(_pair(dilation)))], _out(node))
