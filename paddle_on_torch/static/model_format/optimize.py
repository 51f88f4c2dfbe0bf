"""Inference-time rewrites of a lowered program, and its compilation.

In an inference model the parameters are constants, so (as Paddle's own inference passes
conv_bn_fuse_pass and conv_elementwise_add_fuse_pass do) a convolution followed by
  - a batch_norm in inference form (running statistics),
  - an add / subtract of a per-channel constant (Paddle saves a conv bias as conv2d + add), or
  - a multiply by a per-channel constant
is one convolution with a new weight and bias.  `fold_conv_affine` does that on a copy of the
GraphModule; the original (whose parameters paddle.jit.load trains) is left as it is.  A fold is
skipped when the convolution's output has another consumer (it is needed unscaled), when the weight
or the folded constant is not a load-time constant, when the constant is not per-channel, and for a
batch_norm saved in training mode (is_test false and not use_global_stats: Paddle normalises it with
the batch's statistics, so it is not a constant affine map).

`compile_inference(gm, dynamic, layout)` is torch.compile with inductor freezing: the parameters
become constants, so inductor folds what is left and (in channels-last layout) pre-packs the
convolution weights for oneDNN and fuses pointwise ops into them.  Freezing has to be on while
dynamo traces (dynamo lifts parameters as freezable only then: torch._dynamo.utils.
is_parameter_freezing); `torch.compile(options={"freezing": True})` applies the option only later,
in inductor, where it has no effect.  So the wrapper turns it on for the calls that may compile (a
new input signature), and not on the others (a config patch costs ~35 us).  oneDNN's channels-last
kernels (pre-packed weights) are slower than aten's NCHW ones at batch 1 and faster at batch 16 on
the models measured, so layout "auto" compiles a batch-1 signature NCHW and the others channels-last.
On these small models most of a compiled call is per-op overhead, not arithmetic, so compile_inference
also generates the wrapper in C++ (inductor's cpp_wrapper) and runs unpadded 1x1 convolutions as
linears.
"""
import torch
import torch.fx as fx

from . import ops

_AFFINE = {torch.add: "add", torch.sub: "subtract", torch.mul: "multiply"}


def _training_bn(node):
    attrs = node.meta.get("paddle_attrs") or {}
    return attrs.get("is_test") is False and not attrs.get("use_global_stats", False)


class _Consts:
    """Load-time values of nodes that read no placeholder (parameters and what is computed from them)."""

    def __init__(self, gm):
        self.gm, self.memo = gm, {}

    def __call__(self, v):
        if isinstance(v, (list, tuple)):
            out = [self(x) for x in v]
            return _NOT if any(x is _NOT for x in out) else type(v)(out)
        if isinstance(v, dict):
            out = {k: self(x) for k, x in v.items()}
            return _NOT if any(x is _NOT for x in out.values()) else out
        if not isinstance(v, fx.Node):
            return v
        if v in self.memo:
            return self.memo[v]
        r = _NOT
        if v.op == "get_attr":
            r = self.gm
            for part in v.target.split("."):
                r = getattr(r, part)
            r = r if isinstance(r, torch.Tensor) else _NOT
        elif v.op in ("call_function", "call_method"):
            args, kwargs = self(v.args), self(v.kwargs)
            if args is not _NOT and kwargs is not _NOT:
                with torch.no_grad():
                    if v.op == "call_function":
                        r = v.target(*args, **kwargs)
                    else:
                        r = getattr(args[0], v.target)(*args[1:], **kwargs)
        self.memo[v] = r
        return r


_NOT = object()


def _per_channel(c, rank, channels_last, n_out):
    """A constant broadcast against a conv output [N, C, ...] (or [N, ..., C]) as a [C] vector, else None."""
    if not isinstance(c, torch.Tensor) or not c.is_floating_point() or c.dim() > rank:
        return None
    shape = [1] * (rank - c.dim()) + list(c.shape)
    ch = rank - 1 if channels_last else 1
    if any(d != 1 for i, d in enumerate(shape) if i != ch) or shape[ch] not in (1, n_out):
        return None
    return c.reshape([-1]).to(torch.float64).expand(n_out)


def _conv_parts(node, consts):
    """(weight, bias) of a foldable _rt_conv node as float64 tensors, else None."""
    w, bias = consts(node.args[1]), consts(node.args[2])
    if not isinstance(w, torch.Tensor) or bias is _NOT or not w.is_floating_point():
        return None
    b = torch.zeros(w.shape[0], dtype=torch.float64) if bias is None else bias.to(torch.float64)
    return w.to(torch.float64), b


def _fold_one(user, conv, consts):
    """(weight, bias, kind) after folding `user` (the conv's only consumer) into `conv`, or None."""
    parts = _conv_parts(conv, consts)
    if parts is None:
        return None
    w, b = parts
    channels_last, rank, n_out = conv.args[8], w.dim(), w.shape[0]
    view = [-1] + [1] * (rank - 1)
    if user.target is ops._rt_batch_norm:
        if user.args[0] is not conv or user.args[6] != channels_last or _training_bn(user):
            return None
        mean, var, scale, shift = (consts(a) for a in user.args[1:5])
        if any(t is _NOT or (t is not None and (not isinstance(t, torch.Tensor) or t.numel() != n_out))
               for t in (mean, var, scale, shift)) or mean is None or var is None:
            return None
        inv = 1.0 / torch.sqrt(var.to(torch.float64) + float(user.args[5]))
        if scale is not None:
            inv = inv * scale.to(torch.float64)
        b = (b - mean.to(torch.float64)) * inv + (shift.to(torch.float64) if shift is not None else 0.0)
        return w * inv.reshape(view), b, "batch_norm"
    kind = _AFFINE.get(user.target)
    if kind is None or user.kwargs or len(user.args) != 2 or (user.args[0] is conv) == (user.args[1] is conv):
        return None
    other = user.args[1] if user.args[0] is conv else user.args[0]
    value = consts(other)
    c = _per_channel(value, rank, channels_last, n_out)
    if c is None or value.dtype != consts(conv.args[1]).dtype:  # a wider constant would promote the result
        return None
    if kind == "add":
        return w, b + c, kind
    if kind == "subtract":
        if user.args[0] is not conv:  # c - conv(x): negate everything
            return -w, c - b, kind
        return w, b - c, kind
    return w * c.reshape(view), b * c, kind


def fold_conv_affine(gm):
    """A copy of `gm` with batch_norm / per-channel add, subtract, multiply folded into the convolutions
    before them; returns (new GraphModule, {kind: count}).  `gm` is not modified."""
    import copy

    new = fx.GraphModule(gm, copy.deepcopy(gm.graph), class_name=type(gm).__name__)
    for node, old in zip(new.graph.nodes, gm.graph.nodes):
        node.meta = old.meta  # deepcopy of a graph keeps meta, but be explicit: the fold reads paddle_attrs
    consts, counts, k = _Consts(new), {}, 0
    for conv in list(new.graph.nodes):
        if conv.op != "call_function" or conv.target is not ops._rt_conv:
            continue
        while len(conv.users) == 1:
            user = next(iter(conv.users))
            folded = _fold_one(user, conv, consts) if user.op == "call_function" else None
            if folded is None:
                break
            w, b, kind = folded
            dtype = consts(conv.args[1]).dtype
            names = []
            for t in (w, b):
                name = f"_folded_{k}"
                while hasattr(new, name):
                    k += 1
                    name = f"_folded_{k}"
                new.register_buffer(name, t.to(dtype))
                names.append(name)
            with new.graph.inserting_before(user):
                wn, bn = (new.graph.get_attr(n) for n in names)
                args = list(conv.args)
                args[1], args[2] = wn, bn
                repl = new.graph.call_function(ops._rt_conv, tuple(args), dict(conv.kwargs))
            repl.meta = dict(conv.meta)
            user.replace_all_uses_with(repl)
            new.graph.erase_node(user)
            new.graph.erase_node(conv)
            conv = repl
            counts[kind] = counts.get(kind, 0) + 1
    new.graph.eliminate_dead_code()
    used = {n.target for n in new.graph.nodes if n.op == "get_attr"}
    for name in [n for n, _ in new.named_buffers(recurse=False) if n not in used]:
        delattr(new, name)  # a dropped BN statistic must not become a (frozen) input of the compiled graph
    new.recompile()
    return new, counts


# Every layout: freezing, and the generated wrapper (the code that calls the kernels and the oneDNN
# convolutions one after another) in C++ rather than Python: on these small models most of a call is
# per-op overhead, and the C++ wrapper takes 13-25 % off (docs/inference_models.md).
_COMMON = {"freezing": True, "cpp_wrapper": True}
_LAYOUTS = {
    # oneDNN: convolutions in channels-last with pre-packed weights and fused pointwise ops
    "channels_last": dict(_COMMON),
    # convolutions stay NCHW on aten's own kernels (thnn / oneDNN chosen per call)
    "nchw": dict(_COMMON, **{"layout_optimization": False, "cpp.weight_prepack": False}),
    # channels-last on aten's kernels, weights not pre-packed
    "channels_last_aten": dict(_COMMON, **{"cpp.weight_prepack": False}),
}


def _rt_conv_1x1_as_linear(x, w, bias, strides, paddings, dilations, groups, algo, channels_last, nd):
    """ops._rt_conv, except that a 2-D 1x1 convolution without padding and with one group (mobilenet's
    expansions / projections, squeeze-excite on a pooled [N, C, 1, 1], resnet's strided shortcuts) runs as
    a linear over the channel dim of the (strided) input.  Under freezing, inductor runs that as a
    pre-packed matmul with the pointwise ops around it fused, where a oneDNN convolution costs tens of us
    of set-up per call (it builds its primitive descriptor on every call) on layers that take a few us
    (docs/inference_models.md)."""
    if (nd == 2 and groups == 1 and tuple(w.shape[2:]) == (1, 1)
            and (algo in ("SAME", "VALID") or not any(paddings))):  # SAME pads nothing for a 1x1 kernel
        sh, sw = strides
        w2 = w.flatten(1)
        if channels_last:
            return torch.nn.functional.linear(x[:, ::sh, ::sw] if sh * sw > 1 else x, w2, bias)
        x = x[:, :, ::sh, ::sw] if sh * sw > 1 else x
        return torch.nn.functional.linear(x.movedim(1, -1), w2, bias).movedim(-1, 1)
    return ops._rt_conv(x, w, bias, strides, paddings, dilations, groups, algo, channels_last, nd)


def _convs_1x1_as_linear(gm):
    """A copy of `gm` whose convolutions go through _rt_conv_1x1_as_linear (decided per call, at trace time,
    from the weight's shape); `gm` is not modified."""
    import copy

    new = fx.GraphModule(gm, copy.deepcopy(gm.graph), class_name=type(gm).__name__)
    for node in new.graph.nodes:
        if node.op == "call_function" and node.target is ops._rt_conv:
            node.target = _rt_conv_1x1_as_linear
    new.recompile()
    return new


def _auto_layout(args):
    """Measured (docs/inference_models.md): aten's NCHW kernels win at batch 1, oneDNN channels-last at 16."""
    batch1 = any(isinstance(a, torch.Tensor) and a.dim() >= 4 and a.shape[0] == 1 for a in args)
    return "nchw" if batch1 else "channels_last"


class compile_inference:
    """`gm` under torch.compile (inductor) with freezing, called without autograd.

    layout: "channels_last", "nchw", or "auto": NCHW for a call with a 4-D+ input of batch 1, else
    channels-last; each input signature is compiled with the layout chosen for it (dynamo keeps the
    compiled graphs apart by their shape guards)."""

    def __init__(self, gm, dynamic=True, layout="auto"):
        import torch._inductor.config as inductor_config

        if layout not in _LAYOUTS and layout != "auto":
            raise ValueError(f"layout must be 'auto' or one of {sorted(_LAYOUTS)}, got {layout!r}")
        self._config, self._layout = inductor_config, layout
        self._fn = torch.compile(_convs_1x1_as_linear(gm), dynamic=dynamic)
        self.choice = {}  # input signature -> the layout it was compiled with

    def __call__(self, *args):
        key = tuple((tuple(a.shape), a.dtype, a.device) if isinstance(a, torch.Tensor) else type(a) for a in args)
        with torch.no_grad():
            if key in self.choice:
                return self._fn(*args)
            layout = _auto_layout(args) if self._layout == "auto" else self._layout
            with self._config.patch(_LAYOUTS[layout]):  # freezing must be on while dynamo traces
                out = self._fn(*args)
            self.choice[key] = layout
            return out
