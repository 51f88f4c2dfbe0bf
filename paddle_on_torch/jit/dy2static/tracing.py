"""Converted `if` / `while` on a traced Tensor as torch.cond / torch.while_loop.

Two tracers reach here:
- torch.export's non-strict tracer (make_fx), which paddle.jit.save uses.  The branch functions
  are plain Python run under the tracer, so this side calls the control-flow operators
  (`cond_op`, `while_loop_op`) directly: no dynamo compile per branch (seconds each), and the
  branches may report what they returned.  As in Paddle's cond, both branches are traced first
  and what crosses the boundary is decided from both results: equal Python constants stay
  constants, differing numbers become 0-D tensors (bool / int64 / float64, or the dtype of the
  other branch's Tensor), a variable left undefined by either branch stays undefined.  Tensors a
  branch reads from outside (the Layer's weights, locals of the enclosing function) are found by
  walking the branch functions' closures and passed as operands, so that the subgraph reads them
  as inputs rather than baking them in as constants.
- dynamo (to_static(full_graph=True)): torch.cond / torch.while_loop as dynamo traces them (dynamo
  lifts the closures itself).  A branch cannot report to the outside there (dynamo refuses side
  effects in a branch), so every value leaving a branch must be a Tensor or a Python number (made a
  0-D tensor).
"""
import functools

import torch
import torch.utils._pytree as pytree
from torch._subclasses.fake_tensor import FakeTensor

from ... import _normalize

_NUMBERS = (bool, int, float)
_DEFAULT_DTYPE = {bool: torch.bool, int: torch.int64, float: torch.float64}  # Paddle's to_static_variable


def _make_fx_tracer():
    from torch.fx.experimental import proxy_tensor

    return proxy_tensor._CURRENT_MAKE_FX_TRACER


def is_traced(t):
    """A torch tensor whose value is not known now (dynamo or a make_fx trace is recording it)."""
    if torch.compiler.is_dynamo_compiling():
        return True
    return isinstance(t, FakeTensor)


def symbolic_is_traced(s):
    return torch.compiler.is_dynamo_compiling() or _make_fx_tracer() is not None


def _error(msg):
    from .operators import ConversionError

    return ConversionError(msg)


# ------------------------------------------------------------------ values <-> tensors
def _is_paddle(v):
    return isinstance(v, _normalize.Tensor)


def _flatten(value):
    return pytree.tree_flatten(value)


def _rewrap(old, new):
    """The operand `new` (a torch tensor) standing in for the argument leaf `old` inside a branch."""
    return _normalize.wrap(new) if _is_paddle(old) else new


def _promote(v, dtype):
    return torch.full([], v, dtype=dtype)


def _kind(v):
    from .operators import UndefinedVar

    if _is_paddle(v) or isinstance(v, torch.Tensor):
        t = v._t if _is_paddle(v) else v
        return ("tensor", t.dtype)
    if isinstance(v, UndefinedVar):
        return ("undefined",)
    if type(v) in _NUMBERS:
        return ("number", v)
    if isinstance(v, (torch.SymInt, torch.SymBool, torch.SymFloat)):
        return ("symbolic", v)
    return ("object", v)


class _Plan:
    """How each output leaf of a branch crosses the boundary: 'tensor' (an output of the op, possibly a
    promoted number with `dtype`), 'const' (the same value on both sides, kept out of the op),
    'undefined' (the whole variable is undefined after the statement)."""

    def __init__(self, actions=None):
        self.actions = actions  # {(name index, leaf index): (action, dtype)}; None: decide per branch

    def action(self, key, value):
        if self.actions is not None:
            return self.actions.get(key, ("drop", None))
        kind = _kind(value)
        if kind[0] == "tensor":
            return ("tensor", None)
        if kind[0] == "number":
            return ("tensor", _DEFAULT_DTYPE[type(value)])
        if kind[0] == "symbolic":
            return ("tensor", torch.bool if isinstance(value, torch.SymBool) else
                    torch.int64 if isinstance(value, torch.SymInt) else torch.float64)
        return ("drop", None)


def _outputs_as_list(out, names):
    """The branch's result as one value per output (one for an `if` whose branches return)."""
    if names is None:
        return [out]
    if not isinstance(out, tuple) or len(out) != len(names):
        raise _error("internal error: a converted branch returned the wrong number of values")
    return list(out)


def _no_alias(t, inputs):
    """Control-flow operators refuse outputs that alias their inputs: such an output is copied.  Under dynamo
    a view cannot be told from a fresh tensor, so every output is copied there (inductor drops the copies
    it does not need)."""
    if torch.compiler.is_dynamo_compiling():
        return t.clone()
    if any(t is i for i in inputs) or t._base is not None:
        return t.clone()
    return t


def _branch_tensors(values, plan, inputs=()):
    """The torch tensors a branch hands to the op, per `plan` (leaves it drops stay outside the op)."""
    res = []
    for i, v in enumerate(values):
        fill = plan.actions.get((i, "fill")) if plan.actions is not None else None
        if fill is not None and v is None:  # the side without a return value: zeros of the other's kind
            res.extend(torch.zeros(shape, dtype=dtype) for dtype, shape in zip(fill[0], fill[1]))
            continue
        leaves, _ = _flatten(v)
        for j, leaf in enumerate(leaves):
            act, dtype = plan.action((i, j), leaf)
            if act != "tensor":
                continue
            t = leaf._t if _is_paddle(leaf) else leaf if isinstance(leaf, torch.Tensor) else _promote(leaf, dtype)
            if dtype is not None and t.dtype != dtype:
                t = t.to(dtype)
            res.append(_no_alias(t, inputs))
    return tuple(res)


def _unsupported_value(name, leaf):
    from .operators import UndefinedVar

    if isinstance(leaf, UndefinedVar):
        return _error(f"'{name}' is assigned in only one branch of an `if` on a traced Tensor and used after it; "
                      "assign it in both branches (or before the `if`)")
    return _error(f"'{name}' holds a {type(leaf).__name__} after an `if` / loop on a traced Tensor; only Tensors and "
                  "Python numbers can depend on a traced condition")


# ------------------------------------------------------------------ tensors a branch reads from outside
def _closure_tensors(fns, skip):
    """Traced torch tensors reachable from the functions' closures and referenced globals (Layers'
    parameters and buffers included), excluding ids in `skip`."""
    from ...nn.layer.layers import Layer

    from .operators import UndefinedVar

    found, seen = [], set()
    stack = [(f, 0) for f in fns]
    while stack:
        obj, depth = stack.pop()
        if id(obj) in seen or depth > 6 or isinstance(obj, UndefinedVar):
            continue
        seen.add(id(obj))
        if _is_paddle(obj):
            obj = obj._t
        if isinstance(obj, torch.Tensor):
            if id(obj) not in skip and is_traced(obj):
                skip.add(id(obj))
                found.append(obj)
            continue
        if isinstance(obj, Layer):
            stack.extend((t, depth + 1) for t in obj.parameters())
            stack.extend((t, depth + 1) for t in obj.buffers())
            continue
        if isinstance(obj, (list, tuple)):
            stack.extend((v, depth + 1) for v in obj)
        elif isinstance(obj, dict):
            stack.extend((v, depth + 1) for v in obj.values())
        elif hasattr(obj, "__func__") and hasattr(obj, "__self__"):  # bound method
            stack.append((obj.__self__, depth + 1))
            stack.append((obj.__func__, depth + 1))
        elif isinstance(obj, functools.partial):
            stack.append((obj.func, depth + 1))
            stack.extend((v, depth + 1) for v in obj.args)
            stack.extend((v, depth + 1) for v in obj.keywords.values())
        elif hasattr(obj, "__code__") and hasattr(obj, "__globals__"):  # a Python function
            for cell in obj.__closure__ or ():
                try:
                    stack.append((cell.cell_contents, depth + 1))
                except ValueError:  # an empty cell
                    pass
            g = obj.__globals__
            for name in obj.__code__.co_names:
                v = g.get(name)
                if v is not None and (isinstance(v, (Layer, torch.Tensor, list, tuple, dict)) or _is_paddle(v)
                                      or hasattr(v, "__code__")):
                    stack.append((v, depth + 1))
    return found


# ------------------------------------------------------------------ cond
def cond(pred, true_fn, false_fn, args, names):
    """torch.cond over the converted branches.

    `names`: None for an `if` whose branches return (the result is the return value), else one
    (name, assigned-in bits: 1 true / 2 false, index in `args`) per value the branches return.  A
    variable undefined before the `if` and assigned in one branch only stays undefined (Paddle)."""
    if names is not None:
        from .operators import UndefinedVar

        keep = [k for k, (_, bits, idx) in enumerate(names) if bits == 3 or not isinstance(args[idx], UndefinedVar)]
        if not keep:  # nothing the branches assign survives them
            return tuple(UndefinedVar(n) for n, _, _ in names)
        if len(keep) < len(names):
            kept = _cond(pred, _select(true_fn, keep), _select(false_fn, keep), args, [names[k][0] for k in keep])
            res = [UndefinedVar(n) for n, _, _ in names]
            for k, v in zip(keep, kept):
                res[k] = v
            return tuple(res)
        names = [n for n, _, _ in names]
    return _cond(pred, true_fn, false_fn, args, names)


def _select(fn, keep):
    def branch(*args):
        out = fn(*args)
        return tuple(out[k] for k in keep)
    return branch


def _cond(pred, true_fn, false_fn, args, names):
    leaves, spec = _flatten(tuple(args))
    pos = [i for i, v in enumerate(leaves) if _is_paddle(v) or isinstance(v, torch.Tensor)]
    arg_tensors = [leaves[i]._t if _is_paddle(leaves[i]) else leaves[i] for i in pos]
    if torch.compiler.is_dynamo_compiling():
        return _dynamo_cond(pred, true_fn, false_fn, leaves, spec, pos, arg_tensors, names)
    if _make_fx_tracer() is None:
        raise _error("a converted `if` on a fake Tensor outside torch.export / torch.compile tracing")
    return _proxy_cond(pred, true_fn, false_fn, leaves, spec, pos, arg_tensors, names)


def _call_branch(fn, leaves, spec, pos, ops):
    new = list(leaves)
    for p, o in zip(pos, ops):
        new[p] = _rewrap(leaves[p], o)
    return fn(*pytree.tree_unflatten(new, spec))


def _dynamo_cond(pred, true_fn, false_fn, leaves, spec, pos, arg_tensors, names):
    shown = names if names is not None else ["the return value"]

    def make(fn):
        def branch(*ops):
            values = _outputs_as_list(_call_branch(fn, leaves, spec, pos, ops), names)
            return tuple(pytree.tree_map(lambda x, n=n: _to_torch_leaf(x, n), v) for v, n in zip(values, shown))
        return branch

    out = torch.cond(pred, make(true_fn), make(false_fn), tuple(arg_tensors))
    values = [pytree.tree_map(lambda t: _normalize.wrap(t) if isinstance(t, torch.Tensor) else t, v) for v in out]
    return values[0] if names is None else tuple(values)


def _to_torch_leaf(v, name):
    if _is_paddle(v):
        return v._t.clone()  # see _no_alias
    if isinstance(v, torch.Tensor):
        return v.clone()
    if type(v) in _NUMBERS:
        return _promote(v, _DEFAULT_DTYPE[type(v)])
    raise _unsupported_value(name, v)


def _proxy_cond(pred, true_fn, false_fn, leaves, spec, pos, arg_tensors, names):
    from torch._higher_order_ops.cond import cond_op

    skip = {id(t) for t in arg_tensors}
    extras = _closure_tensors([true_fn, false_fn] + [leaves[i] for i in range(len(leaves)) if i not in pos], skip)
    operands = tuple(arg_tensors) + tuple(extras)
    records = {}

    def make(fn, tag, plan):
        def branch(*ops):
            values = _outputs_as_list(_call_branch(fn, leaves, spec, pos, ops[:len(pos)]), names)
            records[tag] = [_flatten(v) for v in values]
            return _branch_tensors(values, plan, ops)
        return branch

    try:  # first as each branch decides alone (tensors and numbers out): right in the common case
        out = cond_op(pred, make(true_fn, "t", _Plan()), make(false_fn, "f", _Plan()), operands)
    except Exception as e:  # noqa: BLE001 - the branches disagree: decide from both results, trace again
        if "t" not in records or "f" not in records:
            raise
        final = _plan_from(records, names)
        used = _default_actions(records["t"])
        if final.actions == used and _default_actions(records["f"]) == used:
            raise _error(f"the two branches of an `if` on a traced Tensor give different results for "
                         f"{names if names is not None else 'the return value'}: {type(e).__name__}: {e}") from e
        records.clear()
        out = cond_op(pred, make(true_fn, "t", final), make(false_fn, "f", final), operands)
        return _assemble(out, records["t"], final.actions, final, names)
    final = _plan_from(records, names)  # equal constants on both sides stay constants
    return _assemble(out, records["t"], _default_actions(records["t"]), final, names)


def _default_actions(records):
    plan, acts = _Plan(), {}
    for i, (leaves, _) in enumerate(records):
        for j, leaf in enumerate(leaves):
            a = plan.action((i, j), leaf)
            if a[0] == "tensor":
                acts[(i, j)] = a
    return acts


def _plan_from(records, names):
    """Paddle's rules for what leaves the statement, from both branches' results."""
    acts = {}
    for i, ((tl, tspec), (fl, fspec)) in enumerate(zip(records["t"], records["f"])):
        name = names[i] if names is not None else "the return value"
        kinds_t, kinds_f = [_kind(v) for v in tl], [_kind(v) for v in fl]
        if any(k[0] == "undefined" for k in kinds_t + kinds_f):
            acts[(i, "undefined")] = ("undefined", None)
            continue
        fill = _fill_template(name, (tl, tspec), (fl, fspec))
        if tspec != fspec or fill is not None:
            if fill is not None:
                acts[(i, "fill")] = fill
                acts.update({(i, j): ("tensor", None) for j in range(len(fill[0]))})
                continue
            raise TypeError(f"Unsupported return type of true_fn and false_fn in cond: `{name}` is "
                            f"{_describe(tl, tspec)} in the true branch and {_describe(fl, fspec)} in the false "
                            "branch")
        for j, (a, b, ka, kb) in enumerate(zip(tl, fl, kinds_t, kinds_f)):
            if ka[0] == "tensor" and kb[0] == "tensor":
                acts[(i, j)] = ("tensor", None)
            elif ka[0] == "tensor" and kb[0] in ("number", "symbolic"):
                acts[(i, j)] = ("tensor", ka[1])
            elif kb[0] == "tensor" and ka[0] in ("number", "symbolic"):
                acts[(i, j)] = ("tensor", kb[1])
            elif ka[0] == "number" and kb[0] == "number" and type(a) is type(b):
                acts[(i, j)] = ("const", None) if a == b else ("tensor", _DEFAULT_DTYPE[type(a)])
            elif ka[0] == "symbolic" or kb[0] == "symbolic":
                acts[(i, j)] = ("tensor", torch.bool if isinstance(a, (bool, torch.SymBool)) else torch.int64)
            elif ka[0] == "object" and kb[0] == "object" and (a is b or _same_object(a, b)):
                acts[(i, j)] = ("const", None)
            else:
                raise TypeError(f"Unsupported return type of true_fn and false_fn in cond: `{name}` is "
                                f"{_describe([a], pytree.tree_flatten(0)[1])} in the true branch and "
                                f"{_describe([b], pytree.tree_flatten(0)[1])} in the false branch")
    return _Plan(acts)


def _describe(leaves, spec):
    def one(v):
        k = _kind(v)
        return f"Tensor({k[1]})" if k[0] == "tensor" else repr(v) if k[0] == "number" else type(v).__name__
    return repr(pytree.tree_unflatten([one(v) for v in leaves], spec)) if leaves else repr(
        pytree.tree_unflatten([], spec))


def _fill_template(name, a, b):
    """The value of a `return` inside a loop is None until a branch returns: the other branch hands zeros of
    the same kind through the op (the return flag says it is not used)."""
    if not name.startswith("_pot_retval"):
        return None
    for (la, sa), (lb, sb) in ((a, b), (b, a)):
        if (not la or len(la) == 1 and la[0] is None) and pytree.tree_unflatten(la, sa) is None and lb and all(
                _kind(v)[0] == "tensor" for v in lb):
            return ([(v._t if _is_paddle(v) else v).dtype for v in lb],
                    [tuple((v._t if _is_paddle(v) else v).shape) for v in lb], sb)
    return None


def _same_object(a, b):
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - objects whose == gives no bool are not one constant
        return False


def _assemble(out, true_records, emitted, final, names):
    """The statement's results from the op's outputs (`emitted`: which leaves the branches handed to the op,
    in order) and the final plan: Tensors, constants, UndefinedVars."""
    from .operators import UndefinedVar

    out = list(out) if isinstance(out, (list, tuple)) else [out]
    it = iter(out)
    values = []
    for i, (leaves, spec) in enumerate(true_records):
        fill = final.actions.get((i, "fill"))
        if fill is not None:
            spec = fill[2]
            leaves = [None] * len(fill[0])
        taken = [next(it) if (i, j) in emitted else None for j in range(len(leaves))]
        if (i, "undefined") in final.actions:
            values.append(UndefinedVar(names[i] if names is not None else "return value"))
            continue
        new = [_normalize.wrap(t) if final.actions.get((i, j), ("const",))[0] == "tensor" else leaf
               for j, (leaf, t) in enumerate(zip(leaves, taken))]
        values.append(pytree.tree_unflatten(new, spec))
    return values[0] if names is None else tuple(values)


# ------------------------------------------------------------------ while
def while_loop(cond_fn, body_fn, args, names):
    """torch.while_loop over the converted loop; returns the final values of `names`."""
    from .operators import UndefinedVar

    args = list(args)
    carried_idx, carried, consts = [], [], {}
    for i, v in enumerate(args):
        if isinstance(v, UndefinedVar):
            continue  # a temporary of the body (Paddle: stays undefined after the loop)
        leaves, spec = _flatten(v)
        kinds = [_kind(x) for x in leaves]
        if all(k[0] == "tensor" for k in kinds) and leaves:
            carried_idx.append((i, spec, len(leaves), [_is_paddle(x) for x in leaves]))
            carried.extend(x._t if _is_paddle(x) else x for x in leaves)
        elif len(leaves) == 1 and kinds[0][0] in ("number", "symbolic"):
            dtype = torch.bool if isinstance(v, (bool, torch.SymBool)) else torch.int64 if isinstance(
                v, (int, torch.SymInt)) else torch.float64
            carried_idx.append((i, spec, 1, [True]))
            carried.append(_promote(v, dtype))
        else:
            consts[i] = v  # loop-invariant: the body must leave it as it is
    n_carried = len(carried)

    def rebuild(flat):
        vals = list(args)
        it = iter(flat)
        for i, spec, n, paddle_leaf in carried_idx:
            leaves = [next(it) for _ in range(n)]
            leaves = [_normalize.wrap(t) if p else t for t, p in zip(leaves, paddle_leaf)]
            vals[i] = pytree.tree_unflatten(leaves, spec)
        return vals

    def flat_cond(*flat):
        vals = rebuild(flat[:n_carried])
        p = cond_fn(*vals)
        if isinstance(p, (bool, int)) and not isinstance(p, torch.SymBool):
            return torch.full([], bool(p), dtype=torch.bool)
        from .operators import _as_bool_tensor

        return _as_bool_tensor(p)

    def flat_body(*flat):
        vals = rebuild(flat[:n_carried])
        new = list(body_fn(*vals))
        outs = []
        for i, spec, n, paddle_leaf in carried_idx:
            leaves, nspec = _flatten(new[i])
            name = names[i]
            if nspec != spec or len(leaves) != n:
                raise _error(f"'{name}' changes its structure inside a `while` loop on a traced Tensor")
            for leaf, old in zip(leaves, flat[:n_carried][len(outs):len(outs) + n]):
                if _is_paddle(leaf):
                    t = leaf._t
                elif isinstance(leaf, torch.Tensor):
                    t = leaf
                elif type(leaf) in _NUMBERS or isinstance(leaf, (torch.SymInt, torch.SymBool, torch.SymFloat)):
                    t = _promote(leaf, old.dtype)
                else:
                    raise _unsupported_value(name, leaf)
                if t.dtype != old.dtype:
                    raise _error(f"'{name}' is {old.dtype} before a `while` loop on a traced Tensor and {t.dtype} "
                                 "after its body; a loop variable keeps its dtype")
                outs.append(_no_alias(t, flat))
        for i, v in consts.items():
            if new[i] is not v:
                raise _error(f"'{names[i]}' ({type(v).__name__}) is reassigned inside a `while` loop on a traced "
                             "Tensor; only Tensors and numbers can change inside such a loop")
        return tuple(outs)

    if torch.compiler.is_dynamo_compiling():
        from torch._higher_order_ops.while_loop import while_loop as torch_while_loop

        out = torch_while_loop(flat_cond, flat_body, tuple(carried))
    else:
        if _make_fx_tracer() is None:
            raise _error("a converted `while` on a fake Tensor outside torch.export / torch.compile tracing")
        from torch._higher_order_ops.while_loop import while_loop_op

        skip = {id(t) for t in carried}
        extras = _closure_tensors([cond_fn, body_fn] + list(consts.values()), skip)

        def with_extras(fn):
            def run(*flat):
                return fn(*flat[:n_carried])
            return run

        out = while_loop_op(with_extras(flat_cond), with_extras(flat_body), tuple(carried), tuple(extras))
    out = list(out)[:n_carried]
    return tuple(rebuild(out))
