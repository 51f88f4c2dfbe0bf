"""Shape ops: reshape / view / flatten / permute / transpose / squeeze / unsqueeze / expand / cat / stack / split / slice / select / narrow / tril / triu / roll / flip / repeat."""
import torch

from ..._report import unsupported
from ..pir_writer import _INT32_MAX, _Sym, _api, _axis, _ndim, _out, a_arr, a_i32, a_i32s, a_i64, a_i64s, a_str, pir


def _reshape_to(w, x, target, t):
    """reshape(x, target): sizes equal to the input's size at the same position are written 0 (Paddle's copy of
    an input dim), so a dynamic batch stays a constant shape where it can."""
    src = w.shape_vals.get(x)
    if src is not None and len(src) == len(target) and all(
            _same_size(a, b.value) if isinstance(b, _Sym) else isinstance(a, int) and a == b for a, b in zip(src, target)):
        return x  # the shape it has
    out = []
    for i, d in enumerate(target):
        same = src is not None and i < len(src) and (
            _same_size(src[i], d.value) if isinstance(d, _Sym) else isinstance(src[i], int) and src[i] == d)
        out.append(0 if same and (len(target) > 1) else d)
    if all(isinstance(d, int) for d in out):
        return w.op1("reshape", [x, w.int_array(out)], [], t)
    return w.op1("reshape", [x, w.ints(out)], [], t)


def _same_size(a, b):
    if isinstance(a, int) or isinstance(b, int):
        return False
    return str(a.node.expr) == str(b.node.expr)


@pir(torch.ops.aten.view.default, torch.ops.aten.reshape.default, torch.ops.aten._unsafe_view.default)
def _reshape(w, node, args):
    y = _reshape_to(w, args[0], list(args[1]), _out(node))
    if not list(args[1]) and w.shape(args[0]) == [1]:
        w.unsqueezed[y] = args[0]
    return y


@pir(torch.ops.aten.flatten.using_ints)
def _flatten(w, node, args):
    x = args[0]
    n = max(_ndim(w, x), 1)
    start = _axis(args[1] if len(args) > 1 else 0, n)
    end = _axis(args[2] if len(args) > 2 else -1, n)
    if _ndim(w, x) == 0:
        return w.op1("reshape", [x, w.int_array([1])], [], _out(node))
    return w.op1("flatten", [x], [("start_axis", a_i32(start)), ("stop_axis", a_i32(end))], _out(node))


@pir(torch.ops.aten.permute.default)
def _permute(w, node, args):
    n = _ndim(w, args[0])
    return w.op1("transpose", [args[0]], [("perm", a_i32s([_axis(d, n) for d in args[1]]))], _out(node))


@pir(torch.ops.aten.transpose.int)
def _transpose(w, node, args):
    x = args[0]
    n = _ndim(w, x)
    perm = list(range(n))
    d0, d1 = _axis(args[1], n), _axis(args[2], n)
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return w.op1("transpose", [x], [("perm", a_i32s(perm))], _out(node))


@pir(torch.ops.aten.t.default, torch.ops.aten.numpy_T.default)
def _t(w, node, args):
    n = _ndim(w, args[0])
    if n < 2:
        return args[0]
    return w.op1("transpose", [args[0]], [("perm", a_i32s(list(range(n))[::-1]))], _out(node))


@pir(torch.ops.aten.unsqueeze.default)
def _unsqueeze(w, node, args):
    n = _ndim(w, args[0]) + 1
    return w.op1("unsqueeze", [args[0], w.int_array([_axis(args[1], n)])], [], _out(node))


@pir(torch.ops.aten.squeeze.dim, torch.ops.aten.squeeze.dims, torch.ops.aten.squeeze.default)
def _squeeze(w, node, args):
    x = args[0]
    n = _ndim(w, x)
    if len(args) < 2:
        dims = [i for i, d in enumerate(w.shape(x)) if d == 1]
    else:
        dims = args[1] if isinstance(args[1], (list, tuple)) else [args[1]]
        dims = [_axis(d, n) for d in dims if w.shape(x)[_axis(d, n)] == 1]
    if not dims:
        return x
    return w.op1("squeeze", [x, w.int_array(dims)], [], _out(node))


@pir(torch.ops.aten.expand.default)
def _expand(w, node, args):
    """expand(x, sizes): a run-time size equal to the input's own is written -1 (Paddle's keep)."""
    x, sizes = args[0], list(args[1])
    src = w.shape_vals.get(x) or []
    off = len(sizes) - len(src)
    out = []
    for i, d in enumerate(sizes):
        j = i - off
        out.append(-1 if isinstance(d, _Sym) and 0 <= j < len(src) and _same_size(src[j], d.value) else d)
    return w.op1("expand", [x, w.ints(out)], [], _out(node))


@pir(torch.ops.aten.cat.default, torch.ops.aten.concat.default)
def _cat(w, node, args):
    t = _out(node)
    xs = [w.cast(v, t[0]) for v in args[0] if _numel_nonzero_or_rank(w, v)]
    dim = args[1] if len(args) > 1 else 0
    vec = w.emit("builtin.combine", xs, outs=[[w.type(v) for v in xs]])[0]
    return w.op1("concat", [vec, w.full([1], _axis(dim, len(t[1])), "int32")], [], t)


def _numel_nonzero_or_rank(w, v):
    s = w.shape(v)
    return not (len(s) == 1 and s[0] == 0)  # torch.cat skips legacy empty [0] tensors


@pir(torch.ops.aten.stack.default)
def _stack(w, node, args):
    t = _out(node)
    xs = [w.cast(v, t[0]) for v in args[0]]
    dim = args[1] if len(args) > 1 else 0
    vec = w.emit("builtin.combine", xs, outs=[[w.type(v) for v in xs]])[0]
    return w.op1("stack", [vec], [("axis", a_i32(_axis(dim, len(t[1]))))], t)


def _split_outs(w, vec, types):
    return w.emit("builtin.split", [vec], outs=types)


@pir(torch.ops.aten.split.Tensor, torch.ops.aten.split_with_sizes.default, torch.ops.aten.chunk.default,
     torch.ops.aten.unbind.int)
def _split(w, node, args):
    x = args[0]
    types = _out(node)
    n = _ndim(w, x)
    dim = _axis(args[2] if len(args) > 2 else 0, n)
    vec_t = [tuple(t) for t in types]
    if node.target is torch.ops.aten.unbind.int:
        dim = _axis(args[1] if len(args) > 1 else 0, n)
        vec = w.emit("pd_op.unbind", [x], [("axis", a_i32(dim))], [vec_t])[0]
        return _split_outs(w, vec, types)
    sizes = [t[1][dim] for t in types]
    size = w.shape(x)[dim]
    if len(set(sizes)) == 1 and sizes[0] >= 0 and (size < 0 or sizes[0] * len(sizes) == size):
        vec = w.emit("pd_op.split_with_num", [x, w.full([1], dim, "int32")], [("num", a_i32(len(sizes)))],
                     [vec_t])[0]
    else:
        if any(s < 0 for s in sizes):
            raise unsupported(_api(), " (Paddle program): split into run-time sizes")
        vec = w.emit("pd_op.split", [x, w.int_array(sizes), w.full([1], dim, "int32")], [], [vec_t])[0]
    return _split_outs(w, vec, types)


def _slice_bounds(start, end, size):
    start = 0 if start is None else start
    big = end is None or (isinstance(end, int) and end >= _INT32_MAX)
    if big:
        end = size if isinstance(size, int) and size >= 0 else _INT32_MAX
    return start, end


@pir(torch.ops.aten.slice.Tensor)
def _slice(w, node, args):
    x = args[0]
    n = _ndim(w, x)
    dim = _axis(args[1] if len(args) > 1 else 0, n)
    start = args[2] if len(args) > 2 else None
    end = args[3] if len(args) > 3 else None
    step = args[4] if len(args) > 4 else 1
    size = w.shape(x)[dim]
    start, end = _slice_bounds(start, end, size)
    t = _out(node)
    if isinstance(start, int) and isinstance(end, int) and start == 0 and step == 1 and \
            size >= 0 and end >= size:
        return x
    starts = w.ints([start]) if not isinstance(start, int) else w.int_array([start])
    ends = w.ints([end]) if not isinstance(end, int) else w.int_array([end])
    if step != 1:
        return w.op1("strided_slice", [x, starts, ends, w.int_array([step])], [("axes", a_i32s([dim]))], t)
    run_time = not (isinstance(start, int) and isinstance(end, int))  # Paddle's flag for bounds read at run time
    return w.op1("slice", [x, starts, ends], [("axes", a_i64s([dim])), ("infer_flags", a_i64s([-1 if run_time else 1])),
                                             ("decrease_axis", a_arr([]))], t)


@pir(torch.ops.aten.select.int)
def _select(w, node, args):
    x = args[0]
    n = _ndim(w, x)
    dim = _axis(args[1], n)
    i = args[2]
    if not isinstance(i, int):
        raise unsupported(_api(), " (Paddle program): select at a run-time index")
    end = i + 1 if i != -1 else _INT32_MAX
    return w.op1("slice", [x, w.int_array([i]), w.int_array([end])],
                 [("axes", a_i64s([dim])), ("infer_flags", a_i64s([1])), ("decrease_axis", a_i64s([dim]))],
                 _out(node))


@pir(torch.ops.aten.narrow.default)
def _narrow(w, node, args):
    x, dim, start, length = args[:4]
    n = _ndim(w, x)
    dim = _axis(dim, n)
    return w.op1("slice", [x, w.int_array([start]), w.int_array([start + length])],
                 [("axes", a_i64s([dim])), ("infer_flags", a_i64s([1])), ("decrease_axis", a_arr([]))], _out(node))


@pir(torch.ops.aten.tril.default, torch.ops.aten.triu.default)
def _tril(w, node, args):
    name = "tril" if node.target is torch.ops.aten.tril.default else "triu"
    return w.op1(name, [args[0]], [("diagonal", a_i32(args[1] if len(args) > 1 else 0))], _out(node))


@pir(torch.ops.aten.roll.default)
def _roll(w, node, args):
    x, shifts = args[0], args[1]
    dims = args[2] if len(args) > 2 else []
    shifts = list(shifts) if isinstance(shifts, (list, tuple)) else [shifts]
    dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    return w.op1("roll", [x, w.int_array(shifts)], [("axis", a_i64s(dims))], _out(node))


@pir(torch.ops.aten.flip.default)
def _flip(w, node, args):
    n = _ndim(w, args[0])
    return w.op1("flip", [args[0]], [("axis", a_i32s([_axis(d, n) for d in args[1]]))], _out(node))


@pir(torch.ops.aten.repeat.default)
def _repeat(w, node, args):
    return w.op1("tile", [args[0], w.ints(list(args[1]))], [], _out(node))


@pir(torch.ops.aten.repeat_interleave.self_int)
def _repeat_interleave(w, node, args):
    x, repeats = args[0], args[1]
    dim = args[2] if len(args) > 2 else node.kwargs.get("dim")
    if dim is None or not isinstance(repeats, int):
        raise unsupported(_api(), " (Paddle program): repeat_interleave without dim or with run-time "
                                             "repeats")
    return w.op1("repeat_interleave", [x], [("repeats", a_i32(repeats)), ("axis", a_i32(_axis(dim, _ndim(w, x)))),
                                            ("output_size", a_i64(-1))], _out(node))


@pir(torch.ops.aten.pixel_shuffle.default)
def _pixel_shuffle(w, node, args):
    return w.op1("pixel_shuffle", [args[0]], [("upscale_factor", a_i32(args[1])), ("data_format", a_str("NCHW"))],
                 _out(node))


@pir(torch.ops.aten.pixel_unshuffle.default)
def _pixel_unshuffle(w, node, args):
    return w.op1("pixel_unshuffle", [args[0]], [("downscale_factor", a_i32(args[1])), ("data_format", a_str("NCHW"))],
                 _out(node))
