"""Choosing placements for the unmarked leaves (parameters, inputs) and the activation variables of a
captured step.

Variables are groups of leaves, and groups of reshard points (points.py: Linear and block outputs):
names that differ only in layer indices and have the same shape ("blocks.3.fc1.weight" ~
"blocks.7.fc1.weight") share one choice when `tie=True` (the repeated blocks of a deep model get one
plan, and the search stays small).  A leaf's domain is every combination, over the mesh dimensions,
of Replicate and Shard(d) for a tensor dim d that the mesh dimension divides evenly; an
activation's (`point_domain`) is, per mesh dimension, None ("follow" DTensor's propagation),
Replicate, or Shard of a sequence dim.

Two solvers, with the same objective ((memory overflow, objective value), compared in order):
- `exact`: every combination of the variables' domains (optimal for the model; used when the
  product of the domain sizes is at most `exact_limit`).  There is no cheaper exact method here:
  the backward reads every forward choice again, so no cut separates the variables.
- `search`: coordinate descent from several starts (all Replicate/follow; every leaf at its
  smallest memory; the planner's column/row template), with single moves, layer-group moves (a
  layer's parameters, siblings alike, alone or with the next group) and neighbour pair moves on one
  mesh dimension, until no move improves or the time budget is spent; then activations are set back
  to follow where that costs nothing.  Not guaranteed optimal: tests compare it with `exact` and an
  independent enumeration on small graphs.
"""
import itertools
import re
import time

from torch.distributed.tensor import Replicate, Shard

__all__ = ["Problem", "solve", "domain", "point_domain", "group_key", "clock"]

# Budgets are in CPU seconds of this process: on a loaded machine a wall-clock budget would make the
# plan depend on the load (on an idle machine the two are the same).
clock = time.process_time


def domain(shape, sizes):
    per_dim = []
    for n in sizes:
        opts = [Replicate()]
        if n > 1:
            opts += [Shard(d) for d, s in enumerate(shape) if s >= n and s % n == 0]
        per_dim.append(opts)
    return [tuple(c) for c in itertools.product(*per_dim)]


def point_domain(shape, sizes):
    """An activation variable's domain (a reshard point, points.py): per mesh dimension None (keep
    DTensor's placement: "follow"), Replicate, or Shard(d) for a dim d other than the first and the
    last of a 3-D or bigger activation (the sequence dims: sequence parallelism; the batch follows the
    input's mark and the feature dim the weights' sharding) or the first dim of a 2-D one.  Follow
    on every dimension comes first."""
    per_dim = []
    dims = range(1, len(shape) - 1) if len(shape) >= 3 else range(min(1, len(shape)))
    for n in sizes:
        opts = [None]
        if n > 1:
            opts += [Replicate()] + [Shard(d) for d in dims if shape[d] >= n and shape[d] % n == 0]
        per_dim.append(opts)
    return [tuple(c) for c in itertools.product(*per_dim)]


def group_key(name, shape, tie):
    return (re.sub(r"(?<=\.)\d+(?=\.)", "*", name) if tie else name, tuple(shape))


class Problem:
    """The variables (groups of leaf names with a domain) and how to score an assignment."""

    def __init__(self, evaluator, fixed, variables, objective, memory_limit, sizes=None, layers=()):
        self.ev, self.fixed, self.vars = evaluator, dict(fixed), variables  # vars: [(names, domain)]
        # layer groups in the order the forward uses them: each a list of units (the variable indices of
        # one layer's parameters); the units of a group are siblings (q, k, v: same input, same shapes)
        self.layers = [g for g in layers if g]
        self.starts = []  # more starting points for the search (planner.py adds a column/row template)
        self.seeds = []  # the caller's candidate plans: descended from first, so the result is never worse
        self.cut = False  # a descent was stopped by the deadline
        # (cheaper Problem, tolerance): a move that Problem scores more than `tolerance` worse than the
        # current plan is not scored here (the per-dimension propagation screening DTensor's moves)
        self.prefilter, self.pruned, self._quick = None, 0, (None, None)
        self.sizes = sizes or [0] * len(variables)  # elements per variable (all its tensors)
        self.objective, self.limit = objective, memory_limit
        self.evaluations = 0

    def assignment(self, choice):
        a = dict(self.fixed)
        for (names, _), pl in zip(self.vars, choice):
            for n in names:
                a[n] = pl
        return a

    def promising(self, trial, cur):
        if self.prefilter is None:
            return True
        quick, tol = self.prefilter
        key = tuple(cur)
        if self._quick[0] != key:
            self._quick = (key, quick.score(cur))
        a, b = quick.score(trial), self._quick[1]
        if a[:2] < b[:2] or (a[:2] == b[:2] and a[2] <= b[2] * (1 + tol)):
            return True
        self.pruned += 1
        return False

    def score(self, choice):
        self.evaluations += 1
        e = self.ev.evaluate(self.assignment(choice))
        over = max(0.0, e.memory - self.limit) if self.limit is not None else 0.0
        if self.objective == "time":
            val = (e.time,)
        elif self.objective == "communication":
            val = (e.comm, e.compute)
        else:  # memory
            val = (e.memory, e.time)
        # rounding makes equal-cost plans compare equal, so the earlier (simpler) one is kept; an
        # in-place update DTensor would lose (propagate.py) ranks before everything
        return (e.lost_writes, round(over, 0)) + tuple(round(v, 12) for v in val)


def _exact(problem, deadline):
    best, best_s = None, None
    for choice in itertools.product(*[d for _, d in problem.vars]):
        s = problem.score(choice)
        if best_s is None or s < best_s:
            best, best_s = choice, s
    return list(best), best_s, True


def _descent(problem, start, deadline, ndim):
    cur = list(start)
    cur_s = problem.score(cur)
    improved = True
    # the biggest tensors first: with a tight time budget their moves matter most
    order = sorted(range(len(problem.vars)), key=lambda i: -problem.sizes[i])
    while improved and clock() < deadline:
        improved = False
        # single moves: one variable, one mesh dimension
        for i in order:
            dom = problem.vars[i][1]
            for d in range(ndim):
                for cand in dom:
                    if cand[d] == cur[i][d] or any(cand[j] != cur[i][j] for j in range(ndim) if j != d):
                        continue
                    trial = cur[:i] + [cand] + cur[i + 1:]
                    if not problem.promising(trial, cur):
                        continue
                    s = problem.score(trial)
                    if s < cur_s:
                        cur, cur_s, improved = trial, s, True
                if clock() > deadline:
                    problem.cut = True  # stopped by the time budget, not at a local optimum
                    return cur, cur_s
        if improved:
            continue
        # layer moves: one layer group (its siblings alike) alone, then with the next group, on one mesh
        # dimension: column-parallel layers followed by a row-parallel one is a move of this kind
        for gi in range(len(problem.layers)):
            for d in range(ndim):
                opts_a = _group_options(problem, cur, problem.layers[gi], d)
                nxt = _group_options(problem, cur, problem.layers[gi + 1], d) if gi + 1 < len(problem.layers) else []
                for oa in opts_a:
                    for ob in [{}] + nxt:
                        trial = list(cur)
                        for i, c in {**oa, **ob}.items():
                            trial[i] = c
                        if not problem.promising(trial, cur):
                            continue
                        s = problem.score(trial)
                        if s < cur_s:
                            cur, cur_s, improved = trial, s, True
                    if clock() > deadline:
                        problem.cut = True  # stopped by the time budget, not at a local optimum
                        return cur, cur_s
        if improved:
            continue
        # pair moves: neighbouring variables on one mesh dimension together
        for i in range(len(problem.vars) - 1):
            da, db = problem.vars[i][1], problem.vars[i + 1][1]
            for d in range(ndim):
                for ca in da:
                    if ca[d] == cur[i][d] or any(ca[j] != cur[i][j] for j in range(ndim) if j != d):
                        continue
                    for cb in db:
                        if cb[d] == cur[i + 1][d] or any(cb[j] != cur[i + 1][j] for j in range(ndim) if j != d):
                            continue
                        trial = cur[:i] + [ca, cb] + cur[i + 2:]
                        if not problem.promising(trial, cur):
                            continue
                        s = problem.score(trial)
                        if s < cur_s:
                            cur, cur_s, improved = trial, s, True
                if clock() > deadline:
                    problem.cut = True  # stopped by the time budget, not at a local optimum
                    return cur, cur_s
    if improved:  # the deadline ended the loop before a sweep without improvement
        problem.cut = True
    return cur, cur_s


def _group_options(problem, cur, group, d):
    """The changes ({variable index: placements}) that give every unit of `group` the same new placements
    on mesh dimension `d` (the first unit's options; a sibling that cannot take them is left out)."""
    first = group[0]
    per_var = []
    for i in first:
        vals = {c[d] for c in problem.vars[i][1] if all(c[j] == cur[i][j] for j in range(len(c)) if j != d)}
        per_var.append(sorted(vals, key=repr))
    out = []
    for combo in itertools.product(*per_var):
        if all(v == cur[i][d] for i, v in zip(first, combo)):
            continue
        change = {}
        for unit in group:
            for k, (i, v) in enumerate(zip(unit, combo)):
                cand = cur[i][:d] + (v,) + cur[i][d + 1:]
                if cand in problem.vars[i][1]:
                    change[i] = cand
        out.append(change)
    return out


def polish(problem, starts, deadline, ndim):
    """The best of `starts` under `problem`, improved by coordinate descent until `deadline`.  The starts
    are scored in order, and the later ones only while the deadline allows (the first always is)."""
    best, best_s = None, None
    for k, st in enumerate(starts):
        if k and clock() > deadline:
            break
        s = problem.score(list(st))
        if best_s is None or s < best_s:
            best, best_s = list(st), s
    return _descent(problem, best, deadline, ndim)


def _search(problem, deadline, ndim):
    starts = list(problem.seeds) + [[dom[0] for _, dom in problem.vars]]  # all Replicate (each domain's first)
    smallest = []
    for _, dom in problem.vars:  # every variable at its smallest share of the tensor (activations: follow)
        smallest.append(dom[0] if None in dom[0] else max(dom, key=lambda pl: sum(p.is_shard() for p in pl)))
    starts.append(smallest)
    starts += problem.starts
    best, best_s = None, None
    for st in starts:
        c, s = _descent(problem, st, deadline, ndim)
        if best_s is None or s < best_s:
            best, best_s = c, s
    return best, best_s, False


def simplify(problem, choice, score, deadline=None):
    """Activation variables set back to "follow" (DTensor's own placement: no hook at run time) wherever
    that costs nothing more (until `deadline`)."""
    choice = list(choice)
    for i, (_, dom) in enumerate(problem.vars):
        if deadline is not None and clock() > deadline:
            break
        if None in dom[0] and choice[i] != dom[0]:
            trial = choice[:i] + [dom[0]] + choice[i + 1:]
            s = problem.score(trial)
            if s <= score:
                choice, score = trial, s
    return choice, score


def solve(problem, method="auto", deadline=None, exact_limit=4096, ndim=1):
    """(choice per variable, score, optimal?, method used, seconds).  `deadline`: clock() (CPU seconds) by
    which the search stops (the exact solver ignores it)."""
    t0 = clock()
    deadline = deadline or t0 + 60.0
    size = 1
    for _, d in problem.vars:
        size *= len(d)
    if method not in ("auto", "exact", "search"):
        raise ValueError(f"solver must be 'auto', 'exact' or 'search', got {method!r}")
    if not problem.vars:
        return [], problem.score([]), True, "none", clock() - t0
    if method == "exact" or (method == "auto" and size <= exact_limit):
        choice, score, opt = _exact(problem, deadline)
        used = "exact"
    else:
        choice, score, opt = _search(problem, deadline, ndim)
        choice, score = simplify(problem, choice, score, deadline)
        used = "search"
    return choice, score, opt, used, clock() - t0
