"""The source-to-source half of the control-flow conversion: a function's AST, rewritten so that
every `if` / `while` / `for` / `and` / `or` / `not` goes through the run-time operators
(operators.py) with explicit inputs and outputs.

Passes, in order (each skips nested function and class definitions, which run as written):
  1. private names are mangled as the class body would have, and `super()` gets its arguments,
     because the rewritten function is compiled outside its class;
  2. `for` loops become `while` loops over an index (`range(...)` and `enumerate(...)` directly,
     anything else through operators.for_sequence), so that a loop over a Tensor can become a
     while_loop;
  3. `break` / `continue` become flags, the statements after them in the loop body are guarded by
     `if not flag`, and the loop test gets `and not break_flag`; a `return` inside a loop becomes
     a return flag and value plus a `break`, re-raised after the loop as `if flag: return value`;
  4. early returns: the statements after an `if` that returns on some paths move into the
     branches that fall through, so every `if` containing a `return` returns on all paths and
     becomes `return convert_ifelse(...)`;
  5. `a and b`, `a or b`, `not a`, `x if c else y`, `assert` become operator calls (the operands
     still evaluate lazily, in Python's order);
  6. each `if` / `while` becomes branch (or condition and body) functions taking the variables the
     statement assigns and returning those that are read afterwards, called through
     convert_ifelse / convert_while; every such variable is bound to an UndefinedVar at entry;
  7. calls to user functions and Layers go through convert_call, which converts them in turn.
"""
import ast
import builtins
import copy
import itertools

JST = "_pot_jst"
_PREFIX = "_pot_"
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


# ===================================================================== small AST helpers
def _name(id_, ctx=None):
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def _jst(attr):
    return ast.Attribute(value=_name(JST), attr=attr, ctx=ast.Load())


def _call(func, *args):
    return ast.Call(func=func, args=list(args), keywords=[])


def _const(v):
    return ast.Constant(value=v)


def _assign(target, value):
    if isinstance(target, str):
        target = _name(target, ast.Store())
    return ast.Assign(targets=[target], value=value, lineno=0)


def _lambda(body):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                         kwarg=None, defaults=[]), body=body)


def _funcdef(name, params, body):
    return ast.FunctionDef(
        name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
                                      kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
        body=body or [ast.Pass()], decorator_list=[], returns=None, type_params=[])


def _tuple(names, ctx=None):
    return ast.Tuple(elts=[_name(n, ctx) for n in names], ctx=ctx or ast.Load())


def _walk_scope(node):
    """ast.walk that does not enter nested functions, lambdas or classes (their bodies are other scopes)."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for child in ast.iter_child_nodes(n):
            if isinstance(child, _SCOPES):
                yield child  # the definition itself (its name is bound here), not its body
                continue
            todo.append(child)


def _stmts_walk(stmts):
    for s in stmts:
        yield from _walk_scope(s)


def stores(stmts):
    """Names bound by these statements in the current scope, in order of appearance."""
    out = []
    for n in _stmts_walk(stmts):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.append(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            out.extend((a.asname or a.name).split(".")[0] for a in n.names if a.name != "*")
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.append(n.name)
        elif isinstance(n, _COMPREHENSIONS):
            # comprehension targets are their own scope; only walrus targets leak out
            pass
    return list(dict.fromkeys(out))








def _terminates(stmts):
    return bool(stmts) and _stmt_terminates(stmts[-1])


def _stmt_terminates(s):
    if isinstance(s, (ast.Return, ast.Raise)):
        return True
    if isinstance(s, ast.If):
        return _terminates(s.body) and _terminates(s.orelse)
    if isinstance(s, ast.With):
        return _terminates(s.body)
    return False


def _has_return(s):
    return any(isinstance(n, ast.Return) for n in _walk_scope(s))


# ===================================================================== the transformer
class Transformer:
    """Rewrites one FunctionDef (see the module docstring); `changed` says whether anything was."""

    def __init__(self, fdef, class_name=None, library_module=None, global_names=None):
        self.fdef = fdef
        self.class_name = class_name
        self.library_module = library_module or (lambda name: True)
        self.global_names = global_names or {}
        self.counter = itertools.count(1)
        self.changed = False
        self.declared = set()  # global / nonlocal names of the function
        for n in _stmts_walk(fdef.body):
            if isinstance(n, (ast.Global, ast.Nonlocal)):
                self.declared.update(n.names)
        a = fdef.args
        self.params = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs] + \
            [x.arg for x in (a.vararg, a.kwarg) if x is not None]
        self.slots = []  # every variable a generated function takes, for the UndefinedVar bindings
        self.return_flag = None
        self.prologue = []  # statements for the start of the function (the return flag of loops)
        self.generated = set()  # names of the generated branch / loop functions
        self.called_globals, self.called_self_attrs = set(), set()  # callees to convert ahead (dynamo cannot)

    def fresh(self, what):
        return f"{_PREFIX}{what}_{next(self.counter)}"

    def run(self):
        f = self.fdef
        self._mangle_and_super()
        f.body = self._for_to_while(f.body)
        f.body = self._loop_flags(f.body)
        if not _terminates(f.body):
            f.body.append(ast.Return(value=None))
        f.body = self._early_return(f.body)
        self.locals = (set(self.params) | set(stores(f.body))) - self.declared
        self._logical(f)
        self.live = self._liveness(f)
        f.body = self._control_flow(f.body)
        self._calls(f)
        hoist = [n for n in dict.fromkeys(self.slots) if n not in self.params]
        f.body = [_assign(n, _call(_jst("UndefinedVar"), _const(n))) for n in hoist] + self.prologue + f.body
        return f

    # ------------------------------------------------------------------ 1. names
    def _mangle_and_super(self):
        first = self.params[0] if self.params else None
        prefix = "_" + self.class_name.lstrip("_") if self.class_name else None

        def mangle(name):
            if prefix and name.startswith("__") and not name.endswith("__") and prefix != "_":
                return prefix + name
            return name

        for n in ast.walk(self.fdef):
            if isinstance(n, ast.Attribute):
                n.attr = mangle(n.attr)
            elif isinstance(n, ast.Name) and n is not self.fdef:
                n.id = mangle(n.id)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "super" \
                    and not n.args and not n.keywords and first is not None:
                n.args = [_name("__class__"), _name(first)]

    # ------------------------------------------------------------------ 2. for -> while
    def _for_to_while(self, stmts):
        out = []
        for s in stmts:
            self._recurse(s, self._for_to_while)
            if isinstance(s, ast.For):
                out.extend(self._convert_for(s))
                self.changed = True
            else:
                out.append(s)
        return out

    def _recurse(self, s, fn):
        """Apply a block pass to the statement blocks inside `s` (not into nested scopes)."""
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt) and not isinstance(s, _SCOPES):
                setattr(s, field, fn(block))
        for h in getattr(s, "handlers", None) or []:
            h.body = fn(h.body)

    def _is_builtin(self, call, name, nargs):
        return (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == name
                and name not in self.global_names and nargs(call)
                and not any(isinstance(a, ast.Starred) for a in call.args))

    def _convert_for(self, s):
        i, seq, n, stop, step = (self.fresh(w) for w in ("i", "seq", "n", "stop", "step"))
        pre, header = [], []
        it = s.iter
        if self._is_builtin(it, "range", lambda c: 1 <= len(c.args) <= 3 and not c.keywords):
            pre.append(ast.Assign(targets=[_tuple([i, stop, step], ast.Store())],
                                  value=_call(_jst("range_args"), *it.args)))
            test = _call(_jst("range_cond"), _name(i), _name(stop), _name(step))
            header.append(ast.Assign(targets=[s.target], value=_name(i)))
            header.append(_assign(i, ast.BinOp(left=_name(i), op=ast.Add(), right=_name(step))))
        else:
            start = None
            if self._is_builtin(it, "enumerate", lambda c: len(c.args) in (1, 2) and all(
                    k.arg == "start" for k in c.keywords) and len(c.args) + len(c.keywords) <= 2):
                start = it.args[1] if len(it.args) == 2 else it.keywords[0].value if it.keywords else None
                source = it.args[0]
            else:
                source = it
            pre.append(_assign(seq, _call(_jst("for_sequence"), source)))
            pre.append(_assign(n, _call(_jst("convert_len"), _name(seq))))
            pre.append(_assign(i, _const(0)))
            test = _call(_jst("range_cond"), _name(i), _name(n), _const(1))
            item = _call(_jst("seq_item"), _name(seq), _name(i))
            if it is not source:  # enumerate: (index, item)
                index = _name(i) if start is None else ast.BinOp(left=_name(i), op=ast.Add(), right=start)
                item = ast.Tuple(elts=[index, item], ctx=ast.Load())
            header.append(ast.Assign(targets=[s.target], value=item))
            header.append(_assign(i, ast.BinOp(left=_name(i), op=ast.Add(), right=_const(1))))
        w = ast.While(test=test, body=header + s.body, orelse=s.orelse)
        w._pot_header = len(header)
        for node in pre + [w] + header:
            ast.copy_location(node, s)
        return pre + [w]

    # ------------------------------------------------------------------ 3. break / continue / return in loops
    def _loop_flags(self, stmts):
        out = []
        for s in stmts:
            self._recurse(s, self._loop_flags)  # inner loops first
            if isinstance(s, ast.While):
                out.extend(self._flag_loop(s))
            else:
                out.append(s)
        return out

    def _own(self, stmts, types_):
        """Nodes of `types_` in these statements that belong to this loop (not to a nested loop)."""
        found = []
        todo = list(stmts)
        while todo:
            n = todo.pop()
            if isinstance(n, types_):
                found.append(n)
            if isinstance(n, (ast.While, ast.For) + _SCOPES):
                if isinstance(n, (ast.While, ast.For)) and ast.Return in types_:
                    todo.extend(x for x in ast.walk(n) if isinstance(x, ast.Return) and not isinstance(x, _SCOPES))
                continue
            todo.extend(ast.iter_child_nodes(n))
        return found

    def _flag_loop(self, w):
        after = []
        has_ret = bool(self._own(w.body, (ast.Return,)))
        has_brk = bool(self._own(w.body, (ast.Break,))) or has_ret
        has_cont = bool(self._own(w.body, (ast.Continue,)))
        if not (has_brk or has_cont):
            if w.orelse:
                after, w.orelse = w.orelse, []
            return [w] + after
        self.changed = True
        brk = self.fresh("break") if has_brk else None
        cont = self.fresh("continue") if has_cont else None
        if has_ret and self.return_flag is None:
            self.return_flag = (self.fresh("returned"), self.fresh("retval"))
            self.prologue += [_assign(self.return_flag[0], _const(False)), _assign(self.return_flag[1], _const(None))]

        def replace(stmts):
            res = []
            for s in stmts:
                if isinstance(s, ast.Break):
                    res.append(ast.copy_location(_assign(brk, _const(True)), s))
                elif isinstance(s, ast.Continue):
                    res.append(ast.copy_location(_assign(cont, _const(True)), s))
                elif isinstance(s, ast.Return):
                    rf, rv = self.return_flag
                    res.extend(ast.copy_location(x, s) for x in (
                        _assign(rv, s.value if s.value is not None else _const(None)),
                        _assign(rf, _const(True)), _assign(brk, _const(True))))
                else:
                    if not isinstance(s, (ast.While, ast.For)):
                        self._recurse(s, replace)
                    else:  # a nested loop: only the returns it kept (as `if returned: return value`)
                        pass
                    res.append(s)
            return res

        flags = [f for f in (brk, cont) if f]
        header = getattr(w, "_pot_header", 0)
        body = replace(w.body)
        body = body[:header] + self._guard(body[header:], flags)
        if cont:
            body.insert(0, _assign(cont, _const(False)))
        w.body = body
        if brk:
            w.test = _call(_jst("And"), _lambda(_call(_jst("Not"), _name(brk))), _lambda(w.test))
        pre = [_assign(brk, _const(False))] if brk else []
        if cont:
            pre.append(_assign(cont, _const(False)))
        if w.orelse:
            after.append(ast.If(test=_call(_jst("Not"), _name(brk)), body=w.orelse, orelse=[]) if brk else w.orelse)
            w.orelse = []
        if has_ret:
            rf, rv = self.return_flag
            after.append(ast.If(test=_name(rf), body=[ast.Return(value=_name(rv))], orelse=[]))
        res = pre + [w] + [x for a in after for x in (a if isinstance(a, list) else [a])]
        for node in res:
            ast.copy_location(node, w)
        return res

    def _sets_flag(self, s, flags):
        return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in flags
                   for n in _walk_scope(s) if not isinstance(n, (ast.While, ast.For)))

    def _guard(self, stmts, flags):
        out = []
        for k, s in enumerate(stmts):
            if isinstance(s, (ast.While, ast.For)) or not self._sets_flag(s, flags):
                out.append(s)
                continue
            self._recurse(s, lambda b: self._guard(b, flags))
            out.append(s)
            rest = stmts[k + 1:]
            if rest:
                test = _name(flags[0]) if len(flags) == 1 else \
                    _call(_jst("Or"), _lambda(_name(flags[0])), _lambda(_name(flags[1])))
                guard = ast.If(test=_call(_jst("Not"), test), body=self._guard(rest, flags), orelse=[])
                out.append(ast.copy_location(guard, rest[0]))
            return out
        return out

    # ------------------------------------------------------------------ 4. early returns
    def _early_return(self, stmts):
        out = []
        for k, s in enumerate(stmts):
            if isinstance(s, ast.If) and _has_return(s) and not _stmt_terminates(s):
                rest = stmts[k + 1:]
                if rest:
                    self.changed = True
                    if not _terminates(s.body):
                        s.body = s.body + copy.deepcopy(rest)
                    if not _terminates(s.orelse):
                        s.orelse = s.orelse + copy.deepcopy(rest)
                s.body, s.orelse = self._early_return(s.body), self._early_return(s.orelse)
                out.append(s)
                return out
            if isinstance(s, (ast.If, ast.With)):
                self._recurse(s, self._early_return)
            out.append(s)
            if _stmt_terminates(s):
                return out  # what follows is dead code
        return out

    # ------------------------------------------------------------------ 5. and / or / not / ternary / assert
    def _logical(self, f):
        tr = self

        class Logical(ast.NodeTransformer):
            def visit_FunctionDef(self, node):
                return node if node is not f else self.generic_visit(node)

            visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

            def visit_Lambda(self, node):
                return node

            def visit_BoolOp(self, node):
                self.generic_visit(node)
                if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
                    return node
                tr.changed = True
                fn = _jst("And" if isinstance(node.op, ast.And) else "Or")
                expr = node.values[-1]
                for v in reversed(node.values[:-1]):
                    expr = _call(fn, _lambda(v), _lambda(expr))
                return ast.copy_location(expr, node)

            def visit_UnaryOp(self, node):
                self.generic_visit(node)
                if isinstance(node.op, ast.Not):
                    tr.changed = True
                    return ast.copy_location(_call(_jst("Not"), node.operand), node)
                return node

            def visit_IfExp(self, node):
                self.generic_visit(node)
                if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
                    return node
                tr.changed = True
                return ast.copy_location(_call(_jst("convert_ifexp"), node.test, _lambda(node.body),
                                               _lambda(node.orelse)), node)

            def visit_Assert(self, node):
                self.generic_visit(node)
                tr.changed = True
                args = [node.test] + ([_lambda(node.msg)] if node.msg is not None else [])
                return ast.copy_location(ast.Expr(value=_call(_jst("convert_assert"), *args)), node)

        Logical().visit(f)

    # ------------------------------------------------------------------ 6. if / while -> functions
    def _liveness(self, f):
        """For each if / while: the names read anywhere in the function outside it (a conservative
        'used afterwards', loops included)."""
        def reads(node):
            counts = {}
            for n in ast.walk(node):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                    counts[n.id] = counts.get(n.id, 0) + 1
            return counts

        counts = reads(f)
        live = {}

        def visit(node, loop_reads):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.If, ast.While)):
                    inner = reads(child)
                    # inside a loop, what the statement reads itself is read again by the next iteration (a
                    # counter `idx += 1` in a branch, read by that branch next time round)
                    live[id(child)] = {k for k, c in counts.items() if c > inner.get(k, 0)} | loop_reads
                visit(child, set(reads(child)) if isinstance(child, (ast.While, ast.For)) else loop_reads)

        visit(f, set())
        return live

    def _control_flow(self, stmts):
        out = []
        for s in stmts:
            self._recurse(s, self._control_flow)
            if isinstance(s, ast.If):
                out.extend(self._convert_if(s))
            elif isinstance(s, ast.While):
                out.extend(self._convert_while(s))
            else:
                out.append(s)
        return out

    def _decls(self, names):
        """global / nonlocal declarations a generated function needs to assign these names."""
        g = [n for n in names if n in self.declared]
        if not g:
            return []
        nonlocal_ = [n for n in g if any(isinstance(x, ast.Nonlocal) and n in x.names for x in _stmts_walk(
            self.fdef.body))]
        glob = [n for n in g if n not in nonlocal_]
        return ([ast.Nonlocal(names=nonlocal_)] if nonlocal_ else []) + ([ast.Global(names=glob)] if glob else [])

    def _slot_names(self, *blocks):
        names = []
        for b in blocks:
            names.extend(n for n in stores(b) if n in self.locals or n.startswith(_PREFIX))
        return list(dict.fromkeys(n for n in names if n not in self.declared and n not in self.generated))

    def _convert_if(self, s):
        self.changed = True
        tname, fname = self.fresh("true"), self.fresh("false")
        self.generated.update((tname, fname))
        params = self._slot_names(s.body, s.orelse)
        self.slots.extend(params)
        decls = self._decls(stores(s.body) + stores(s.orelse))
        if _has_return(s):  # returns on all paths (early-return pass): the result is the return value
            tf = _funcdef(tname, params, decls + s.body)
            ff = _funcdef(fname, params, decls + (s.orelse or [ast.Return(value=None)]))
            call = _call(_jst("convert_ifelse"), s.test, _name(tname), _name(fname), _tuple(params), _const(None))
            res = [tf, ff, ast.Return(value=call)]
        else:
            live = self.live.get(id(s), set())
            outs = [p for p in params if p in live]
            in_true, in_false = set(stores(s.body)), set(stores(s.orelse))
            info = [(o, 1 * (o in in_true) + 2 * (o in in_false), params.index(o)) for o in outs]
            ret = ast.Return(value=_tuple(outs))
            tf = _funcdef(tname, params, decls + s.body + [ret])
            ff = _funcdef(fname, params, decls + s.orelse + [copy.deepcopy(ret)])
            call = _call(_jst("convert_ifelse"), s.test, _name(tname), _name(fname), _tuple(params),
                         ast.Tuple(elts=[ast.Tuple(elts=[_const(v) for v in i], ctx=ast.Load()) for i in info],
                                   ctx=ast.Load()))
            res = [tf, ff, ast.Assign(targets=[_tuple(outs, ast.Store())], value=call) if outs else ast.Expr(call)]
        for node in res:
            ast.copy_location(node, s)
            ast.fix_missing_locations(node)
        return res

    def _convert_while(self, s):
        self.changed = True
        cname, bname = self.fresh("cond"), self.fresh("body")
        self.generated.update((cname, bname))
        params = self._slot_names(s.body, [ast.Expr(s.test)])
        self.slots.extend(params)
        decls = self._decls(stores(s.body))
        cf = _funcdef(cname, params, [ast.Return(value=s.test)])
        bf = _funcdef(bname, params, decls + s.body + [ast.Return(value=_tuple(params))])
        call = _call(_jst("convert_while"), _name(cname), _name(bname), _tuple(params),
                     ast.Tuple(elts=[_const(p) for p in params], ctx=ast.Load()))
        res = [cf, bf, ast.Assign(targets=[_tuple(params, ast.Store())], value=call) if params else ast.Expr(call)]
        res += s.orelse
        for node in res:
            ast.copy_location(node, s)
            ast.fix_missing_locations(node)
        return res

    # ------------------------------------------------------------------ 7. calls
    def _calls(self, f):
        tr = self
        first = self.params[0] if self.params else None
        skip_names = set(dir(builtins)) - {"print"}

        class Calls(ast.NodeTransformer):
            def visit_FunctionDef(self, node):
                if node is f or node.name.startswith(_PREFIX):
                    return self.generic_visit(node)
                return node

            visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

            def visit_Call(self, node):
                self.generic_visit(node)
                if tr._wants_conversion(node.func, first, skip_names):
                    tr.changed = True
                    node.func = ast.copy_location(_call(_jst("convert_call"), node.func), node.func)
                return node

        Calls().visit(f)

    def _wants_conversion(self, func, first, skip_names):
        if isinstance(func, ast.Name):
            if func.id.startswith(_PREFIX) or func.id == JST:
                return False
            if func.id in self.locals or func.id in self.declared:
                return True  # a local callable: decided when it is called
            if func.id in skip_names and func.id not in self.global_names:
                return False
            v = self.global_names.get(func.id)
            if v is not None and not self.library_module(v):
                self.called_globals.add(func.id)
            return v is None or not self.library_module(v)
        if isinstance(func, ast.Attribute):
            root = func
            while isinstance(root, ast.Attribute):
                root = root.value
            if not isinstance(root, ast.Name) or root.id == JST:
                return False
            if root.id == first and first in ("self", "cls") or root.id == first and self.class_name:
                if func.value is root:
                    self.called_self_attrs.add(func.attr)
                return True
            if root.id in self.locals:
                return False  # a method of a local value (a Tensor's, mostly)
            v = self.global_names.get(root.id)
            return v is not None and not self.library_module(v)
        return False
