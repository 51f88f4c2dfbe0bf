"""How a callable's signature and accepted keywords are read: one code path for real Paddle (the recorder,
tools/record_signatures.py, under the oracle) and for paddle_on_torch (tests/test_signature_parity.py).

Paddle 3.3 adds torch-style keyword aliases in two ways that `inspect.signature` does not show: Python decorators
(paddle/utils/decorator_utils.py; each copies the undecorated signature onto its wrapper) and the C++ argument
parsers of the ops bound straight onto `paddle` (python_api_info.yaml's `args_alias`).  So a keyword is *accepted*
when calling with it alone does not fail on the keyword itself: Python's "got an unexpected keyword argument 'k'"
or the C++ parser's "has too many arguments".  Anything else (a missing argument, a type error on the sentinel
value, ...) means the keyword got past the parser.  The alias *targets* come from the decorators' own tables,
read from their closures (`alias_targets`).
"""
import inspect
import math
import signal
import types

# Keywords worth probing beside a callable's own parameters and its torch namesake's: Paddle 3.3's torch-style
# names (collected from decorator_utils.py's tables and the ops' args_alias entries).
COMMON_ALIASES = ("input", "other", "dim", "dims", "keepdims", "out", "size", "tensors", "values", "source",
                  "indices", "sections", "indices_or_sections", "dim0", "dim1", "dim2", "start_dim", "end_dim",
                  "output_size", "sizes", "boundaries", "type", "vec", "vec2", "mat2", "lambd", "eps", "affine",
                  "return_indices", "non_blocking", "requires_grad", "device", "pin_memory", "tensor", "src",
                  "correction", "unbiased", "exponent", "split_size_or_sections", "reduce", "memory_format", "dtype")


class ProbeSentinel:
    """The value every probe passes: no API accepts it as a real argument, so an accepted keyword fails later
    (Paddle's C++ parsers name its type in their error: "... but got ProbeSentinel")."""

    def __repr__(self):
        return "<probe>"


SENT = ProbeSentinel()


def default_desc(v):
    """A default as JSON: plain values as themselves, anything else by its repr (a dtype, a class, ...)."""
    if v is inspect.Parameter.empty:
        return {"required": True}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"repr": repr(v)}
    if isinstance(v, (list, tuple)) and all(e is None or isinstance(e, (bool, int, float, str)) for e in v):
        return {"seq": list(v)}
    return {"repr": _short_repr(v)}


def _short_repr(v):
    if isinstance(v, type):
        return f"<class {v.__name__}>"
    if isinstance(v, types.FunctionType):
        return f"<function {v.__name__}>"
    r = repr(v)
    return r if " at 0x" not in r else r.split(" at 0x")[0] + ">"


_KINDS = {inspect.Parameter.POSITIONAL_ONLY: "posonly", inspect.Parameter.POSITIONAL_OR_KEYWORD: "pos",
          inspect.Parameter.VAR_POSITIONAL: "var", inspect.Parameter.KEYWORD_ONLY: "kwonly",
          inspect.Parameter.VAR_KEYWORD: "varkw"}


def params(fn, drop_self=False):
    """[[name, kind, default], ...] of inspect.signature(fn), or None where it has none (a C builtin)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    out = [[p.name, _KINDS[p.kind], default_desc(p.default)] for p in sig.parameters.values()]
    if drop_self and out and out[0][0] in ("self", "cls"):
        out = out[1:]
    return out


def alias_targets(fn):
    """{alias: target} read from the decorators between `fn` and the function it wraps (`__wrapped__` chain):
    the alias tables they keep in their closures (ParamAliasDecorator's alias_mapping, param_one_alias's
    alias_list, ...).  Hard-coded renames inside a wrapper's body are not tables; the probe finds those."""
    out = {}
    seen = set()
    while fn is not None and id(fn) not in seen:
        seen.add(id(fn))
        code = getattr(fn, "__code__", None)
        cells = getattr(fn, "__closure__", None) or ()
        if code is not None:
            for name, cell in zip(code.co_freevars, cells):
                try:
                    v = cell.cell_contents
                except ValueError:
                    continue
                if name in ("alias_list", "alias_list1", "alias_list2") and isinstance(v, (list, tuple)) \
                        and len(v) == 2:
                    out.setdefault(v[1], v[0])
                elif hasattr(v, "alias_mapping") and isinstance(v.alias_mapping, dict):
                    for a, t in v.alias_mapping.items():
                        out.setdefault(a, t)
            if getattr(fn, "__wrapped__", None) is not None:  # a decorator's wrapper: its hard-coded renames
                _renames_in_code(code, out)
        fn = getattr(fn, "__wrapped__", None)
    return out


def _renames_in_code(code, out):
    """`kwargs[target] = kwargs.pop(alias)` and `kwargs[target] = kwargs.pop(alias, ...)` in a wrapper's body (the
    decorators that rename hard-coded keywords: tensor_split's, view's, index_add's, ...): alias -> target."""
    import dis

    ins = list(dis.get_instructions(code))
    for i, a in enumerate(ins):
        if a.opname in ("LOAD_ATTR", "LOAD_METHOD") and a.argval == "pop" and i + 1 < len(ins) \
                and ins[i + 1].opname == "LOAD_CONST" and isinstance(ins[i + 1].argval, str):
            alias = ins[i + 1].argval
            for j in range(i + 2, min(i + 14, len(ins))):
                if ins[j].opname == "STORE_SUBSCR":
                    key = ins[j - 1]
                    if key.opname == "LOAD_CONST" and isinstance(key.argval, str) and key.argval != alias:
                        out.setdefault(alias, key.argval)
                    break
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            _renames_in_code(c, out)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def refused(exc, keyword):
    """Whether an exception says the keyword itself was refused (not some later problem)."""
    msg = str(exc)
    if isinstance(exc, TypeError) and "unexpected keyword argument" in msg and repr(keyword) in msg:
        return True
    if "has too many arguments" in msg:  # Paddle's C++ parser on an unknown keyword
        return True
    return False


def unparsed(exc):
    """A C++ parser's failure on an earlier required argument left out (the keyword was not reached yet)."""
    msg = str(exc)
    return "but got None" in msg and "ProbeSentinel" not in msg


LAST_ERROR = [None]  # the message of the last probe's failure (a C++ parser names the argument it was parsing)


def accepts(call, keyword):
    """Whether `call(**{keyword: SENT})` gets past the keyword (True), refuses it (False); a probe that hangs, or
    whose C++ parser stopped at an earlier argument left out, is None.  `call(**kw)` makes the actual call (it
    adds the positional arguments the callable needs first)."""
    LAST_ERROR[0] = None
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        call(**{keyword: SENT})
        return True
    except _Timeout:
        return None
    except BaseException as e:  # noqa: BLE001 - any other failure means the keyword was taken
        LAST_ERROR[0] = str(e)
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            if isinstance(e, KeyboardInterrupt):
                raise
            return True
        if refused(e, keyword):
            return False
        return None if unparsed(e) else True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def torch_param_names(torch, path):
    """Parameter names of torch's namesake of a Paddle API (`torch.roll`, `torch.nn.Conv2d.__init__`,
    `torch.Tensor.view`), from its signature or the first line of its docstring; [] when torch has none."""
    obj = torch
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return []
    try:
        return [n for n in inspect.signature(obj).parameters if n not in ("self", "args", "kwargs")]
    except (TypeError, ValueError):
        pass
    doc = (getattr(obj, "__doc__", None) or "").strip().splitlines()
    names = []
    for line in doc[:3]:
        line = line.strip()
        if "(" in line and ")" in line:
            inside = line[line.index("(") + 1:line.rindex(")")]
            for part in inside.split(","):
                part = part.strip().lstrip("*").split("=")[0].split(":")[0].strip()
                if part.isidentifier() and part not in ("self", "args", "kwargs"):
                    names.append(part)
            break
    return names
