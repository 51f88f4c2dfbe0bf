"""The C++ fast path of the hottest ops (ext/fastpath.cpp), as the wrappers see it.

`install(entries)` is called once by paddle_on_torch/_fastpath.py (above this layer: it loads the C++ module)
when the kernels module has the fast path.  From then on:
- the Tensor operators named in `OPERATORS` are method descriptors of the C++ module, whose miss (another
  dtype, a DTensor, static mode, auto_cast, an error, ...) calls the generated Python operator;
- the generated wrapper of each function in `FUNCTIONS` starts with the prologue below: when every argument
  other than the operands is at its default, the C++ entry is tried first and its answer returned unless it
  is `_MISS` (then the wrapper goes on as before).
`uninstall()` puts the Python operators back and turns the prologues off (`_fast = None`).  torch.compile must
trace Python code (dynamo cannot look into a C++ function: a graph break), and a compiled entry's guards read
the prologues' `_fast`; so a to_static call turns the function entries off for its duration (`functions_off`),
and one that may trace puts the Python operators back as well (`suspended()`).  Eager code keeps the fast path.
Both paths compute the same thing (the C++ one takes only calls whose meaning is the same: floating dtypes, one
dtype per call, Python numbers as torch passes them); tests/test_fastpath.py compares them.
"""
import contextlib

OPERATORS = ("__add__", "__sub__", "__mul__", "__truediv__", "__matmul__", "__radd__", "__rsub__", "__rmul__",
             "__rtruediv__", "__getitem__")
# public name -> number of tensor operands the C++ entry takes positionally
FUNCTIONS = {"paddle.add": 2, "paddle.subtract": 2, "paddle.multiply": 2, "paddle.divide": 2,
             "paddle.maximum": 2, "paddle.minimum": 2, "paddle.matmul": 2, "paddle.reshape": 2,
             "paddle.tanh": 1, "paddle.exp": 1, "paddle.sqrt": 1, "paddle.rsqrt": 1, "paddle.sigmoid": 1,
             "paddle.log": 1, "paddle.sin": 1, "paddle.cos": 1, "paddle.abs": 1, "paddle.neg": 1,
             "paddle.nn.functional.relu": 1, "paddle.sum": 1, "paddle.mean": 1}

_MODULE = None       # the C++ module while the fast path is installed
_NAMESPACES = {}     # public name -> the generated wrapper's globals (its `_fast` is the C++ entry or None)
_PYTHON_OPERATORS = {}  # operator name -> the generated Python method it replaced
_TENSOR = [None]        # the Tensor class whose operators are switched
_BUILT_FOR = [None]     # the module whose entries the two tables below hold (made once, then swapped in and out)
_FAST_OPERATORS = {}    # operator name -> its C++ method descriptor
_FAST_ENTRIES = {}      # public name -> its C++ function entry
_FUNCTIONS_OFF = [False]  # inside functions_off(): the prologues' entries stay None


def prologue(api, params, ns):
    """The first lines of the generated wrapper of `api` (a public name in FUNCTIONS), else []: try the C++
    entry when the arguments other than the operands are at their defaults.  `params`: the wrapper's header
    ((name, kind, default): see codegen._params); `ns`: its globals."""
    n = FUNCTIONS.get(api)
    if n is None:
        return []
    from .converters import _MISSING

    pos = [p for p in params if p[1] in ("pos", "kwonly")]
    if len(pos) < n or any(k in ("var", "varkw") for _, k, _ in params):
        return []
    operands = [name for name, _, _ in pos[:n]]
    rest = [f"{name} is _d_{name}" for name, _, default in pos[n:]
            if name != "name" and default is not _MISSING and not _is_required(default)]
    # a keyword alias (dim= for axis, input= for x: default _MISSING) given is an argument off its default too
    rest += [f"{name} is _MISSING" for name, _, default in pos[n:] if default is _MISSING]
    _NAMESPACES[api] = ns
    ns["_fast"] = _entry(api) if _MODULE is not None and not _FUNCTIONS_OFF[0] else None
    ns["_MISS"] = _MODULE.fastpath_miss if _MODULE is not None else None
    cond = " and ".join(["_fast is not None"] + rest)
    return [f"if {cond}:",
            f"    r = _fast({', '.join(operands)})",
            "    if r is not _MISS: return r"]


def _is_required(default):
    import inspect

    return default is inspect.Parameter.empty


def install(module, tensor_cls):
    """Give the Tensor operators and the function wrappers the C++ entries of `module` (the kernels module)."""
    global _MODULE
    if _BUILT_FOR[0] is not module:  # the C++ entries are made once per module; switching is then a swap
        _FAST_OPERATORS.clear()
        _FAST_ENTRIES.clear()
        for name in OPERATORS:
            python_op = _PYTHON_OPERATORS.get(name) or tensor_cls.__dict__[name]
            method = module.fastpath_operator(name, python_op)
            if method is not None:
                _PYTHON_OPERATORS[name] = python_op
                _FAST_OPERATORS[name] = method
        _BUILT_FOR[0] = module
    _MODULE = module
    _TENSOR[0] = tensor_cls
    _switch_on()


def _entry(api):
    fn = _FAST_ENTRIES.get(api)
    if fn is None:
        fn = _FAST_ENTRIES[api] = _MODULE.fastpath_function(api.rsplit(".", 1)[1])
    return fn


def _switch_on():
    for name, method in _FAST_OPERATORS.items():
        setattr(_TENSOR[0], name, method)
    if not _FUNCTIONS_OFF[0]:
        _functions_to_entries()


def _functions_to_entries():
    for api, ns in _NAMESPACES.items():
        ns["_fast"] = _entry(api)
        ns["_MISS"] = _MODULE.fastpath_miss


def uninstall():
    """Back to the Python code everywhere (before torch.compile traces: dynamo must meet Python)."""
    global _MODULE
    if _MODULE is None:
        return
    _MODULE = None
    for name, python_op in _PYTHON_OPERATORS.items():
        setattr(_TENSOR[0], name, python_op)
    for ns in _NAMESPACES.values():
        ns["_fast"] = None


def installed():
    return _MODULE is not None


@contextlib.contextmanager
def suspended():
    """The Python path for the duration (a torch.compile trace), then the fast path again if it was on."""
    global _MODULE
    module = _MODULE
    if module is None:
        yield
        return
    uninstall()
    try:
        yield
    finally:
        _MODULE = module
        _switch_on()


def functions_off():
    """Turn the function wrappers' C++ entries off, not Tensor's operators (switching a type's special methods
    costs ~10 us: it updates its subclasses' slots).  Returns a token for functions_on."""
    if _MODULE is None or _FUNCTIONS_OFF[0]:
        return False
    _FUNCTIONS_OFF[0] = True
    for ns in _NAMESPACES.values():
        ns["_fast"] = None
    return True


def functions_on(token):
    """Undo functions_off (given what it returned)."""
    if token:
        _FUNCTIONS_OFF[0] = False
        if _MODULE is not None:
            _functions_to_entries()
