"""Evaluate one assignment of placements to a captured graph's leaves (parameters, inputs, labels).

Every op's output placement, and the placements its inputs must be redistributed to, come from
DTensor's own sharding propagator: the rule DTensor applies when it runs the op, so the estimate
describes the program `Plan.apply` actually runs.  Ops DTensor has no strategy for fall back to the
planner's rules (rules.py).  The parameter gradients are redistributed to their parameter's
placements (the gradient synchronisation of data parallelism is the Partial -> Replicate there).
A reshard point (points.py) takes the plan's choice for its activation, priced as the forward
redistribution and, at its backward twin, the one DTensor's Redistribute.backward performs.
"""
import operator

import torch
from torch.distributed.tensor import DTensor, Replicate
from torch.distributed.tensor._dtensor_spec import DTensorSpec, TensorMeta
from torch.distributed.tensor._op_schema import OpSchema
from torch.utils._pytree import tree_flatten

from . import points as _points
from . import rules
from .cost import op_flops, sharded

__all__ = ["Evaluator", "Evaluation"]

# ops that only reinterpret their input: no compute, no memory traffic
_FREE = {"view", "_unsafe_view", "reshape", "t", "transpose", "permute", "expand", "detach", "alias", "squeeze",
         "unsqueeze", "slice", "select", "split", "split_with_sizes", "unbind", "as_strided", "clone_noop"}


def _local_bytes(val, placements, sizes):
    n = val.numel() * val.element_size()
    for d, p in enumerate(placements):
        if sharded(p):
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
        # ops DTensor would run on a redistributed copy of an argument they update in place (BatchNorm's
        # running statistics): the update would be lost, so such a plan is invalid (counted, and named
        # in a detailed evaluation)
        self.lost_writes = 0
        self.lost = []

    @property
    def time(self):
        return self.compute + self.comm


class Evaluator:
    """Scores assignments quickly: placements are interned to small ints, and each op's outcome (its
    output placements, the redistributions of its inputs and their cost, its compute time) is cached
    by its inputs' placements, so an evaluation is one pass of dictionary look-ups."""

    def __init__(self, captured, device_mesh, mesh_cost, optimizer_states=2, dim_meshes=None):
        self.cap, self.dm, self.mc = captured, device_mesh, mesh_cost
        # per-dimension propagation (1-D meshes, one per mesh dimension), or None: DTensor on the whole mesh
        self.dims = dim_meshes
        self._dim_cache = {}
        self.prop = DTensor._op_dispatcher.sharding_propagator
        self.opt_states = optimizer_states
        self.replicate = tuple(Replicate() for _ in range(device_mesh.ndim))
        self._ids, self._pls = {}, []
        self._cache = {}
        self._specs = {}
        nodes = list(captured.graph.nodes)
        index = {n: i for i, n in enumerate(nodes)}
        self.nodes, self.index = nodes, index
        self._steps = []  # (node index, kind, [input node indices])
        leaf = 0
        self._leaf_of = {}
        self._point_fwd = {}  # point id -> its forward node's index
        for i, n in enumerate(nodes):
            if n.op == "call_function" and n.target in (_points.POINT, _points.POINT_BWD):
                pid = n.args[1]
                if n.target is _points.POINT:
                    self._point_fwd[pid] = i
                    self._steps.append((i, "point", (index[n.args[0]], ("point", captured.points[pid]))))
                else:
                    self._steps.append((i, "point_bwd", (index[n.args[0]], pid)))
            elif n.op == "placeholder":
                self._leaf_of[i] = captured.leaves[leaf][0]
                leaf += 1
                self._steps.append((i, "leaf", ()))
            elif n.op == "get_attr":
                self._steps.append((i, "const", ()))
            elif n.op == "call_function" and n.target is operator.getitem:
                self._steps.append((i, "getitem", (index[n.args[0]], n.args[1])))
            elif n.op == "call_function":
                self._steps.append((i, "op", tuple(index[a] for a in self._tensor_args(n))))
        self._steps_in = {i: a[0] for i, kind, a in self._steps if kind == "point"}
        self._struct_ids, self._seg_memo = {}, {}
        self._grads = [(g, index[gn]) for g, gn in zip(captured.grads, captured.grad_nodes)]
        self._params = [(index[n], n.meta["val"]) for (_, k), n in zip(captured.leaves, captured.placeholders)
                        if k == "param"]
        self._saved = [index[n] for n in captured.forward if n.op != "output"
                       and any(u not in captured.forward for u in n.users)
                       and isinstance(n.meta.get("val"), torch.Tensor)]
        self._bytes = {}
        self._rcost = {}
        # ops that look alike (same target, argument shapes and constants: the repeated blocks of a
        # deep model) share their cached outcome
        self._sig = {i: (self.nodes[i].target, _signature(self.nodes[i].args), _signature(self.nodes[i].kwargs))
                     for i, kind, _ in self._steps if kind == "op"}
        self._units = self._segments()

    def _resolve(self, p):
        return self._pls[p] if isinstance(p, int) else tuple(None if q is None else self._resolve(q) for q in p)

    def pid(self, placements):
        i = self._ids.get(placements)
        if i is None:
            i = self._ids[placements] = len(self._pls)
            self._pls.append(placements)
        return i

    def _intern(self, out):
        if out is None:
            return None
        if out and hasattr(out[0], "is_shard"):
            return self.pid(out)
        return tuple(self._intern(o) for o in out)

    # ------------------------------------------------------------- specs
    def _spec(self, val, placements, dm):
        key = (id(val), placements, id(dm))
        s = self._specs.get(key)
        if s is None:
            s = DTensorSpec(dm, placements, TensorMeta(val.shape, val.stride(), val.dtype))
            self._specs[key] = (s, val)
            return s
        return s[0]

    def _tensor_args(self, node):
        """The tensor-valued input nodes of `node`, in the order OpSchema flattens them."""
        flat, _ = tree_flatten((node.args, node.kwargs))
        return [a for a in flat if isinstance(a, torch.fx.Node) and isinstance(a.meta.get("val"), torch.Tensor)]

    def local_bytes(self, i, p):
        key = (i, p)
        b = self._bytes.get(key)
        if b is None:
            b = self._bytes[key] = _local_bytes(self.nodes[i].meta["val"], self._pls[p], self.mc.sizes)
        return b

    def _redistribution(self, where, why, val, src, dst):
        """[(where, why, kind, mesh dim, bytes, seconds)] and their total time, for src -> dst (pids)."""
        steps = self.mc.redistribute(val.numel() * val.element_size(), self._pls[src], self._pls[dst])
        return [(where, why) + st for st in steps], sum(st[3] for st in steps)

    def _propagate(self, node, in_pl, dm, replicate):
        """(output placements, the placements each tensor input must have, placed by our rules?) on `dm`.
        Memoised for the process (DTensor's answer depends only on the op, its arguments' shapes and
        constants, the input placements and the mesh): planning the same model again (another
        objective, a hand-marked plan to compare with) reuses it; on 3-D meshes one answer can cost
        DTensor a third of a second."""
        key = (self._sig[self.index[node]], in_pl, _mesh_key(dm))
        hit = _PROPAGATED.get(key)
        if hit is None:
            if len(_PROPAGATED) > 200_000:
                _PROPAGATED.clear()
            hit = _PROPAGATED[key] = self._propagate_uncached(node, in_pl, dm, replicate)
        return hit

    def _propagate_uncached(self, node, in_pl, dm, replicate):
        it = iter(in_pl)

        def to_schema(a):
            if isinstance(a, torch.fx.Node):
                v = a.meta.get("val")
                return self._spec(v, next(it), dm) if isinstance(v, torch.Tensor) else v
            if isinstance(a, (list, tuple)):
                return type(a)(to_schema(x) for x in a)
            return a

        args = tuple(to_schema(a) for a in node.args)
        kwargs = {k: to_schema(v) for k, v in node.kwargs.items()}
        try:
            info = self.prop.op_to_schema_info.get(node.target) or \
                self.prop.op_to_schema_info_for_single_dim_strategy.get(node.target)
            out = self.prop.propagate_op_sharding(OpSchema(node.target, args, kwargs, schema_info=info))
            need = in_pl
            if out.redistribute_schema is not None:
                need = tuple(s.placements for s in out.redistribute_schema.args_spec)
            return _placements_of(out.output_spec), need, False
        except Exception:  # no DTensor strategy (or it refused these inputs): the planner's rules
            out_pl, need = rules.fallback(node, in_pl, replicate)
            return out_pl, need, True

    def _propagate_per_dim(self, i, node, in_pl):
        """Each mesh dimension propagated alone on a 1-D mesh of its size, the results put side by side."""
        outs, needs, fallback = [], [], False
        for d, dm1 in enumerate(self.dims):
            one = tuple((p[d],) for p in in_pl)
            key = (self._sig[i], dm1.size(), one)
            hit = self._dim_cache.get(key)
            if hit is None:
                hit = self._dim_cache[key] = self._propagate(node, one, dm1, (Replicate(),))
            outs.append(hit[0])
            needs.append(hit[1])
            fallback = fallback or hit[2]
        if fallback:  # one dimension had no rule: the whole op falls back
            return rules.fallback(node, in_pl, self.replicate) + (True,)

        def join(parts):
            if parts[0] is None:
                return None
            if hasattr(parts[0][0], "is_shard"):
                return tuple(p[0] for p in parts)
            return tuple(join([p[k] for p in parts]) for k in range(len(parts[0])))

        need = tuple(tuple(n[k][0] for n in needs) for k in range(len(in_pl)))
        return join(outs), need, False

    def _op(self, i, in_ids):
        node = self.nodes[i]
        in_pl = tuple(self._pls[p] for p in in_ids)
        if self.dims is None:
            out_pl, need, fallback = self._propagate(node, in_pl, self.dm, self.replicate)
        else:
            out_pl, need, fallback = self._propagate_per_dim(i, node, in_pl)
        val = node.meta.get("val")
        first = out_pl
        if out_pl and not hasattr(out_pl[0], "is_shard"):  # several outputs: the first tensor's
            first = next((o for o in out_pl if o), None)
        secs = 0.0
        name = getattr(node.target, "__name__", "").split(".")[0]
        targs = self._tensor_args(node)
        if name not in _FREE and first is not None:
            outv = next((v for v in val if isinstance(v, torch.Tensor)), None) if isinstance(val, (tuple, list)) \
                else val
            nbytes = _local_bytes(outv, first, self.mc.sizes) if isinstance(outv, torch.Tensor) else 0
            for a, p in zip(targs, need):
                nbytes += _local_bytes(a.meta["val"], p, self.mc.sizes)
            secs = self.mc.compute(op_flops(node) / self.mc.split(first), nbytes)
        moves, comm = [], 0.0
        written = rules.written_args(node)
        lost = 0
        for k, (a, s, t, src) in enumerate(zip(targs, in_pl, need, in_ids)):
            if s != t:
                dst = self.pid(tuple(t))
                comm += self._redistribution("", "", a.meta["val"], src, dst)[1]
                moves.append((k, src, dst))
                lost += k in written
        return self._intern(out_pl), secs, comm, moves, fallback, lost

    # ------------------------------------------------------------- one assignment
    def _segments(self):
        """The steps cut into segments after every reshard point (forward and backward), each with a
        structural key -- the same for the same ops wired the same way, as in every repeated block --
        and the nodes before it that it reads.  A segment whose key, inputs' placements and
        activation choices were seen before is not walked again: its placements and costs are
        copied (the cache per repeated block)."""
        units, cur = [], []

        def close():
            if not cur:
                return
            lo, hi = cur[0][0], cur[-1][0]
            ok = hi - lo + 1 == len(cur) and all(k not in ("leaf", "const") for _, k, _ in cur)
            if not ok:
                units.extend(("step", st) for st in cur)
            else:
                ext, struct, names = [], [], []

                def ref(j):
                    if j >= lo:
                        return j - lo
                    if j not in ext:
                        ext.append(j)
                    return ("x", ext.index(j))
                for i, kind, args in cur:
                    if kind == "op":
                        struct.append((kind, self._sig[i], tuple(ref(j) for j in args)))
                    elif kind == "getitem":
                        struct.append((kind, ref(args[0]), args[1]))
                    elif kind == "point":
                        struct.append((kind, ref(args[0])))
                        names.append(args[1])
                    else:  # point_bwd: reads its forward point's input and output too
                        f = self._point_fwd[args[1]]
                        struct.append((kind, ref(args[0]), ref(self._steps_in[f]), ref(f)))
                sid = self._struct_ids.setdefault(tuple(struct), len(self._struct_ids))
                units.append(("seg", sid, lo, hi + 1, tuple(ext), tuple(names), list(cur)))
            cur.clear()

        for st in self._steps:
            if st[1] in ("leaf", "const"):
                close()
                units.append(("step", st))
                continue
            cur.append(st)
            if st[1] in ("point", "point_bwd"):
                close()
        close()
        return units

    def evaluate(self, assignment, detail=False):
        """`assignment`: leaf name -> torch placements.  Returns an Evaluation."""
        ev = Evaluation()
        pl = [None] * len(self.nodes)
        compute = comm = 0.0
        if detail:
            compute, comm, lost = self._run(self._steps, pl, assignment, ev, True)
        else:
            lost = 0
            memo = self._seg_memo
            for u in self._units:
                if u[0] == "step":
                    c, m, w = self._run((u[1],), pl, assignment, ev, False)
                else:
                    _, sid, lo, hi, ext, names, steps = u
                    key = (sid, tuple([pl[j] for j in ext]), tuple([assignment.get(n) for n in names]))
                    hit = memo.get(key)
                    if hit is None:
                        c, m, w = self._run(steps, pl, assignment, ev, False)
                        hit = memo[key] = (pl[lo:hi], c, m, w)
                    else:
                        pl[lo:hi] = hit[0]
                    c, m, w = hit[1], hit[2], hit[3]
                compute += c
                comm += m
                lost += w
        ev.lost_writes = lost
        return self._finish(ev, pl, assignment, compute, comm, detail)

    def _run(self, steps, pl, assignment, ev, detail):
        """Walk `steps`, filling `pl`; returns their (compute, communication) seconds."""
        cache = self._cache
        compute = comm = 0.0
        lost = 0
        rep = self.pid(self.replicate)
        for i, kind, args in steps:
            if kind == "op":
                key = (self._sig[i], tuple(pl[j] for j in args))
                hit = cache.get(key)
                if hit is None:
                    hit = cache[key] = self._op(i, key[1])
                pl[i] = hit[0]
                compute += hit[1]
                comm += hit[2]
                lost += hit[5]
                if detail:
                    node = self.nodes[i]
                    for k, src, dst in hit[3]:
                        a = self.nodes[args[k]]
                        ev.comms += self._redistribution(node.name, f"input {a.name}", a.meta["val"], src, dst)[0]
                    if hit[4]:
                        ev.fallbacks.append(node.name)
                    if hit[5]:
                        ev.lost.append(node.name)
            elif kind == "point":  # an activation variable: DTensor's placements, or the plan's choice
                src = pl[args[0]]
                choice = assignment.get(args[1])
                if choice is None:
                    pl[i] = src
                else:
                    key = ("point", args[0], src, choice)
                    hit = self._rcost.get(key)
                    if hit is None:
                        dst = self.pid(_points.target(self._pls[src], choice))
                        hit = self._rcost[key] = (dst,) + (self._redistribution(
                            self.nodes[i].name, f"activation {args[1][1]}", self.nodes[args[0]].meta["val"], src,
                            dst) if dst != src else ([], 0.0))
                    pl[i] = hit[0]
                    comm += hit[2]
                    if detail:
                        ev.comms += hit[1]
            elif kind == "point_bwd":  # its gradient goes back to the placements the forward started from
                f = self._point_fwd[args[1]]
                src, fsrc, fdst = pl[args[0]], pl[self._steps_in[f]], pl[f]
                if fsrc == fdst:
                    pl[i] = src
                else:
                    key = ("point_bwd", args[0], src, fsrc)
                    hit = self._rcost.get(key)
                    if hit is None:
                        dst = self.pid(_points.backward_target(self._pls[fsrc], self._pls[src]))
                        hit = self._rcost[key] = (dst,) + (self._redistribution(
                            self.nodes[i].name, "activation gradient", self.nodes[args[0]].meta["val"], src, dst)
                            if dst != src else ([], 0.0))
                    pl[i] = hit[0]
                    comm += hit[2]
                    if detail:
                        ev.comms += hit[1]
            elif kind == "getitem":
                src = pl[args[0]]
                pl[i] = src[args[1]] if isinstance(src, tuple) else src
            elif kind == "leaf":
                pl[i] = self.pid(assignment[self._leaf_of[i]])
            else:
                pl[i] = rep
        return compute, comm, lost

    def _finish(self, ev, pl, assignment, compute, comm, detail):
        # gradient synchronisation: each gradient ends in its parameter's placements
        for gname, gi in self._grads:
            s, t = pl[gi], self.pid(assignment[gname])
            if s != t:
                key = ("grad", gi, s, t)
                hit = self._rcost.get(key)
                if hit is None:
                    hit = self._rcost[key] = self._redistribution(gname, "gradient", self.nodes[gi].meta["val"], s, t)
                comm += hit[1]
                if detail:
                    ev.comms += hit[0]
        ev.compute, ev.comm = compute, comm
        ev.param_memory = sum(self.local_bytes(i, pl[i]) for i, _ in self._params) * (2 + self.opt_states)
        ev.memory = ev.param_memory + sum(self.local_bytes(i, pl[i]) for i in self._saved
                                          if isinstance(pl[i], int))
        if detail:
            ev.placements = {self.nodes[i]: self._resolve(p) for i, p in enumerate(pl) if p is not None}
        return ev


_PROPAGATED = {}


def _mesh_key(dm):
    k = getattr(dm, "_planner_key", None)
    if k is None:
        k = (tuple(dm.mesh.shape), tuple(dm.mesh.flatten().tolist()))
        try:
            dm._planner_key = k
        except Exception:  # noqa: BLE001 -- a mesh that takes no attributes is keyed each time
            pass
    return k


def _signature(a):
    if isinstance(a, torch.fx.Node):
        v = a.meta.get("val")
        if isinstance(v, torch.Tensor):
            return ("T", tuple(v.shape), tuple(v.stride()), v.dtype)
        return ("V", repr(v))
    if isinstance(a, (list, tuple)):
        return tuple(_signature(x) for x in a)
    if isinstance(a, dict):
        return tuple((k, _signature(v)) for k, v in a.items())
    return a if isinstance(a, (int, float, bool, str, type(None), torch.dtype)) else repr(a)


def _placements_of(spec):
    if spec is None:
        return None
    if isinstance(spec, DTensorSpec):
        return tuple(spec.placements)
    return tuple(_placements_of(s) for s in spec)
