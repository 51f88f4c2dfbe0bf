"""Creation ops (full, arange, *_like), no-op copies, test-time dropout, casts, one_hot."""
import torch

from ..._report import unsupported
from .. import _infer_ops
from ..pir_writer import _DTYPES, _Sym, _api, _out, _register, a_bool, a_dtype, a_i32, a_place, a_str, pir


def _dtype_arg(node, default):
    dt = node.kwargs.get("dtype")
    return _DTYPES[dt][1] if dt is not None else default


def _place_free(sizes):
    return [s for s in sizes]


@pir(torch.ops.aten.full.default, torch.ops.aten.zeros.default, torch.ops.aten.ones.default,
     torch.ops.aten.empty.memory_format, torch.ops.aten.new_zeros.default, torch.ops.aten.new_ones.default,
     torch.ops.aten.new_full.default, torch.ops.aten.new_empty.default)
def _full(w, node, args):
    t = _out(node)
    target = node.target
    if target in (torch.ops.aten.new_zeros.default, torch.ops.aten.new_ones.default,
                  torch.ops.aten.new_full.default, torch.ops.aten.new_empty.default):
        args = args[1:]
    sizes = list(args[0])
    if target in (torch.ops.aten.full.default, torch.ops.aten.new_full.default):
        value = args[1]
    else:
        value = 1 if target in (torch.ops.aten.ones.default, torch.ops.aten.new_ones.default) else 0
    if isinstance(value, _Sym):  # a size as the fill value: Paddle's full_with_tensor reads it at run time
        return w.op1("full_with_tensor", [w.cast(w.sym(value), t[0]), w.ints(sizes)], [("dtype", a_dtype(t[0]))], t,
                     sg=[True])
    if all(isinstance(s, int) for s in sizes):
        return w.full(sizes, value, t[0], place=0)
    return w.op1("full_with_tensor", [w.full([1], value, t[0]), w.ints(sizes)], [("dtype", a_dtype(t[0]))], t,
                 sg=[True])


@pir(torch.ops.aten.scalar_tensor.default)
def _scalar_tensor(w, node, args):
    t = _out(node)
    if isinstance(args[0], _Sym):  # to_tensor(x.shape[0] // 4): the size, computed in the program
        return w.cast(w.sym(args[0]), t[0])
    return w.full([], args[0], t[0])


@pir(torch.ops.aten.full_like.default, torch.ops.aten.zeros_like.default, torch.ops.aten.ones_like.default,
     torch.ops.aten.empty_like.default)
def _full_like(w, node, args):
    t = _out(node)
    if node.target is torch.ops.aten.full_like.default:
        value = args[1]
    else:
        value = 1 if node.target is torch.ops.aten.ones_like.default else 0
    return w.op1("full_like", [args[0], w.full([1], value, t[0])], [("dtype", a_dtype(t[0])), ("place", a_place(0))],
                 t, sg=[True])


@pir(torch.ops.aten.arange.start_step, torch.ops.aten.arange.default, torch.ops.aten.arange.start)
def _arange(w, node, args):
    t = _out(node)
    if node.target is torch.ops.aten.arange.default:
        start, end, step = 0, args[0], 1
    elif node.target is torch.ops.aten.arange.start:
        start, end, step = args[0], args[1], 1
    else:
        start, end, step = args[0], args[1], args[2] if len(args) > 2 else 1

    if any(isinstance(v, _Sym) for v in (start, end, step)):
        # as Paddle's arange with a Tensor bound: numbers become [1] constants of the result's dtype, sizes are
        # cast to it
        def bound(v):
            return w.cast(w.sym(v), t[0]) if isinstance(v, _Sym) else w.full([1], v, t[0])
    else:
        def bound(v):
            return w.full([1], v, "float64")
    return w.op1("arange", [bound(start), bound(end), bound(step)], [("dtype", a_dtype(t[0])), ("place", a_place(0))],
                 t, sg=[True])


def _identity(w, node, args):
    return args[0]


# detach_ only drops the autograd link (the to_tensor constant of `i = paddle.to_tensor(0)` in a forward)
for _n in ("clone.default", "alias.default", "detach.default", "detach_.default", "contiguous.default",
           "lift_fresh_copy.default", "lift_fresh.default", "_assert_tensor_metadata.default"):
    _register([_n], _identity)


@pir(torch.ops.aten.dropout.default, torch.ops.aten.feature_dropout.default, torch.ops.aten.alpha_dropout.default)
def _dropout(w, node, args):
    if len(args) > 2 and args[2]:
        raise unsupported(_api(), " (Paddle program): dropout in training mode (save in eval mode)")
    return args[0]


@pir(_infer_ops.DROPOUT_INFER)
def _dropout_infer(w, node, args):
    """Paddle's F.dropout as jit.save writes it (in either mode): `dropout` with is_test, its probability a
    [1] float32 `full`, no seed tensor; its second result is the (unused) uint8 mask."""
    x, p, downscale = args[:3]
    xt = w.type(x)
    mode = "downgrade_in_infer" if downscale else "upscale_in_train"
    return w.emit("pd_op.dropout", [x, 0, w.full([1], p, "float32")],
                  [("is_test", a_bool(True)), ("mode", a_str(mode)), ("seed", a_i32(0)), ("fix_seed", a_bool(False))],
                  [xt, ("uint8", xt[1])], sg=[w.sg.get(x, True)] * 2)[0]


@pir(torch.ops.aten._to_copy.default, torch.ops.aten.to.dtype, torch.ops.aten.to.dtype_layout,
     torch.ops.aten.type_as.default, torch.ops.aten.to.device)
def _to(w, node, args):
    return w.cast(args[0], _out(node)[0])


@pir(torch.ops.aten.one_hot.default)
def _one_hot(w, node, args):
    n = args[1] if len(args) > 1 else -1
    if n < 0:
        raise unsupported(_api(), " (Paddle program): one_hot without num_classes")
    t = _out(node)
    y = w.op1("one_hot", [args[0], w.full([1], n, "int32")], [], ("float32", t[1]))
    return w.cast(y, t[0])
