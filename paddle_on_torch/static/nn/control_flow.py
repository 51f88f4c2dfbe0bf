"""cond, while_loop, case, switch_case: each branch / body is recorded into its own fx sub-graph.

A sub-graph's placeholders are its explicit arguments (the loop variables) followed by the outer
values it captures; the parent graph gets one node whose target runs the chosen sub-graph at run
time.  Outside static mode (or with a Python predicate) the functions just run the Python branch,
as Paddle does in dynamic mode.
"""
import torch
import torch.fx

from ... import _normalize
from .. import program as _prog

__all__ = ["cond", "while_loop", "case", "switch_case"]


class _SubGraph:
    def __init__(self, fn, arg_fakes=()):
        parent = _prog.current_program()
        sub = _prog.Program()
        sub._parent = parent
        sub._consts = parent._consts
        args = []
        for i, f in enumerate(arg_fakes):
            ph = sub._placeholder(f"arg_{i}")
            ph.meta.update(kind="arg", val=f)
            sub._vars[id(f)] = (f, ph)
            args.append(_normalize.wrap(f))
        _prog._state.blocks.append(sub)
        try:
            out = fn(*args)
        finally:
            _prog._state.blocks.pop()
        self.structure = out
        flat = _flatten(out)
        nodes, self.fakes = [], []
        _prog._state.blocks.append(sub)
        try:
            for v in flat:
                t = _as_torch(v)
                f, n = sub._lookup(t)
                nodes.append(n)
                self.fakes.append(f)
        finally:
            _prog._state.blocks.pop()
        sub.graph.output(tuple(nodes))
        self.gm = torch.fx.GraphModule(torch.nn.Module(), sub.graph)
        self.captures = list(sub._captures)


def _as_torch(v):
    if _normalize.is_tensor(v):
        return v._t
    if isinstance(v, torch.Tensor):
        return v
    return torch.as_tensor(v)


def _flatten(out):
    if out is None:
        return []
    if isinstance(out, (list, tuple)):
        return [x for o in out for x in _flatten(o)]
    return [out]


def _rebuild(structure, values):
    it = iter(values)

    def go(s):
        if s is None:
            return None
        if isinstance(s, (list, tuple)):
            return type(s)(go(x) for x in s)
        return next(it)

    return go(structure)


class _Cond:
    def __init__(self, true_gm, false_gm, n_true):
        self.__name__ = self.__qualname__ = "conditional_block"  # (the node name fx gives the call)
        self.true_gm, self.false_gm, self.n_true = true_gm, false_gm, n_true

    def __call__(self, pred, *caps):
        if bool(pred):
            return tuple(self.true_gm(*caps[:self.n_true]))
        return tuple(self.false_gm(*caps[self.n_true:]))


def _is_static_pred(pred):
    return _prog._state is not None and _prog.is_var(getattr(pred, "_t", None))


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """true_fn() if pred else false_fn(); both branches must return the same structure."""
    if true_fn is not None and not callable(true_fn):
        raise TypeError(f"The true_fn in cond must be callable, but received {type(true_fn).__name__}")
    if false_fn is not None and not callable(false_fn):
        raise TypeError(f"The false_fn in cond must be callable, but received {type(false_fn).__name__}")
    if not _is_static_pred(pred):
        if bool(pred.item() if hasattr(pred, "item") else pred):
            return true_fn() if true_fn is not None else None
        return false_fn() if false_fn is not None else None
    if list(pred.shape) not in ([], [1]):
        raise TypeError(f"The shape of pred in cond must be [] or [1], but received {list(pred.shape)}")
    t = _SubGraph(true_fn or (lambda: None))
    f = _SubGraph(false_fn or (lambda: None))
    if len(t.fakes) != len(f.fakes):
        raise ValueError("true_fn and false_fn of cond must return the same number of outputs, but received "
                         f"{len(t.fakes)} and {len(f.fakes)}")
    if not t.fakes:
        _prog._record(_Cond(t.gm, f.gm, len(t.captures)), (pred._t, *_outer(t), *_outer(f)), {},
                      compute=lambda *a: None, force=True)
        return None
    outs = _prog._record(_Cond(t.gm, f.gm, len(t.captures)), (pred._t, *_outer(t), *_outer(f)), {},
                         compute=lambda *a: tuple(torch.empty_like(x) for x in t.fakes))
    return _rebuild(t.structure, [_normalize.wrap(o) for o in outs])


def _outer(sub):
    """The outer values a sub-graph captured, as tensors the recorder can resolve."""
    return [n.meta["val"] if "val" in n.meta else n for n in sub.captures]


class _While:
    def __init__(self, cond_gm, body_gm, n_vars, n_cond):
        self.__name__ = self.__qualname__ = "while_loop"  # (the node name fx gives the call)
        self.cond_gm, self.body_gm, self.n_vars, self.n_cond = cond_gm, body_gm, n_vars, n_cond

    def __call__(self, *inputs):
        vs = inputs[:self.n_vars]
        cc = inputs[self.n_vars:self.n_vars + self.n_cond]
        bc = inputs[self.n_vars + self.n_cond:]
        while bool(self.cond_gm(*vs, *cc)[0]):
            vs = tuple(self.body_gm(*vs, *bc))
        return tuple(vs)


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Run body on loop_vars while cond(*loop_vars) holds; returns the final loop_vars (a list)."""
    if not callable(cond):
        raise TypeError("cond in while_loop should be callable")
    if not callable(body):
        raise TypeError("body in while_loop should be callable")
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError("loop_vars in while_loop should be a list or tuple")
    if len(loop_vars) == 0:
        raise ValueError("loop_vars in while_loop should not be empty")
    pred = cond(*loop_vars)
    if not _is_static_pred(pred):  # dynamic mode: a Python loop
        while bool(pred.item() if hasattr(pred, "item") else pred):
            out = body(*loop_vars)
            loop_vars = list(out) if isinstance(out, (list, tuple)) else [out]
            pred = cond(*loop_vars)
        return list(loop_vars)
    tensors = [_as_torch(v) for v in loop_vars]
    fakes = [t if _prog.is_var(t) else _prog.fake_of(t) for t in tensors]
    c = _SubGraph(cond, fakes)
    b = _SubGraph(lambda *a: body(*a), fakes)
    if len(b.fakes) != len(fakes):
        raise ValueError(f"body in while_loop should return the same arity (length and structure) as loop_vars: "
                         f"{len(fakes)} loop vars, {len(b.fakes)} returned")
    outs = _prog._record(_While(c.gm, b.gm, len(fakes), len(c.captures)),
                         (*tensors, *_outer(c), *_outer(b)), {},
                         compute=lambda *a: tuple(torch.empty_like(x) for x in fakes))
    return [_normalize.wrap(o) for o in outs]


def case(pred_fn_pairs, default=None, name=None):
    """The fn of the first true pred (else default, else the last pair's fn), as nested conds."""
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise TypeError(f"The type of 'pred_fn_pairs' in case must be list or tuple, but received "
                        f"{type(pred_fn_pairs).__name__}")
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError("The elements' type of 'pred_fn_pairs' in case must be tuple of length 2")
        if not callable(pair[1]):
            raise TypeError("The fn of 'pred_fn_pairs' in case must be callable")
    pairs = list(pred_fn_pairs)
    if default is None:
        pairs, default = pairs[:-1], pairs[-1][1]

    def chain(i):
        if i == len(pairs):
            return default()
        pred, fn = pairs[i]
        return cond(pred, fn, lambda: chain(i + 1))

    return chain(0)


def switch_case(branch_index, branch_fns, default=None, name=None):
    """branch_fns[branch_index]() (a dict, a list of (index, fn) pairs or a list of fns), else default."""
    from ...tensor.logic import equal

    if isinstance(branch_fns, dict):
        items = list(branch_fns.items())
    elif isinstance(branch_fns, (list, tuple)):
        items = list(branch_fns) if branch_fns and isinstance(branch_fns[0], tuple) else list(enumerate(branch_fns))
    else:
        raise TypeError(f"The type of 'branch_fns' in switch_case must be dict, list or tuple, but received "
                        f"{type(branch_fns).__name__}")
    for k, fn in items:
        if not isinstance(k, int):
            raise TypeError(f"The key's type of 'branch_fns' in switch_case must be int, but received "
                            f"{type(k).__name__}")
        if not callable(fn):
            raise TypeError(f"The type of function for key {k} in 'branch_fns' in switch_case must be callable")
    items.sort(key=lambda kv: kv[0])
    if default is None:
        items, default = items[:-1], items[-1][1]
    if not _is_static_pred(branch_index):
        idx = int(branch_index.item() if hasattr(branch_index, "item") else branch_index)
        return dict(items).get(idx, default)()
    pairs = [(equal(branch_index, _full_like(branch_index, k)), fn) for k, fn in items]
    return case(pairs, default)


def _full_like(x, v):
    from ...tensor.creation import full_like

    return full_like(x, v)
