"""A Program (either format) + its parameters -> one torch.fx GraphModule.

Placeholders are the feeds in order, the output is the tuple of fetches in order, the parameters
are buffers of the GraphModule.  Every op type is checked against the table before anything is
built, so a program with unsupported ops fails once, naming all of them.
"""
import torch
import torch.fx as fx

from .builder import Builder, Sym, torch_dtype
from .errors import ModelFormatError, UnsupportedOpsError
from .ops import TABLE
from .program import Literal


def lowering_for(op_type):
    fn = TABLE.get(op_type)
    if fn is None and op_type.endswith("_") and not op_type.endswith("__"):
        fn = TABLE.get(op_type[:-1])  # in-place twins (relu_, add_, ...) compute the same values
    return fn


def missing_ops(program):
    return sorted(t for t in program.op_types() if lowering_for(t) is None)


def lower(program, params, where):
    missing = missing_ops(program)
    if missing:
        raise UnsupportedOpsError(missing, where)
    b = Builder(program, params)
    for vid, name in program.params.items():
        if name not in params:
            raise ModelFormatError(f"{where}: the params file has no tensor for parameter '{name}'")
        b.env[vid] = b.param(vid, name)
    used = set()
    for vid, name, shape, dtype in program.feeds:
        node = b.graph.placeholder(b._attr_name(name) if name.isidentifier() is False else name)
        used.add(node.name)
        b.env[vid] = node
    for op in program.ops:
        ins = []
        for i in op.inputs:
            if i is None:
                ins.append(None)
            elif isinstance(i, Literal):  # an attribute the legacy reader turned into an input
                ins.append(torch.tensor(i.value, dtype=torch_dtype(i.dtype)) if i.dtype and i.value is not None
                           else i.value)
            elif i in b.env:
                v = b.env[i]
                if v is _UNAVAILABLE:
                    raise NotImplementedError(f"{where}: {op.type} reads an output that paddle_on_torch does not "
                                              "compute (a training-only statistic or mask)")
                ins.append(v)
            else:
                raise ModelFormatError(f"{where}: {op.type} reads value %{i}, which no earlier op defines")
        try:
            out = lowering_for(op.type)(b, op, ins)
        except (NotImplementedError, ModelFormatError):
            raise
        except Exception as e:  # noqa: BLE001 - name the op that could not be lowered
            raise RuntimeError(f"{where}: lowering {op.type} failed: {type(e).__name__}: {e}") from e
        if len(op.outputs) > 1:
            outs = out
        elif isinstance(out, list) and op.type != "builtin.combine":
            outs = out[:1]  # the op's first output; the lowering listed optional extras
        else:
            outs = [out]
        for vid, v in zip(op.outputs, outs):
            if vid is not None:
                b.env[vid] = _UNAVAILABLE if v is None else v
    results = []
    for vid, name in program.fetches:
        v = b.env.get(vid)
        if v is None or v is _UNAVAILABLE:
            raise ModelFormatError(f"{where}: fetch '{name}' reads a value the program does not compute")
        if isinstance(v, Sym):
            v = b._graph_arg(v)
        elif isinstance(v, torch.Tensor):
            v = b.const_node(v)
        results.append(v)
    b.graph.output(tuple(results))
    gm = fx.GraphModule(b.root, b.graph, class_name="PaddleProgram")
    gm.graph.eliminate_dead_code()
    gm.recompile()
    return gm, b.param_attr


_UNAVAILABLE = object()
