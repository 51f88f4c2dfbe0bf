"""Evaluate one assignment of placements to a captured graph's leaves (parameters, inputs, labels).

Every op's output placement, and the placements its inputs must be redistributed to, come from
DTensor's own sharding propagator: the rule DTensor applies when it runs the op, so the estimate
describes the program `Plan.apply` actually runs.  Ops DTensor has no strategy for fall back to the
planner's rules (rules.py).  The parameter gradients are redistributed to their parameter's
placements (the gradient synchronisation of data parallelism is the Partial -> Replicate there).
"""
import operator

import torch
from torch.distributed.tensor import DTensor, Replicate
from torch.distributed.tensor._dtensor_spec import DTensorSpec, TensorMeta
from torch.distributed.tensor._op_schema import OpSchema
from torch.utils._pytree import tree_flatten

from . import rules
from .cost import op_flops

__all__ = ["Evaluator", "Evaluation"]

# ops that only reinterpret their input: no compute, no memory traffic
_FREE = {"view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "detach", "alias", "squeeze",
         "unsqueeze", "slice", "select", "split", "split_with_sizes", "unbind", "as_strided", "clone_noop"}


def _local_bytes(val, placements, sizes):
    n = val.numel() * val.element_size()
    for d, p in enumerate(placements):
        if p.is_shard():
            n /= sizes[d]
    return n


class Evaluation:
    def __init__(self):
        self.placements = {}     # node -> placements (tuple), or a tuple of them for multi-output ops
        self.comms = []          # (node name, why, kind, mesh_dim, bytes, seconds)
        self.compute = 0.0
        self.comm = 0.0
        self.memory = 0.0
        self.param_memory = 0.0
        self.fallbacks = []      # nodes placed by the planner's own rules

    @property
    def time(self):
        return self.compute + self.comm


class Evaluator:
    def __init__(self, captured, device_mesh, mesh_cost, optimizer_states=2):
        self.cap, self.dm, self.mc = captured, device_mesh, mesh_cost
        self.prop = DTensor._op_dispatcher.sharding_propagator
        self.opt_states = optimizer_states
        self.nodes = [n for n in captured.graph.nodes]
        self._cache = {}  # (node, input placements) -> (out placements, [(arg idx, needed)], compute s, fallback)
        self._specs = {}
        self._flops = {}
        self._saved = [n for n in captured.forward if n.op != "output"
                       and any(u not in captured.forward for u in n.users)]
        self.replicate = tuple(Replicate() for _ in range(device_mesh.ndim))

    # ------------------------------------------------------------- specs
    def _spec(self, val, placements):
        key = (id(val), placements)
        s = self._specs.get(key)
        if s is None:
            s = DTensorSpec(self.dm, placements, TensorMeta(val.shape, val.stride(), val.dtype))
            self._specs[key] = (s, val)
            return s
        return s[0]

    def _tensor_args(self, node):
        """The tensor-valued input nodes of `node`, in the order OpSchema flattens them."""
        flat, _ = tree_flatten((node.args, node.kwargs))
        return [a for a in flat if isinstance(a, torch.fx.Node) and isinstance(a.meta.get("val"), torch.Tensor)]

    def _op(self, node, in_pl):
        key = (node, in_pl)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        it = iter(in_pl)

        def to_schema(a):
            if isinstance(a, torch.fx.Node):
                v = a.meta.get("val")
                return self._spec(v, next(it)) if isinstance(v, torch.Tensor) else v
            if isinstance(a, (list, tuple)):
                return type(a)(to_schema(x) for x in a)
            return a

        args = tuple(to_schema(a) for a in node.args)
        kwargs = {k: to_schema(v) for k, v in node.kwargs.items()}
        fallback = False
        try:
            info = self.prop.op_to_schema_info.get(node.target) or \
                self.prop.op_to_schema_info_for_single_dim_strategy.get(node.target)
            out = self.prop.propagate_op_sharding(OpSchema(node.target, args, kwargs, schema_info=info))
            out_pl = _placements_of(out.output_spec)
            need = in_pl
            if out.redistribute_schema is not None:
                need = tuple(s.placements for s in out.redistribute_schema.args_spec)
        except Exception:  # no DTensor strategy (or it refused these inputs): the planner's rules
            out_pl, need = rules.fallback(node, in_pl, self.replicate)
            fallback = True
        val = node.meta.get("val")
        first = out_pl[0] if out_pl and isinstance(out_pl[0], tuple) else out_pl
        secs = 0.0
        name = getattr(node.target, "__name__", "").split(".")[0]
        if name not in _FREE and first is not None:
            fl = self._flops.get(node)
            if fl is None:
                fl = self._flops[node] = op_flops(node)
            outv = val[0] if isinstance(val, (tuple, list)) else val
            nbytes = 0
            if isinstance(outv, torch.Tensor):
                nbytes = _local_bytes(outv, first, self.mc.sizes)
            for a, p in zip(self._tensor_args(node), need):
                nbytes += _local_bytes(a.meta["val"], p, self.mc.sizes)
            secs = self.mc.compute(fl / self.mc.split(first), nbytes)
        hit = self._cache[key] = (out_pl, need, secs, fallback)
        return hit

    # ------------------------------------------------------------- one assignment
    def evaluate(self, assignment, detail=False):
        """`assignment`: leaf name -> torch placements.  Returns an Evaluation."""
        ev = Evaluation()
        pl = ev.placements
        sizes = self.mc.sizes
        leaves = iter(self.cap.leaves)
        for node in self.nodes:
            if node.op == "placeholder":
                name, _ = next(leaves)
                pl[node] = assignment[name]
            elif node.op == "get_attr":
                pl[node] = self.replicate
            elif node.op == "call_function":
                if node.target is operator.getitem:
                    src = pl.get(node.args[0])
                    pl[node] = src[node.args[1]] if isinstance(src, (tuple, list)) and src and \
                        isinstance(src[0], tuple) else src
                    continue
                args = self._tensor_args(node)
                in_pl = tuple(pl[a] for a in args)
                out_pl, need, secs, fallback = self._op(node, in_pl)
                pl[node] = out_pl
                ev.compute += secs
                if fallback:
                    ev.fallbacks.append(node.name)
                if need is not in_pl:
                    for a, s, t in zip(args, in_pl, need):
                        if s != t:
                            self._reshard(ev, node.name, f"input {a.name}", a.meta["val"], s, t, detail)
        # gradient synchronisation: each gradient ends in its parameter's placements
        for gname, gnode in zip(self.cap.grads, self.cap.grad_nodes):
            s, t = pl[gnode], assignment[gname]
            if s != t:
                self._reshard(ev, gname, "gradient", gnode.meta["val"], s, t, detail)
        for (name, kind), node in zip(self.cap.leaves, self.cap.placeholders):
            if kind == "param":
                ev.param_memory += _local_bytes(node.meta["val"], pl[node], sizes) * (2 + self.opt_states)
        act = 0.0
        for node in self._saved:
            v, p = node.meta.get("val"), pl.get(node)
            if isinstance(v, torch.Tensor) and isinstance(p, tuple) and p and not isinstance(p[0], tuple):
                act += _local_bytes(v, p, sizes)
        ev.memory = ev.param_memory + act
        return ev

    def _reshard(self, ev, where, why, val, src, dst, detail):
        nbytes = val.numel() * val.element_size()
        for kind, dim, size, secs in self.mc.redistribute(nbytes, src, dst):
            ev.comm += secs
            if detail:
                ev.comms.append((where, why, kind, dim, size, secs))


def _placements_of(spec):
    if spec is None:
        return None
    if isinstance(spec, DTensorSpec):
        return tuple(spec.placements)
    return tuple(_placements_of(s) for s in spec)
