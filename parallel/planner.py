"""`plan()`: capture, evaluate, solve, and the Plan it returns (explain, apply, save, load)."""
import contextlib
import json
import time

import numpy as np
import torch
import torch.distributed as tdist

from torch.distributed.tensor import Shard

from ..distributed.auto_parallel import placement_type as _pt
from ..distributed.auto_parallel.process_mesh import ProcessMesh, _CoreProcessMesh
from . import rules
from .capture import capture
from .cost import MeshCost, Topology, parse_bytes, sharded
from .propagate import Evaluator
from .points import POINT, install
from .solver import Problem, clock, domain, group_key, point_domain, polish, simplify, solve

__all__ = ["plan", "Plan"]

_OBJECTIVES = ("time", "communication", "memory")


@contextlib.contextmanager
def _planning_mesh(mesh):
    """A torch DeviceMesh of `mesh`'s shape for sharding propagation.  Inside a job whose world holds
    the mesh, the job's own process group serves; otherwise a fake process group (no processes, no
    communication) with the mesh's world size is set up for the planning and torn down after."""
    from torch.distributed.device_mesh import DeviceMesh

    from ..distributed.auto_parallel import op_rules

    op_rules.register()  # the rules a job's DTensors will use (the shim's custom ops, CPU flash attention)
    ids = torch.tensor(np.asarray(mesh.mesh), dtype=torch.int64)
    world = int(ids.max()) + 1
    own = not tdist.is_initialized()
    if not own and tdist.get_world_size() < world:
        raise ValueError(f"paddle_on_torch.parallel.plan: the mesh {mesh.shape} needs {world} processes but this "
                         f"job has {tdist.get_world_size()}; plan it outside a distributed job (a fake process "
                         "group is used there)")
    if own:
        from torch.testing._internal.distributed.fake_pg import FakeStore

        tdist.init_process_group("fake", store=FakeStore(), rank=0, world_size=world)
    try:
        one_d = {n: DeviceMesh("cpu", torch.arange(n), _init_backend=False) for n in set(ids.shape)}
        yield DeviceMesh("cpu", ids, _init_backend=False), [one_d[n] for n in ids.shape]
    finally:
        # DTensor's propagation cache now holds answers on these group-less meshes, which compare
        # equal to the job's own mesh of the same ranks: a later op of the job would take the
        # planning mesh from there and fail to communicate (seen with BatchNorm)
        from torch.distributed.tensor import DTensor

        DTensor._op_dispatcher.sharding_propagator.propagate_op_sharding.cache_clear()
        if own:
            tdist.destroy_process_group()


def _pl_str(pl):
    out = []
    for p in pl:  # "*": an activation that follows DTensor's propagation on that mesh dimension
        out.append("*" if p is None else f"S({p.dim})" if p.is_shard() else "P" if p.is_partial() else
                   f"SS({p.dim}, {p.split_factor})" if sharded(p) else "R")
    return "[" + ", ".join(out) + "]"


def _pl_parse(s):
    from torch.distributed.tensor import Partial, Replicate, Shard

    out = []
    for tok in s.strip("[]").split(","):
        tok = tok.strip()
        out.append(Shard(int(tok[2:-1])) if tok.startswith("S(") else Partial() if tok == "P" else
                   None if tok == "*" else Replicate())
    return tuple(out)


def _marks_to_torch(marks, mesh, leaves, shapes):
    names = {n for n, _ in leaves}
    out = {}
    for key, placements in (marks or {}).items():
        name = f"input{key}" if isinstance(key, int) and not isinstance(key, bool) else key
        if name not in names:
            raise ValueError(f"paddle_on_torch.parallel.plan: marks names {key!r}, which is neither a trainable "
                             f"parameter of the layer nor an input (known: {sorted(names)[:8]}...)")
        ndim = len(shapes[[n for n, _ in leaves].index(name)])
        out[name] = tuple(_pt.to_torch_placements(_pt.check_placements(mesh, placements, ndim), ndim))
    return out


def _placed_already(layer, mesh, marks):
    """Marks for the parameters and state the user already made distributed (`shard_tensor`): the
    plan keeps them as they are (Plan.apply leaves distributed tensors alone)."""
    from ..distributed.auto_parallel.api import is_dist_tensor, process_mesh_of

    out = {}
    for name, t in list(layer.named_parameters()) + list(layer.named_buffers()):
        if not is_dist_tensor(t):
            continue
        if process_mesh_of(t) != mesh._as_process_mesh():
            raise ValueError(f"paddle_on_torch.parallel.plan: {name} is distributed on {process_mesh_of(t)}, not on "
                             f"the mesh being planned ({mesh}); the planner places tensors on one mesh")
        pl = tuple(t._t.placements)
        if name in marks and tuple(marks[name]) != pl:
            raise ValueError(f"paddle_on_torch.parallel.plan: marks gives {name} other placements than the ones it "
                             "already has")
        out[name] = pl
    return out


def plan(layer, example_inputs, mesh, marks=None, objective="time", memory_limit=None, topology=None,
         labels=(), loss_fn=None, optimizer_states=2, tie=True, solver="auto", time_budget=45.0,
         exact_limit=4096, propagation="auto", activations=True, starts=()):
    """Plan the placements of every parameter (and unmarked input) of `layer` on `mesh`.

    `marks`: {parameter name or input index: Paddle placements} -- hard constraints (an input that is
    not marked is planned too).  `objective`: "time" (estimated step time: compute + communication),
    "communication" or "memory".  `memory_limit`: bytes per rank (or "16GB"), parameters + gradients
    + `optimizer_states` copies (2 for Adam) + activations saved for the backward.  `topology`: a
    Topology.  The step is the layer on `example_inputs`, then `loss_fn(output, *labels)` (default
    the mean of the output), then the backward.  `solver`: "auto" (exact when the search space has at
    most `exact_limit` points), "exact" or "search"; `time_budget`: CPU seconds for the whole call
    (the search stops when it is spent and keeps the best plan found).  `tie`: parameters whose names differ
    only in layer indices share one choice.  `propagation`: "dtensor" (DTensor's propagator on the
    whole mesh: what runs), "per_dim" (each mesh dimension on its own 1-D mesh, side by side: much
    faster on 3-D meshes, an approximation of DTensor's choice, used for the search only: the chosen
    plan's figures are then computed by DTensor's propagation) or "auto" (per_dim from 3 mesh dims).
    `activations`: also choose the placements of the outputs of Linear layers and of the blocks of a
    LayerList/Sequential (reshard points: "follow" DTensor's propagation, or redistribute there, e.g.
    sequence parallelism); False plans the parameters and inputs only.  `starts`: candidate plans ({parameter
    name: placements}, e.g. a hand-written one; names left out are Replicate) scored first and descended from,
    so the plan is never worse than any of them by the estimate (an exact solve is optimal anyway).
    """
    if propagation not in ("auto", "dtensor", "per_dim"):
        raise ValueError(f"paddle_on_torch.parallel.plan: propagation must be 'auto', 'dtensor' or 'per_dim', "
                         f"got {propagation!r}")
    if not isinstance(mesh, _CoreProcessMesh):
        raise TypeError(f"paddle_on_torch.parallel.plan: mesh must be a paddle.distributed.ProcessMesh, "
                        f"got {type(mesh).__name__}")
    if objective not in _OBJECTIVES:
        raise ValueError(f"paddle_on_torch.parallel.plan: objective must be one of {_OBJECTIVES}, got {objective!r}")
    topology = topology or Topology()
    if not isinstance(topology, Topology):
        raise TypeError("paddle_on_torch.parallel.plan: topology must be a paddle_on_torch.parallel.Topology")
    limit = parse_bytes(memory_limit)
    if not isinstance(example_inputs, (list, tuple)):
        example_inputs = [example_inputs]
    if tdist.is_initialized() and tdist.get_world_size() > 1 and tdist.get_backend() != "fake":
        # inside a job: rank 0 plans and every rank takes its plan (a search cut by the time budget
        # could otherwise end differently on different ranks)
        box = [None]
        if tdist.get_rank() == 0:
            box[0] = _plan(layer, example_inputs, mesh, marks, objective, limit, topology, labels, loss_fn,
                           optimizer_states, tie, solver, time_budget, exact_limit, propagation,
                           activations).to_dict()
        tdist.broadcast_object_list(box, src=0)
        return Plan.from_dict(box[0])
    return _plan(layer, example_inputs, mesh, marks, objective, limit, topology, labels, loss_fn, optimizer_states,
                 tie, solver, time_budget, exact_limit, propagation, activations, starts)


def _seed(start, mesh, cap, variables):
    """A candidate plan ({name: Paddle placements}) as a choice of every variable: a variable whose first
    name it places gets that placement (it must be in the variable's domain), every other one its first
    option (Replicate; an activation follows)."""
    given = _marks_to_torch(start, mesh, cap.leaves, cap.shapes)
    choice = []
    for names, dom in variables:
        pl = given.get(names[0])
        if pl is None:
            choice.append(dom[0])
        elif pl in dom:
            choice.append(pl)
        else:
            raise ValueError(f"paddle_on_torch.parallel.plan: starts places {names[0]} as {list(pl)}, which is "
                             f"not among its planned placements (uneven, or tied to {names[1:]})")
    return choice


def _plan(layer, example_inputs, mesh, marks, objective, limit, topology, labels, loss_fn, optimizer_states, tie,
          solver, time_budget, exact_limit, propagation, activations=True, starts=()):
    t0, w0 = clock(), time.monotonic()
    cap = capture(layer, list(example_inputs), list(labels), loss_fn, points=activations)
    t_capture = clock() - t0
    fixed = _marks_to_torch(marks, mesh, cap.leaves, cap.shapes)
    fixed.update(_placed_already(layer, mesh, fixed))
    with _planning_mesh(mesh) as (dm, dims):
        mc = MeshCost(mesh.mesh, topology)
        per_dim = propagation == "per_dim" or (propagation == "auto" and len(mesh.shape) >= 3)
        ev = Evaluator(cap, dm, mc, optimizer_states, dims if per_dim else None)
        groups = {}
        for (name, kind), shape in zip(cap.leaves, cap.shapes):
            if name not in fixed:
                groups.setdefault(group_key(name, shape, tie) + (kind,), []).append(name)
        variables = [(names, domain(key[1], mc.sizes)) for key, names in groups.items()]
        vshapes = [key[1] for key in groups]
        sizes = [len(names) * int(np.prod(key[1])) for key, names in groups.items()]
        # activation variables: one per reshard point name (tied like parameters), after the leaves
        pgroups = {}
        for n in cap.graph.nodes:
            if n.op == "call_function" and n.target is POINT:
                name, shape = cap.points[n.args[1]], tuple(n.meta["val"].shape)
                names = pgroups.setdefault(group_key(name + ".out", shape, tie), [])
                if ("point", name) not in names:
                    names.append(("point", name))
        n_leaf_vars = len(variables)
        for key, names in pgroups.items():
            dom = point_domain(key[1], mc.sizes)
            if len(dom) > 1:
                variables.append((names, dom))
                sizes.append(len(names) * int(np.prod(key[1])))
        layers = _layer_groups(cap, variables)
        problem = Problem(ev, fixed, variables, objective, limit, sizes, layers)
        problem.starts = _templates(variables, vshapes, layers, fixed, mc.sizes)
        problem.seeds = [_seed(st, mesh, cap, variables) for st in starts]
        # the budget covers the whole call: capture, search, and the alternatives shown by explain()
        deadline = t0 + time_budget
        phases = {"capture": t_capture}  # CPU seconds per stage, for the solver record
        quick_cut = False
        if per_dim:
            # the fast per-dimension search gets up to half of the budget (it stops at its local
            # optimum); its plan, the column/row template and the all-Replicate start are then scored
            # by DTensor's propagation on the whole mesh (what will run), and the best one is improved
            # under that propagation for the rest of the budget (on a 3-D mesh one new DTensor
            # propagation costs up to a third of a second, so that descent is short)
            quick_deadline = t0 + (time_budget - t_capture) / 2 + t_capture
            choice, score, optimal, used, secs = solve(problem, solver, quick_deadline, exact_limit, len(mc.sizes))
            phases["search"] = clock() - t0 - t_capture
            quick_cut = problem.cut
            searched = ev.evaluate(problem.assignment(choice))
            evaluations = problem.evaluations
            ev = Evaluator(cap, dm, mc, optimizer_states)
            quick, problem = problem, Problem(ev, fixed, variables, objective, limit, sizes, layers)
            # the descent under DTensor only scores moves the per-dimension propagation does not find
            # worse: each DTensor answer is costly on these meshes
            problem.prefilter = (quick, 0.0)
            # in that order: DTensor's propagation on a 3-D mesh is slow enough that the later starts
            # may not be scored within the budget
            problem.seeds = quick.seeds
            choice, score = polish(problem, quick.seeds + [choice]
                                   + _templates(variables, vshapes, layers, fixed, mc.sizes)
                                   + [[d[0] for _, d in variables]], deadline - 0.1 * time_budget,
                                   len(mc.sizes))
            choice, score = simplify(problem, choice, score, deadline - 0.1 * time_budget)
            problem.evaluations += evaluations
            phases["polish"] = clock() - t0 - t_capture - phases["search"]
            optimal, used, secs = False, used + "+polish", clock() - t0 - t_capture
        else:
            choice, score, optimal, used, secs = solve(problem, solver, deadline - 0.1 * time_budget, exact_limit,
                                                       len(mc.sizes))
            searched = None
            phases["search"] = secs
        final = problem.assignment(choice)
        t_alt = clock()
        # the "next best" of each variable for explain(): at most a tenth of the budget
        alternatives = _alternatives(problem, choice, score, deadline=min(deadline, clock() + 0.1 * time_budget))
        phases["alternatives"] = clock() - t_alt
        result = ev.evaluate(final, detail=True)
        if searched is None:
            searched = result
    why = {n: "marked" for n in fixed}
    for (names, _), alt in zip(variables, alternatives):
        for n in names:
            tied = f"tied with {len(names) - 1} other(s); " if len(names) > 1 else ""
            why[n] = tied + alt
    point_shapes = {}
    for n in cap.graph.nodes:
        if n.op == "call_function" and n.target is POINT:
            point_shapes.setdefault(cap.points[n.args[1]], list(n.meta["val"].shape))
    reshards = [{"name": key[1], "shape": point_shapes[key[1]], "placements": _pl_str(final[key]),
                 "why": why[key]} for key in final if isinstance(key, tuple)]
    reshards.sort(key=lambda r: cap.points.index(r["name"]))
    fallbacks = set(result.fallbacks)
    act_rows = []
    for node in cap.graph.nodes:
        v, pl = node.meta.get("val"), result.placements.get(node)
        if node.op != "call_function" or not isinstance(v, torch.Tensor) or not pl or not hasattr(pl[0], "is_shard"):
            continue
        act_rows.append({"name": node.name, "op": str(getattr(node.target, "__name__", node.target)),
                            "shape": list(v.shape), "placements": _pl_str(pl),
                            "part": "forward" if node in cap.forward else "backward",
                            "why": "rule: replicate-fallback" if node.name in fallbacks else "DTensor propagation"})
    return Plan(
        mesh=mesh, topology=topology, objective=objective, memory_limit=limit, activations=act_rows,
        reshards=reshards,
        leaves=[{"name": n, "kind": k, "shape": list(s), "placements": _pl_str(final[n]), "why": why[n]}
                for (n, k), s in zip(cap.leaves, cap.shapes)],
        collectives=[{"where": w, "why": y, "kind": k, "mesh_dim": d, "bytes": b, "seconds": s}
                     for w, y, k, d, b, s in result.comms],
        estimate={"compute_s": result.compute, "comm_s": result.comm, "step_s": result.time,
                  "memory_per_rank": result.memory, "param_state_memory_per_rank": result.param_memory},
        solver={"method": used, "optimal": optimal, "evaluations": problem.evaluations, "solve_s": secs,
                "capture_s": t_capture, "cpu_s": clock() - t0, "total_s": time.monotonic() - w0,
                "variables": len(variables), "activation_variables": len(variables) - n_leaf_vars,
                "propagation": "per_dim" if per_dim else "dtensor",
                "search_step_s": searched.time,
                "graph_nodes": len(cap.graph.nodes), "phases_s": phases,
                # did every descent end at a local optimum (False: the time budget stopped one)?
                "converged": not problem.cut and not (per_dim and quick_cut),
                "pruned_moves": problem.pruned, "fallback_ops": sorted(set(result.fallbacks)),
                "feasible": score[1] == 0, "lost_writes": sorted(set(result.lost))})


_VIEWS = {"t", "view", "_unsafe_view", "reshape", "transpose", "permute", "expand", "detach", "clone", "alias"}
_MATMULS = {"mm", "addmm", "bmm"}


def _op_name(node):
    return getattr(node.target, "__name__", "").split(".")[0] if node.op == "call_function" else ""


def _layer_groups(cap, variables):
    """The parameter variables grouped by layer for the search's layer moves: a unit per layer (the
    variables of its parameters, by name prefix) with a weight matrix, units whose weights multiply the
    same activation (q, k, v) grouped as siblings, groups in the order of their forward matmul."""
    node_of = {name: n for (name, _), n in zip(cap.leaves, cap.placeholders)}
    position = {n: i for i, n in enumerate(cap.graph.nodes)}
    units = {}
    for i, (names, _) in enumerate(variables):
        if isinstance(names[0], str) and "." in names[0] and names[0] in node_of:
            units.setdefault(names[0].rsplit(".", 1)[0], []).append(i)
    found = {}
    for prefix, idx in units.items():
        for i in idx:
            node = node_of[variables[i][0][0]]
            if len(node.meta["val"].shape) < 2:
                continue
            todo, mm = [node], None
            while todo and mm is None:  # through views to the first matmul using the weight
                n = todo.pop(0)
                for u in n.users:
                    if u in cap.forward and _op_name(u) in _MATMULS:
                        mm, via = u, n
                        break
                    if _op_name(u) in _VIEWS:
                        todo.append(u)
            if mm is None:
                continue
            src = next((a for a in mm.args if isinstance(a, torch.fx.Node) and a is not via), None)
            while src is not None and _op_name(src) in _VIEWS:
                src = src.args[0]
            found[prefix] = (position[mm], src, tuple(node.meta["val"].shape))
            break
    groups = {}
    for prefix, (pos, src, shape) in sorted(found.items(), key=lambda kv: kv[1][0]):
        groups.setdefault((src, shape, len(units[prefix])), []).append(units[prefix])
    return list(groups.values())


def _templates(variables, shapes, layers, fixed, sizes):
    """Starting points for the search besides all-Replicate and most-sharded: on the last mesh dimension
    that no marked input is split over (a model dimension), the layer groups alternately column-
    parallel (weight Shard(1), bias Shard(0)) and row-parallel (weight Shard(0), bias Replicate),
    everything else Replicate -- Megatron's layout as a start, which the search then improves or leaves."""
    split = {d for pl in fixed.values() for d, p in enumerate(pl) if sharded(p)}
    model = [d for d in range(len(sizes)) if d not in split and sizes[d] > 1]
    if not model or not layers:
        return []
    d = model[-1]
    start = [dom[0] for _, dom in variables]
    for k, group in enumerate(layers):
        for unit in group:
            for i in unit:
                want = None
                if len(shapes[i]) >= 2:
                    want = Shard(1) if k % 2 == 0 else Shard(0)
                elif k % 2 == 0:
                    want = Shard(0)
                if want is None:
                    continue
                cand = start[i][:d] + (want,) + start[i][d + 1:]
                if cand in variables[i][1]:
                    start[i] = cand
    return [start]


def _alternatives(problem, choice, score, deadline):
    """For each variable: its next best placement with the others fixed, and what it would cost."""
    out = []
    for i, (_, dom) in enumerate(problem.vars):
        best = None
        if len(dom) > 1 and clock() < deadline:
            for cand in dom:
                if clock() > deadline:
                    best = None
                    break
                if cand == choice[i]:
                    continue
                s = problem.score(choice[:i] + [cand] + choice[i + 1:])
                if best is None or s < best[1]:
                    best = (cand, s)
        if best is None:
            out.append("chosen" if len(dom) == 1 else "chosen (alternatives not priced: time budget spent)")
        elif best[1][0] > score[0]:
            out.append(f"chosen; next best {_pl_str(best[0])} loses an in-place update (running statistics) "
                       "under DTensor")
        elif best[1][1] > 0 and score[1] == 0:
            out.append(f"chosen; next best {_pl_str(best[0])} exceeds the memory limit")
        else:
            delta = best[1][2] - score[2]
            out.append(f"chosen; next best {_pl_str(best[0])} costs {delta * 1e3:+.3f} ms")
    return out


def _fmt_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024


class Plan:
    """Placements for every parameter and input of a layer on a mesh, with the estimate behind them."""

    def __init__(self, mesh, topology, objective, memory_limit, leaves, collectives, estimate, solver,
                 activations=(), reshards=()):
        self.mesh, self.topology, self.objective, self.memory_limit = mesh, topology, objective, memory_limit
        # the activation variables: sublayer name, output shape, placements ("*": DTensor's), why
        self.reshards = list(reshards)
        self.activations = list(activations)  # every op's output in the step: name, op, shape, placements
        self.leaves, self.collectives, self.estimate, self.solver = leaves, collectives, estimate, solver

    # ------------------------------------------------------------- reading
    def placements(self, name):
        """Paddle placements planned for a parameter name or an input ("input0", or the index)."""
        name = f"input{name}" if isinstance(name, int) else name
        for leaf in self.leaves:
            if leaf["name"] == name:
                return _pt.from_torch_placements(_pl_parse(leaf["placements"]))
        raise KeyError(name)

    @property
    def parameter_placements(self):
        return {lf["name"]: self.placements(lf["name"]) for lf in self.leaves if lf["kind"] == "param"}

    def explain(self, print_=True, activations=False):
        """A table of every leaf (shape, placements, why), every collective (bytes, estimated time, summed
        over identical ones) and the estimate per rank; printed, and returned.  `activations=True` adds
        every op output of the step (forward and backward) with its placements."""
        lines = [f"Plan on mesh {self.mesh.shape} {self.mesh.dim_names}, objective {self.objective}, solver "
                 f"{self.solver['method']} ({'optimal' if self.solver['optimal'] else 'heuristic'}, "
                 f"{self.solver['evaluations']} evaluations, {self.solver['total_s']:.2f} s)"]
        w = max([len(lf["name"]) for lf in self.leaves] + [6])
        lines.append(f"{'tensor':<{w}}  {'shape':<16} {'placements':<22} why")
        for lf in self.leaves:
            lines.append(f"{lf['name']:<{w}}  {str(lf['shape']):<16} {lf['placements']:<22} {lf['why']}")
        if self.reshards:
            lines.append("")
            wr = max([len(r["name"]) for r in self.reshards] + [16])
            lines.append(f"{'activation (out)':<{wr}}  {'shape':<16} {'placements':<22} why  (*: DTensor's propagation)")
            for r in self.reshards:
                lines.append(f"{r['name']:<{wr}}  {str(r['shape']):<16} {r['placements']:<22} {r['why']}")
        if activations:
            lines.append("")
            wa = max([len(a["name"]) for a in self.activations] + [10])
            lines.append(f"{'activation':<{wa}}  {'op':<28} {'shape':<20} {'placements':<16} part      why")
            for a in self.activations:
                lines.append(f"{a['name']:<{wa}}  {a['op']:<28} {str(a['shape']):<20} {a['placements']:<16} "
                             f"{a['part']:<9} {a['why']}")
        lines.append("")
        lines.append(f"{'collective':<15} {'mesh dim':<9} {'bytes':>12} {'est. time':>11}  where")
        agg = {}
        for c in self.collectives:
            key = (c["kind"], c["mesh_dim"], c["bytes"], c["why"] if c["why"] == "gradient" else "activation")
            a = agg.setdefault(key, [0, 0.0, []])
            a[0] += 1
            a[1] += c["seconds"]
            a[2].append(c["where"])
        for (kind, dim, nbytes, why), (count, secs, where) in agg.items():
            names = ", ".join(where[:3]) + (f", ... ({count} in all)" if count > 3 else "")
            lines.append(f"{kind:<15} {self.mesh.dim_names[dim]:<9} {_fmt_bytes(nbytes):>12} "
                         f"{secs * 1e3:>8.3f} ms  {why}: {names}")
        if not self.collectives:
            lines.append("(none)")
        e = self.estimate
        lines.append("")
        lines.append(f"estimated step {e['step_s'] * 1e3:.3f} ms = compute {e['compute_s'] * 1e3:.3f} ms + "
                     f"communication {e['comm_s'] * 1e3:.3f} ms; peak memory per rank "
                     f"{_fmt_bytes(e['memory_per_rank'])} (parameters, gradients, optimizer states "
                     f"{_fmt_bytes(e['param_state_memory_per_rank'])})"
                     + (f", limit {_fmt_bytes(self.memory_limit)}" if self.memory_limit else ""))
        if not self.solver["feasible"]:
            lines.append("WARNING: no plan found within the memory limit; this is the one that exceeds it least")
        if self.solver.get("lost_writes"):
            lines.append("WARNING: DTensor would run these ops on a redistributed copy of an argument they update "
                         "in place (the update is lost): " + ", ".join(self.solver["lost_writes"][:10]))
        if self.solver["fallback_ops"]:
            lines.append(f"ops placed by the planner's rules ({rules.RULES[0].split(':')[0]}): "
                         + ", ".join(self.solver["fallback_ops"][:10]))
        text = "\n".join(lines)
        if print_:
            print(text)
        return text

    __str__ = lambda self: self.explain(print_=False)  # noqa: E731

    # ------------------------------------------------------------- applying
    def apply(self, layer):
        """Give every parameter of `layer` its planned placements, in place (inside a job that holds the
        mesh): each parameter object stays the same, its `_t` becomes a DTensor, so an optimizer made
        before sees the distributed parameters.  Returns the layer."""
        from ..distributed.auto_parallel.api import is_dist_tensor, shard_tensor

        mesh = self.mesh._as_process_mesh()
        params = dict(layer.named_parameters())
        params.update(layer.named_buffers())
        for lf in self.leaves:
            if lf["kind"] not in ("param", "state"):
                continue
            if lf["name"] not in params:
                raise ValueError(f"Plan.apply: the layer has no parameter or buffer {lf['name']!r}; apply a plan to "
                                 "the layer it was made for")
            p = params[lf["name"]]
            if is_dist_tensor(p):
                continue
            if hasattr(p, "_materialize"):
                p._materialize(run_initializer=True)  # a parameter made under paddle.LazyGuard
            p._t = shard_tensor(p, mesh, self.placements(lf["name"]))._t
        # the activation reshards: forward post-hooks (applying twice replaces the earlier hooks)
        for h in layer.__dict__.get("_planner_hooks", ()):
            h.remove()
        layer.__dict__["_planner_hooks"] = install(layer, {r["name"]: _pl_parse(r["placements"])
                                                           for r in self.reshards})
        return layer

    def shard_inputs(self, *inputs):
        """The inputs as distributed Tensors with their planned placements (each rank passes the same
        global values)."""
        from ..distributed.auto_parallel.api import is_dist_tensor, shard_tensor

        mesh = self.mesh._as_process_mesh()
        out = [x if is_dist_tensor(x) else shard_tensor(x, mesh, self.placements(i)) for i, x in enumerate(inputs)]
        return out[0] if len(out) == 1 else out

    # ------------------------------------------------------------- json
    def to_dict(self):
        return {"format": "paddle_on_torch.parallel.Plan/1",
                "mesh": {"shape": self.mesh.shape, "process_ids": self.mesh.process_ids,
                         "dim_names": self.mesh.dim_names},
                "topology": self.topology.to_dict(), "objective": self.objective, "memory_limit": self.memory_limit,
                "leaves": self.leaves, "collectives": self.collectives, "estimate": self.estimate,
                "solver": self.solver, "activations": self.activations, "reshards": self.reshards}

    def save(self, path):
        with open(path, "w") as f:
            json.dump(self.to_dict(), f, indent=1)

    @classmethod
    def from_dict(cls, d):
        if d.get("format") != "paddle_on_torch.parallel.Plan/1":
            raise ValueError("Plan.load: not a paddle_on_torch plan file")
        m = d["mesh"]
        mesh = ProcessMesh(np.array(m["process_ids"]).reshape(m["shape"]).tolist(), dim_names=m["dim_names"])
        return cls(mesh, Topology(**d["topology"]), d["objective"], d["memory_limit"], d["leaves"],
                   d["collectives"], d["estimate"], d["solver"], d.get("activations", ()), d.get("reshards", ()))

    @classmethod
    def load(cls, path):
        with open(path) as f:
            return cls.from_dict(json.load(f))
