"""Building the torch.fx graph of a program: values, constant folding and shape arithmetic.

A value in the lowering environment is one of
  fx.Node        a tensor computed at run time;
  torch.Tensor   a constant known at load time (full, full_int_array, arange of constants ...);
                 it becomes a buffer of the GraphModule only when a run-time op consumes it;
  Sym            a small int vector (or scalar) whose elements are ints or fx nodes giving sizes:
                 what shape64 / slice / stack on shapes compute.  Keeping shapes symbolic lets
                 reshape and friends take Python ints and SymInts, so the graph stays traceable by
                 torch.compile and torch.export with a dynamic batch;
  list           a vector value (builtin.combine, split_with_num, rnn states);
  None           an absent optional input.
`Builder.call(fn, ...)` runs fn at once when no argument depends on run-time data (constant
folding) and adds a call_function node otherwise.
"""
import operator
import re

import torch
import torch.fx as fx

DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
          "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
          "bool": torch.bool, "complex64": torch.complex64, "complex128": torch.complex128}


def torch_dtype(name):
    if name is None or isinstance(name, torch.dtype):
        return name
    if isinstance(name, int):  # a legacy VarType code (framework.proto)
        return {0: torch.bool, 1: torch.int16, 2: torch.int32, 3: torch.int64, 4: torch.float16, 5: torch.float32,
                6: torch.float64, 20: torch.uint8, 21: torch.int8, 22: torch.bfloat16}.get(name)
    return DTYPES.get(str(name).lower().replace("paddle.", ""))


class Sym:
    """A shape-like int vector (or scalar when `scalar`) with int / fx.Node elements."""
    __slots__ = ("elems", "dtype", "scalar")

    def __init__(self, elems, dtype=torch.int64, scalar=False):
        self.elems, self.dtype, self.scalar = list(elems), dtype, scalar

    def static(self):
        return all(isinstance(e, int) for e in self.elems)

    def __repr__(self):
        return f"Sym({self.elems}{', scalar' if self.scalar else ''})"


def _sym_tensor(elems, dtype, scalar):
    t = torch.stack([torch.as_tensor(e, dtype=dtype) for e in elems]) if elems else torch.zeros([0], dtype=dtype)
    return t.reshape([]) if scalar else t


def _tolist(t):
    return [int(v) for v in t.reshape([-1]).tolist()]


def _item(t):
    return t.item()


class Builder:
    def __init__(self, program, params):
        self.program = program
        self.root = torch.nn.Module()
        self.graph = fx.Graph()
        self.env = {}
        self._consts = {}
        self._param_nodes = {}
        self.param_attr = {}  # Paddle parameter name -> attribute name on the GraphModule
        self._params = params

    # ------------------------------------------------------------- names
    def _attr_name(self, name):
        base = re.sub(r"\W", "_", name)
        if not base or base[0].isdigit():
            base = "p_" + base
        n, i = base, 1
        while hasattr(self.root, n):
            n, i = f"{base}_{i}", i + 1
        return n

    # ------------------------------------------------------------- values
    def param(self, vid, name):
        node = self._param_nodes.get(name)
        if node is None:
            attr = self._attr_name(name)
            self.root.register_buffer(attr, self._params[name])
            self.param_attr[name] = attr
            node = self._param_nodes[name] = self.graph.get_attr(attr)
        return node

    def const_node(self, t):
        key = id(t)
        hit = self._consts.get(key)
        if hit is not None:
            return hit[1]
        attr = self._attr_name(f"_const_{len(self._consts)}")
        self.root.register_buffer(attr, t.detach().clone())
        node = self.graph.get_attr(attr)
        self._consts[key] = (t, node)  # keep t alive so its id is not reused
        return node

    def is_dynamic(self, v):
        if isinstance(v, fx.Node):
            return True
        if isinstance(v, Sym):
            return not v.static()
        if isinstance(v, (list, tuple)):
            return any(self.is_dynamic(x) for x in v)
        if isinstance(v, dict):
            return any(self.is_dynamic(x) for x in v.values())
        return False

    def _static_arg(self, v):
        if isinstance(v, Sym):
            return _sym_tensor(v.elems, v.dtype, v.scalar)
        if isinstance(v, (list, tuple)):
            return type(v)(self._static_arg(x) for x in v)
        if isinstance(v, dict):
            return {k: self._static_arg(x) for k, x in v.items()}
        return v

    def _graph_arg(self, v):
        if isinstance(v, Sym):
            if v.static():
                return self.const_node(_sym_tensor(v.elems, v.dtype, v.scalar))
            return self.graph.call_function(_sym_tensor, (list(v.elems), v.dtype, v.scalar))
        if isinstance(v, torch.Tensor):
            return self.const_node(v)
        if isinstance(v, list):
            return [self._graph_arg(x) for x in v]
        if isinstance(v, tuple):
            return tuple(self._graph_arg(x) for x in v)
        if isinstance(v, dict):
            return {k: self._graph_arg(x) for k, x in v.items()}
        return v

    def call(self, fn, *args, **kwargs):
        """fn(*args, **kwargs) now when nothing depends on run-time data, else a graph node."""
        if not self.is_dynamic(args) and not self.is_dynamic(kwargs):
            with torch.no_grad():
                return fn(*self._static_arg(args), **self._static_arg(kwargs))
        return self.graph.call_function(fn, self._graph_arg(args), self._graph_arg(kwargs))

    def item(self, v, i):
        """Element i of a multi-output result (a tuple now, or a node)."""
        if isinstance(v, fx.Node):
            return self.graph.call_function(operator.getitem, (v, i))
        return v[i]

    def tensor(self, v):
        """v as something a torch op takes: a node, or a constant tensor."""
        if isinstance(v, Sym):
            return self._graph_arg(v) if not v.static() else _sym_tensor(v.elems, v.dtype, v.scalar)
        return v

    def ints(self, v):
        """An int-vector value as a list of ints / size nodes (for reshape, expand, slice ...)."""
        if v is None:
            return None
        if isinstance(v, Sym):
            return list(v.elems)
        if isinstance(v, torch.Tensor):
            return [int(x) for x in v.reshape([-1]).tolist()]
        if isinstance(v, (list, tuple)):  # a vector of scalars (combine of full / shape slices)
            out = []
            for x in v:
                out.extend(self.ints(x))
            return out
        if isinstance(v, fx.Node):
            return self.graph.call_function(_tolist, (v,))
        if isinstance(v, (int, float)):
            return [int(v)]
        raise TypeError(f"expected an int vector, got {type(v).__name__}")

    def scalar(self, v):
        """A 0-D / one-element value as a Python number (or a node giving one at run time)."""
        if isinstance(v, Sym):
            return v.elems[0]
        if isinstance(v, torch.Tensor):
            return v.reshape([-1])[0].item()
        if isinstance(v, fx.Node):
            return self.graph.call_function(_item, (v,))
        return v

    def size(self, x, i, vid=None):
        """Dimension i of tensor value x: an int when the program's type knows it, else a size node."""
        if isinstance(x, torch.Tensor):
            return int(x.shape[i])
        t = self.program.types.get(vid) if vid is not None else None
        if isinstance(t, tuple) and t[1] and -len(t[1]) <= i < len(t[1]) and t[1][i] >= 0:
            return int(t[1][i])
        return self.graph.call_method("size", (x, i))

    def rank(self, vid, x=None):
        if isinstance(x, torch.Tensor):
            return x.dim()
        t = self.program.types.get(vid)
        if isinstance(t, tuple):
            return len(t[1])
        return None

    def sym_binary(self, a, b, op):
        """Elementwise int arithmetic on shape values, kept symbolic."""
        ea = a.elems if isinstance(a, Sym) else [int(x) for x in a.reshape([-1]).tolist()] \
            if isinstance(a, torch.Tensor) else [a]
        eb = b.elems if isinstance(b, Sym) else [int(x) for x in b.reshape([-1]).tolist()] \
            if isinstance(b, torch.Tensor) else [b]
        n = max(len(ea), len(eb))
        ea, eb = (ea * n if len(ea) == 1 else ea), (eb * n if len(eb) == 1 else eb)
        out = []
        for x, y in zip(ea, eb):
            if isinstance(x, int) and isinstance(y, int):
                out.append(op(x, y))
            else:
                out.append(self.graph.call_function(op, (x, y)))
        scalar = all((v.scalar if isinstance(v, Sym) else (v.dim() == 0 if isinstance(v, torch.Tensor) else True))
                     for v in (a, b))
        dtype = a.dtype if isinstance(a, Sym) else b.dtype
        return Sym(out, dtype, scalar)
