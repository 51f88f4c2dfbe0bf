"""paddle.autograd.PyLayer (alias Function) and PyLayerContext over torch.autograd.Function.

Each PyLayer subclass gets a torch.autograd.Function twin (made by the metaclass).  `apply` hands the
twin the torch tensors found among the arguments (top level, in lists/tuples, in keywords); the twin's
forward calls the user's forward with the original paddle arguments and a PyLayerContext, and its
backward wraps the incoming gradients, calls the user's backward and checks what came back the way
Paddle does (one entry per tensor argument, None for a stop_gradient one).  torch runs forward under
no_grad and backward with grad enabled exactly when create_graph is set, as Paddle does, so PyLayers
work inside double-backward graphs.
"""
import torch

from .._normalize import wrap
from ..tensor.tensor import Tensor

__all__ = ["PyLayer", "PyLayerContext", "once_differentiable"]


class PyLayerContext:
    """The `ctx` a PyLayer's forward and backward receive."""

    # set by the methods below; read with defaults (Paddle declares them without values)
    container: tuple
    not_inplace_tensors: tuple
    non_differentiable: tuple
    materialize_grads: bool
    grad_in_dtype_consistent: bool

    def set_grad_in_dtype_consistent(self, flag):
        # Deviation: torch always casts an incoming gradient to its output's dtype, so `False`
        # cannot keep a gradient's own dtype; the flag is recorded only.
        self.grad_in_dtype_consistent = flag

    def save_for_backward(self, *tensors):
        self.container = tensors

    def saved_tensor(self):
        return getattr(self, "container", None)

    def mark_not_inplace(self, *args):
        self.not_inplace_tensors = args

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value


def _bad(cls, msg):
    return ValueError(f"(InvalidArgument) GradNodePyLayer_{cls.__name__}{msg}")


class _Call:
    """What one `apply` passes through torch's Function.apply to the twin (not a tensor, so torch
    leaves it alone)."""

    __slots__ = ("cls", "args", "kwargs", "positions", "out_layout", "inplace", "recorded")


def _make_twin(cls):
    def forward(tctx, call, *flat):
        pyl = call.cls
        pctx = pyl._backward_function()
        out = pyl.forward(pctx, *call.args, **call.kwargs)
        seq = out if isinstance(out, (tuple, list)) else (out,)
        tensors = [v._t for v in seq if isinstance(v, Tensor)]
        if not tensors:
            raise ValueError(f"(InvalidArgument) {pyl.__name__} : At least one output of `PyLayer.forward` "
                             "is a `Tensor`.")
        # an input returned as it is: Paddle treats it as an in-place result unless mark_not_inplace
        not_inplace = {id(v) for v in getattr(pctx, "not_inplace_tensors", ())}
        inputs = {id(t): t for t in flat}
        call.inplace = {}  # output number -> the input Tensor it is
        for k, v in enumerate(v for v in seq if isinstance(v, Tensor)):
            if id(v._t) in inputs and id(v) not in not_inplace:
                t = v._t
                if t.requires_grad and t.is_leaf and call.recorded:
                    raise ValueError(f"(InvalidArgument) {pyl.__name__} : Leaf Var ({v.name}) that doesn't stop "
                                     "gradient can't use inplace strategy.")
                call.inplace[k] = v
        call.out_layout = (type(out) if isinstance(out, (tuple, list)) else None, list(seq))
        saved = getattr(pctx, "container", None)
        if saved is not None:
            tctx.save_for_backward(*[v._t for v in saved if isinstance(v, Tensor)])
            pctx._saved_layout = [None if isinstance(v, Tensor) else v for v in saved]
            pctx._saved_is_tensor = [isinstance(v, Tensor) for v in saved]
            pctx.container = None  # rebuilt from torch's saved tensors in backward
        nondiff = getattr(pctx, "non_differentiable", ())
        if nondiff:
            tctx.mark_non_differentiable(*[v._t for v in nondiff])
        # materialised here, not by torch: Paddle's zero gradients have stop_gradient=True
        tctx.set_materialize_grads(False)
        if getattr(pctx, "materialize_grads", True):
            tctx.out_meta = [(t.shape, t.dtype, t.device) for t in tensors]
        tctx.pctx = pctx
        tctx.positions = call.positions
        return tuple(tensors)

    def backward(tctx, *grads):
        pyl = cls
        pctx = tctx.pctx
        if getattr(pctx, "_saved_is_tensor", None) is not None:
            it = iter(tctx.saved_tensors)
            pctx.container = tuple(wrap(next(it)) if is_t else v
                                   for is_t, v in zip(pctx._saved_is_tensor, pctx._saved_layout))
        meta = getattr(tctx, "out_meta", None)
        if meta is not None:
            gs = [wrap(torch.zeros(m[0], dtype=m[1], device=m[2])) if g is None else _grad_in(g)
                  for g, m in zip(grads, meta)]
        else:
            gs = [None if g is None else _grad_in(g) for g in grads]
        ret = pyl.backward(pctx, *gs)
        rets = ret if isinstance(ret, tuple) else (ret,)
        positions = tctx.positions
        if len(rets) > len(positions):
            raise _bad(pyl, f" : The number of outputs of `PyLayer.backward` should be {len(positions)}, but "
                            f"received {len(rets)}.")
        flat_grads = [None] * sum(len(p) for _, p in positions)
        needs = tctx.needs_input_grad[1:]
        for pos, (is_seq, idxs) in enumerate(positions):
            if pos >= len(rets):
                if any(needs[i] for i in idxs):
                    raise _bad(pyl, f"'s backward function should not return empty at {pos} position.")
                continue
            r = rets[pos]
            if is_seq:
                if not isinstance(r, (list, tuple)):
                    raise ValueError(f"(InvalidArgument) argument must be list or tuple, but got "
                                     f"{type(r).__name__}")
                items = list(r)
            else:
                items = [r]
            for i, g in zip(idxs, items):
                if g is None:
                    continue
                if not isinstance(g, Tensor):
                    raise _bad(pyl, f" : We can only support Tensor or None for backward output, but got "
                                    f"{type(g).__name__}, please check your PyLayer code and make it fits")
                if not needs[i]:
                    raise _bad(pyl, f"'s backward function should return None at {pos} position, because it's "
                                    "forward Tensor's stopgradient is true.")
                flat_grads[i] = g._t
        return (None, *flat_grads)

    return type(cls.__name__, (torch.autograd.Function,),
                {"forward": staticmethod(forward), "backward": staticmethod(backward)})


class PyLayerMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        cls._backward_function = type(name + "_backward", (PyLayerContext,), {"_forward_cls": cls})
        cls._twin = _make_twin(cls)


class PyLayer(PyLayerContext, metaclass=PyLayerMeta):
    """A custom operator: subclass with static `forward(ctx, ...)` and `backward(ctx, *grads)`,
    then call `apply`."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx, *args):
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args, **kwargs):
        flat, positions = [], []

        def collect(v):
            if isinstance(v, Tensor):
                positions.append((False, [len(flat)]))
                flat.append(v._t)
            elif isinstance(v, (list, tuple)) and any(isinstance(e, Tensor) for e in v):
                idxs = []
                for e in v:
                    if isinstance(e, Tensor):
                        idxs.append(len(flat))
                        flat.append(e._t)
                positions.append((True, idxs))

        for v in args:
            collect(v)
        for v in kwargs.values():
            collect(v)
        call = _Call()
        call.cls, call.args, call.kwargs, call.positions = cls, args, kwargs, positions
        call.recorded = recorded = torch.is_grad_enabled() and any(t.requires_grad for t in flat)
        outs = cls._twin.apply(call, *flat)
        kind, seq = call.out_layout
        call.args = call.kwargs = call.out_layout = None
        it = iter(enumerate(outs))
        result = []
        for v in seq:
            if not isinstance(v, Tensor):
                result.append(v)
                continue
            k, t = next(it)
            src = call.inplace.get(k)
            if src is not None:  # in-place: the input Tensor itself now carries the result
                src._t = t
                v = src
            elif v._t is not t:
                v = wrap(t)
            # else: the Tensor forward returned, now carrying the graph (torch attached it in place)
            if recorded and not t.requires_grad and not t.dtype.is_floating_point and not t.dtype.is_complex:
                v.__dict__["_claims_grad"] = True  # Paddle: every output of a recorded PyLayer wants grads
            result.append(v)
        if kind is None:
            return result[0]
        return kind(result)


def _grad_in(g):
    g = wrap(g)
    g.__dict__["_claims_grad"] = True  # Paddle hands backward gradients with stop_gradient=False
    return g


def once_differentiable(backward):
    """Run a PyLayer's backward under no_grad (its result is not differentiable again)."""

    def wrapper(ctx, *args):
        with torch.no_grad():
            return backward(ctx, *args)

    return wrapper
