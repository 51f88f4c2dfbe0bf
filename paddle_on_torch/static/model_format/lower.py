"""A Program (either format) + its parameters -> one torch.fx GraphModule.

Placeholders are the feeds in order, the output is the tuple of fetches in order, the parameters
are buffers of the GraphModule.  Every op type is checked against the table before anything is
built, so a program with unsupported ops fails once, naming all of them.

Control flow (pd_op.if / pd_op.while) lowers each region to a GraphModule of its own (a submodule
of the main one); values the region reads from outside become extra inputs of that GraphModule.
"""
import operator

import torch
import torch.fx as fx

from .builder import Builder, Sym, torch_dtype
from .errors import ModelFormatError, UnsupportedOpsError
from .ops import TABLE, lowering
from .program import Literal
from ..._report import unsupported

_UNAVAILABLE = object()


def lowering_for(op_type):
    fn = TABLE.get(op_type)
    if fn is None and op_type.endswith("_") and not op_type.endswith("__"):
        fn = TABLE.get(op_type[:-1])  # in-place twins (relu_, add_, ...) compute the same values
    return fn


def missing_ops(program):
    return sorted(t for t in program.op_types() if lowering_for(t) is None)


class _Scope(dict):
    """A block's values; a miss looks in the enclosing block and captures the value as a block input."""

    def __init__(self, b, parent=None):
        super().__init__()
        self.b, self.parent, self.captured = b, parent, []

    def __missing__(self, vid):
        if self.parent is None:
            raise KeyError(vid)
        v = self.parent[vid]
        if isinstance(v, Sym) and not v.static():
            v = self.parent.b._graph_arg(v)
        if isinstance(v, fx.Node):
            self.captured.append(v)
            v = self.b.graph.placeholder(f"captured_{len(self.captured)}")
        elif isinstance(v, list):
            raise unsupported("pd_op.if / pd_op.while", ": a region that reads a vector value from outside it")
        self[vid] = v
        return v

    def __contains__(self, vid):
        if dict.__contains__(self, vid):
            return True
        return self.parent is not None and vid in self.parent


def _inputs(scope, op, where):
    ins = []
    for i in op.inputs:
        if i is None:
            ins.append(None)
        elif isinstance(i, Literal):  # an attribute the legacy reader turned into an input
            ins.append(torch.tensor(i.value, dtype=torch_dtype(i.dtype)) if i.dtype and i.value is not None
                       else i.value)
        elif i in scope:
            v = scope[i]
            if v is _UNAVAILABLE:
                raise unsupported(op.type, f" ({where}) reading an output that paddle_on_torch does not compute "
                                           "(a training-only statistic or mask)")
            ins.append(v)
        else:
            raise ModelFormatError(f"{where}: {op.type} reads value %{i}, which no earlier op defines")
    return ins


def run_ops(b, scope, ops, where):
    """Lower `ops` into b.graph; returns the values a closing cf.yield gives (or None)."""
    for op in ops:
        ins = _inputs(scope, op, where)
        if op.type == "cf.yield":
            return ins
        try:
            out = lowering_for(op.type)(b, op, ins) if not op.blocks else _CONTROL[op.type](b, scope, op, ins,
                                                                                            where)
        except (NotImplementedError, ModelFormatError):
            raise
        except Exception as e:  # noqa: BLE001 - malformed attributes or inputs: name the op
            raise ModelFormatError(f"{where}: cannot lower {op.type} ({type(e).__name__}: {e}); the program "
                                   f"({b.program.format} version {b.program.version}) is malformed or uses the op "
                                   "in a way paddle_on_torch does not support") from e
        if len(op.outputs) > 1:
            outs = out
        elif isinstance(out, list) and op.type != "builtin.combine":
            outs = out[:1]  # the op's first output; the lowering listed optional extras
        else:
            outs = [out]
        for vid, v in zip(op.outputs, outs):
            if isinstance(v, fx.Node) and v.op == "call_function" and "paddle_op" not in v.meta:
                v.meta["paddle_op"], v.meta["paddle_attrs"] = op.type, op.attrs  # read by optimize's folding
            if vid is not None:
                scope[vid] = _UNAVAILABLE if v is None else v
    return None


def _graph_value(b, v):
    if isinstance(v, Sym):
        return b._graph_arg(v)
    if isinstance(v, torch.Tensor):
        return b.const_node(v)
    return v


def _region(b, scope, block, args, where, tag):
    """A block as a GraphModule (args..., captured...) -> tuple of yielded values; returns (gm, captured)."""
    sub = Builder(b.program, b._params)
    sub.root = torch.nn.Module()
    inner = _Scope(sub, scope)
    for i, vid in enumerate(block.args):
        inner[vid] = sub.graph.placeholder(f"arg_{i}")
    # captured values become placeholders as the body first reads them (after the args, in that order)
    results = run_ops(sub, inner, block.ops, where) or []
    outs = tuple(_graph_value(sub, v) for v in results)
    sub.graph.output(outs)
    gm = fx.GraphModule(sub.root, sub.graph, class_name=f"PaddleRegion_{tag}")
    name = b._attr_name(f"region_{tag}")
    b.root.add_module(name, gm)
    return b.graph.get_attr(name), inner.captured


def _rt_if(pred, true_fn, false_fn, true_captured, false_captured):
    return true_fn(*true_captured) if bool(pred) else false_fn(*false_captured)


def _rt_while(cond, body, loop_vars, captured):
    loop_vars = tuple(loop_vars)
    while bool(cond):
        out = body(*loop_vars, *captured)
        cond, loop_vars = out[0], tuple(out[1:])
    return loop_vars


def _lower_if(b, scope, op, ins, where):
    if len(op.blocks) != 2:
        raise unsupported("pd_op.if", f" with {len(op.blocks)} regions")
    t, tc = _region(b, scope, op.blocks[0], [], where, "true")
    f, fc = _region(b, scope, op.blocks[1], [], where, "false")
    out = b.graph.call_function(_rt_if, (_graph_value(b, ins[0]), t, f, tc, fc))
    return [b.graph.call_function(operator.getitem, (out, i)) for i in range(len(op.outputs))]


def _lower_while(b, scope, op, ins, where):
    body, captured = _region(b, scope, op.blocks[0], [], where, "while")
    init = [_graph_value(b, v) for v in ins[1:]]
    out = b.graph.call_function(_rt_while, (_graph_value(b, ins[0]), body, init, captured))
    return [b.graph.call_function(operator.getitem, (out, i)) for i in range(len(op.outputs))]


_CONTROL = {"pd_op.if": _lower_if, "pd_op.while": _lower_while}


@lowering("pd_op.if", "pd_op.while", "cf.yield")
def _control_placeholder(b, op, ins):  # handled by run_ops; the entries make the missing-op check pass
    raise unsupported(op.type, " outside of its region")


def lower(program, params, where):
    missing = missing_ops(program)
    if missing:
        raise UnsupportedOpsError(missing, where)
    b = Builder(program, params)
    scope = _Scope(b)
    for vid, name in program.params.items():
        if name not in params:
            raise ModelFormatError(f"{where}: the params file has no tensor for parameter '{name}'")
        scope[vid] = b.param(vid, name)
    for vid, name, shape, dtype in program.feeds:
        scope[vid] = b.graph.placeholder(name if name.isidentifier() else b._attr_name(name))
    run_ops(b, scope, program.ops, where)
    results = []
    for vid, name in program.fetches:
        v = scope.get(vid)
        if v is None or v is _UNAVAILABLE:
            raise ModelFormatError(f"{where}: fetch '{name}' reads a value the program does not compute")
        results.append(_graph_value(b, v))
    b.graph.output(tuple(results))
    gm = fx.GraphModule(b.root, b.graph, class_name="PaddleProgram")
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm, b.param_attr
