"""paddle.Tensor: Paddle's semantics over one torch tensor.

A Tensor is a small Python object holding a torch tensor in `_t` (see
docs/architecture.md for why a wrapper and not a torch.Tensor subclass).
Storage, autograd history, device and DTensor-ness all live in `_t`; the
wrapper adds Paddle's view of them (`stop_gradient`, `place`, `paddle.Size`
shapes, the repr).  This file holds only what is intrinsic to the object;
the hundreds of math / manipulation methods are the `paddle.*` functions,
bound onto the class by `paddle_on_torch.tensor.methods` from one table.
"""
import itertools

import numpy as np
import torch

from .. import _normalize
from . import _above
from .._core import dtype as _dtypes
from .._core.dtype import VarType
from .._core.place import Place

__all__ = ["Tensor", "Size", "TensorSize"]


class Size(list):
    """`Tensor.shape`: a list of ints that prints as `paddle.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self):
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__

    def __getitem__(self, i):
        r = super().__getitem__(i)  # (not list.__getitem__(self, i): dynamo traces super() calls)
        return Size(r) if isinstance(i, slice) else r

    def __add__(self, other):
        return Size(list.__add__(self, list(other)))

    def __eq__(self, other):
        return list.__eq__(self, list(other)) if isinstance(other, (list, tuple)) else NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n


class TensorSize(int):
    """`Tensor.size`: the element count, an int that also answers `x.size()` / `x.size(dim)`."""

    def __call__(self, dim=None):
        if dim is None:
            return Size(self._shape)
        return self._shape[dim]


_name_counter = itertools.count()
_static_view = None  # static mode's, once it has been on (Variables print differently): _set_static_view
_DIFFERENTIABLE = (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                   torch.complex128)


def _size_kw(size, kw, api):
    """new_empty / new_ones / new_zeros' `size=`: the sizes given by keyword instead of positionally."""
    if kw:
        extra = set(kw) - {"size"}
        if extra:
            raise TypeError(f"Tensor.{api}() got an unexpected keyword argument '{sorted(extra)[0]}'")
        if size:
            raise TypeError(f"Tensor.{api}() got multiple values for argument 'size'")
        return (kw["size"],)
    return size


class Tensor:
    """A Paddle Tensor.  `paddle.to_tensor` is the usual way to make one."""

    __slots__ = ("_t", "__dict__", "__weakref__")
    # numpy defers to our reflected operators (np.float32(2) * x gives a Tensor)
    __array_priority__ = 100

    def __init__(self, *args, **kwargs):
        """Paddle 3.3's constructor forms: `Tensor()` (empty float32), `Tensor(2, 3)` (uninitialised float32 of that
        shape), `Tensor([1, 2])` / `Tensor(data=[1, 2])` (float32 from the data), each with `device=` (default the
        CPU); anything else is the classic form, `Tensor(value, dtype, place, stop_gradient, name, ...)`."""
        if kwargs.get("device") is not None or "data" in kwargs or not (args or kwargs) or \
                (len(args) == 1 and isinstance(args[0], (list, tuple)) and not kwargs) or \
                (args and not kwargs and all(isinstance(a, int) for a in args)):
            from .creation import _as_torch, to_torch_device

            device = to_torch_device(kwargs.pop("device", None) or "cpu")
            if "data" in kwargs:
                self._t = _as_torch(kwargs.pop("data"), torch.float32, device)
            elif len(args) == 1 and isinstance(args[0], (list, tuple)):
                self._t = _as_torch(args[0], torch.float32, device)
            elif args and all(isinstance(a, int) for a in args):
                self._t = torch.empty(list(args), dtype=torch.float32, device=device)
            elif not args and not kwargs:
                self._t = torch.empty([0], dtype=torch.float32, device=device)
            else:
                self._init_value(*args, **kwargs)
                return
            return
        self._init_value(*args, **kwargs)

    def _init_value(self, data=None, dtype=None, place=None, stop_gradient=True, name=None, persistable=False,
                    zero_copy=False):
        from .creation import _as_torch, to_torch_device

        if zero_copy and isinstance(data, np.ndarray) and dtype is None and to_torch_device(place).type == "cpu":
            self._t = torch.from_numpy(data)  # Paddle's zero_copy: the Tensor shares the array's memory
        else:
            self._t = _as_torch(np.zeros([0], np.float32) if data is None else data, dtype, place)
        if persistable:
            self.persistable = True
        if not stop_gradient:
            self.stop_gradient = False
        if name is not None:
            self.name = name

    # ------------------------------------------------------------ attributes
    @property
    def shape(self):
        if _static_view is None:
            return Size(self._t.shape)
        return _static_view(self, "shape") or Size(self._t.shape)  # a static-mode Variable shows -1 dims

    @property
    def dtype(self):
        return _dtypes._by_torch[self._t.dtype]

    @property
    def place(self):
        return Place(self._t.device)

    @property
    def ndim(self):
        return self._t.dim()

    @property
    def size(self):
        s = TensorSize(self._t.numel())
        s._shape = list(self._t.shape)
        return s

    @property
    def stop_gradient(self):
        d = self.__dict__
        if "_grad_view" in d:  # a .grad Tensor: the flag lives with the gradient slot, set through any read of it
            stops = getattr(self._t, "_paddle_grad_stops", None)
            if stops is not None:
                return stops
        if "_claims_grad" in d:  # see the grad property and the setter below
            return False
        return not self._t.requires_grad

    @stop_gradient.setter
    def stop_gradient(self, value):
        t = self._t
        if "_grad_view" in self.__dict__:  # a .grad Tensor: Paddle keeps the flag with the gradient itself
            t._paddle_grad_stops = bool(value)
        if not value:
            if t.dtype in _DIFFERENTIABLE:
                if not t.requires_grad:
                    t.requires_grad_(True)
            else:  # Paddle lets integer tensors claim gradients; torch cannot track them
                self.__dict__["_claims_grad"] = True
        else:
            self.__dict__.pop("_claims_grad", None)
            if t.requires_grad:
                # torch cannot turn off grad on a non-leaf: cut the history instead
                self._t = t.requires_grad_(False) if t.is_leaf else t.detach()

    @property
    def requires_grad(self):
        return not self.stop_gradient

    @requires_grad.setter
    def requires_grad(self, value):
        self.stop_gradient = not value

    @property
    def is_leaf(self):
        return self._t.is_leaf

    @property
    def grad(self):
        g = self._t.grad
        if g is None:
            return None
        stops = getattr(g, "_paddle_grad_stops", None)
        g = _normalize.wrap(g)
        g.__dict__["_grad_view"] = True
        # Paddle reports a gradient with stop_gradient=False; one its run_program op computed for a loaded
        # program's parameter (paddle.jit.load's TranslatedLayer) with True; one assigned (x.grad = t) or set
        # (x.grad.stop_gradient = ...) with the flag it was given, on every later read
        if stops is None:
            stops = bool(self.__dict__.get("_grad_from_program"))
        if not stops:
            g.__dict__["_claims_grad"] = True
        return g

    @grad.setter
    def grad(self, value):
        if value is None:
            self._t.grad = None
            return
        # Paddle copies the value into the gradient slot (later writes to the value do not reach it), and the slot
        # keeps its own flag: False for a gradient backward made (or as set since), True for a slot the assignment
        # creates; the assigned Tensor's flag is not read
        old, src = self._t.grad, _normalize.to_torch(value).detach()
        if old is not None and (old.shape, old.dtype, old.device) == (src.shape, src.dtype, src.device):
            with torch.no_grad():
                old.copy_(src)
            return
        t = src.clone()
        t._paddle_grad_stops = True if old is None else getattr(old, "_paddle_grad_stops", False)
        self._t.grad = t

    def _grad_ivar(self):
        """The gradient Tensor (None before a backward), as Paddle's private accessor that libraries call."""
        return self.grad

    @property
    def name(self):
        n = self.__dict__.get("name")
        if n is None:
            if _static_view is not None:  # a static-mode Variable: the name its program node answers to
                n = _static_view(self, "name")
            if n is None:
                n = f"generated_tensor_{next(_name_counter)}"
            self.__dict__["name"] = n
        return n

    @name.setter
    def name(self, value):
        self.__dict__["name"] = value

    @property
    def persistable(self):
        return self.__dict__.get("persistable", False)

    @persistable.setter
    def persistable(self, value):
        self.__dict__["persistable"] = bool(value)

    @property
    def data(self):
        return _normalize.wrap(self._t.detach())

    @data.setter
    def data(self, value):
        self._t.data = _normalize.to_torch(value)

    @property
    def T(self):
        t = self._t
        return _normalize.wrap(t.permute(*range(t.dim() - 1, -1, -1)))

    @property
    def mT(self):
        return _normalize.wrap(self._t.transpose(-2, -1))

    @property
    def type(self):
        return VarType.DENSE_TENSOR  # paddle.base.core.VarDesc.VarType: paddle_on_torch has dense tensors only

    @property
    def layout(self):
        return "NCHW"  # Paddle's dense tensors report their data layout, not torch's strided layout

    @property
    def device(self):
        d = self._t.device
        return "cpu" if d.type == "cpu" else f"{'gpu' if d.type == 'cuda' else d.type}:{d.index or 0}"

    def get_device(self):
        """The device index (-1 on the CPU)."""
        d = self._t.device
        return -1 if d.type == "cpu" else (d.index or 0)

    @property
    def is_cuda(self):
        return self._t.is_cuda

    @property
    def itemsize(self):
        return self._t.element_size()

    @property
    def strides(self):
        return list(self._t.stride())

    @property
    def offset(self):
        return self._t.storage_offset() * self._t.element_size()

    @property
    def inplace_version(self):
        return self._t._version

    @property
    def grad_fn(self):
        return self._t.grad_fn

    # ------------------------------------------------------------ conversion
    def numpy(self, force=False):
        t = _global(self._t)
        if t is None:  # a distributed Tensor this process holds no part of: Paddle's empty array
            t = torch.empty(list(self._t.shape) + [0], dtype=self._t.dtype)  # (no elements: nothing is read)
        t = t.detach()
        if t.dtype is torch.bfloat16:  # numpy has no bfloat16: Paddle hands out the raw uint16
            t = t.view(torch.uint16)
        # Paddle's numpy() is a copy: later in-place updates (clear_grad, optimizer steps) must not show
        return t.cpu().resolve_conj().numpy().copy()

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def item(self, *args):
        t = _global(self._t)
        if t is None:  # a distributed Tensor this process holds no part of: None, as in Paddle
            if not self.is_dist():  # (a dense one without a value: Paddle's read past its empty memory)
                raise RuntimeError("(PreconditionNotMet) Tensor's dimension is out of bound.Tensor's dimension must "
                                   "be equal or less than the size of its memory.")
            return None
        if args:
            t = t[args] if len(args) > 1 else t.reshape(-1)[args[0]]
        elif t.numel() != 1:
            raise ValueError("(InvalidArgument) only one element tensor can be converted to Python scalar, but got a "
                             "tensor "
                             f"with {t.numel()} elements")
        return t.item()

    def tolist(self):
        t = _global(self._t)
        return self.numpy().tolist() if t is None else t.tolist()

    def __len__(self):
        if self._t.dim() == 0:
            raise TypeError("len() of a 0-D tensor")
        return self._t.shape[0]

    def __bool__(self):
        if self._t.numel() != 1:
            # Paddle raises AssertionError here (its check is an assert)
            raise AssertionError("When Variable is used as the condition of if/while , Variable can only "
                                 "contain one element.")
        t = _global(self._t)
        return False if t is None else bool(t)  # (held by no part here: an empty value, as in Paddle)

    def __int__(self):
        return int(self._number("int"))

    def __float__(self):
        return float(self._number("float"))

    def __complex__(self):
        return complex(self._number("complex"))

    def _number(self, what):
        if self._t.numel() != 1 and self._t.dim() != 0:  # (Paddle's check is an assert)
            raise AssertionError(f"only one element variable can be converted to {what}.")
        t = _global(self._t)
        if t is None:
            raise _above.distributed().not_held_error(self, what)
        return t.item()

    def __index__(self):
        if self._t.dtype.is_floating_point or self._t.dtype.is_complex or self._t.numel() != 1:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self._t.item())

    def __format__(self, spec):
        if self._t.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __iter__(self):
        if self._t.dim() == 0:
            raise TypeError("iteration over a 0-D tensor")
        return (_normalize.wrap(r) for r in self._t.unbind(0))

    def __hash__(self):
        return id(self)

    def __repr__(self):
        from .to_string import tensor_to_string

        if _static_view is not None and type(self._t) is not torch.Tensor:
            r = _static_view(self, "repr")  # a static-mode Variable prints as Paddle's Value
            if r is not None:
                return r
        if self._t.is_meta:  # no value (LazyGuard, unshard_dtensor outside the mesh): Paddle's uninitialised print
            return "Tensor(Not initialized)"
        return tensor_to_string(self)

    __str__ = __repr__

    def __dlpack__(self, stream=None):
        return self._t.detach().__dlpack__(stream=stream) if stream is not None else self._t.detach().__dlpack__()

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()

    def __deepcopy__(self, memo):
        new = _normalize.wrap(self._t.detach().clone().requires_grad_(self._t.requires_grad))
        new.__dict__.update({k: v for k, v in self.__dict__.items() if k != "name"})
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self.numpy() if self._t.dtype is not torch.bfloat16 else self._t.detach().cpu(),
                           self.stop_gradient))

    # ------------------------------------------------------------ autograd
    def backward(self, grad_tensor=None, retain_graph=False, *, create_graph=False):
        t = self._t
        if not t.requires_grad:
            return  # Paddle: backward from a tensor that needs no gradient does nothing
        grad = torch.ones_like(t) if grad_tensor is None else _normalize.to_torch(grad_tensor)
        t.backward(grad, retain_graph=retain_graph or create_graph, create_graph=create_graph)

    def clear_gradient(self, set_to_zero=True):
        g = self._t.grad
        if g is not None:
            if set_to_zero:
                g.zero_()
            else:
                self._t.grad = None

    def clear_grad(self, set_to_zero=True):
        self.clear_gradient(set_to_zero)

    def register_hook(self, hook):
        def torch_hook(g):
            g = _normalize.wrap(g)
            g.__dict__["_claims_grad"] = True  # Paddle hands hooks a gradient with stop_gradient=False
            r = hook(g)
            return None if r is None else _normalize.to_torch(r)

        return self._t.register_hook(torch_hook)

    def detach(self):
        return _normalize.wrap(self._t.detach())

    def detach_(self):
        self._t = self._t.detach()
        return self

    def clone(self):
        return _normalize.wrap(self._t.clone())

    # ------------------------------------------------------------ device and layout
    def cpu(self):
        return _normalize.wrap(self._t.cpu())

    def _copy_to(self, place, blocking=True):
        """A copy on `place`, outside the autograd graph (PaddleNLP's checkpoint loading moves tensors so)."""
        from .._core.place import to_torch_device

        copy = _normalize.wrap(self._t.detach().to(to_torch_device(place), copy=True))
        copy.name = self.name  # (Paddle copies the name; its op outputs, unnamed until asked, get fresh ones)
        return copy

    def cuda(self, device_id=None, blocking=True):
        return _normalize.wrap(self._t.cuda(device_id, non_blocking=not blocking))

    def pin_memory(self, blocking=True):  # (blocking: Paddle 3.3's; the copy here is always blocking)
        return _normalize.wrap(self._t.pin_memory())

    def is_contiguous(self):
        return self._t.is_contiguous()

    def contiguous(self):
        return _normalize.wrap(self._t.contiguous())

    def element_size(self):
        return self._t.element_size()

    def dim(self):
        return self._t.dim()

    ndimension = dim

    def is_dense(self):
        return self._t.layout is torch.strided

    # ------------------------------------------------------------ distributed: a DTensor behind `_t`
    def is_dist(self):
        return getattr(self._t, "device_mesh", None) is not None

    @property
    def placements(self):
        return _above.distributed().placements_of(self) if self.is_dist() else None

    @property
    def process_mesh(self):
        return _above.distributed().process_mesh_of(self) if self.is_dist() else None

    def _local_value(self):
        """This rank's shard of a distributed Tensor (the Tensor itself when it is dense).  A process outside the
        tensor's mesh has none: it gets the tensor back, which reads as Paddle's uninitialised one does."""
        if not self.is_dist():
            return self
        return _normalize.wrap(self._t.to_local()) if _above.distributed().holds_piece(self._t) else self

    @property
    def _local_shape(self):
        """The shape of this rank's piece of a distributed Tensor, as a list (None for a dense one)."""
        return list(self._t.to_local().shape) if self.is_dist() else None

    def _use_gpudnn(self, use_gpudnn=True):
        """The same values as a new Tensor, gradients flowing through (Paddle marks whether kernels may use cuDNN;
        the shim has no such switch).  PaddleNLP's auto-parallel criterion calls it."""
        return _normalize.wrap(self._t.view_as(self._t))

    def is_sparse(self):
        return self._t.layout is not torch.strided  # COO and CSR alike, as Paddle counts them

    def is_sparse_coo(self):
        return self._t.layout is torch.sparse_coo

    def is_sparse_csr(self):
        return self._t.layout is torch.sparse_csr

    def is_selected_rows(self):
        return False

    def _is_initialized(self):
        if self.is_dist():  # False where this process holds no part of a distributed Tensor, as in Paddle
            return _above.distributed().holds_piece(self._t)
        return not self._t.is_meta

    def value(self):
        return self

    def get_tensor(self):
        """The underlying dense tensor, printed the way Paddle prints its DenseTensor."""
        return _DenseTensorView(self)

    def set_(self, source=None, shape=None, stride=None, offset=0, name=None):
        """Make this Tensor a view of `source`'s storage (or empty), as torch's set_ does."""
        t = self._t
        with torch.no_grad():
            if source is None:
                t.set_()
            else:
                src = source._t
                shape = list(src.shape) if shape is None else list(shape)
                stride = list(torch.empty(shape).stride()) if stride is None else list(stride)
                t.set_(src.untyped_storage(), src.storage_offset() + offset // src.element_size(), shape, stride)
        return self

    def _share_buffer_to(self, dst):
        """Paddle's private Tensor._share_buffer_to: `dst` keeps its shape, takes this tensor's dtype, and reads
        and writes this tensor's memory from then on (no copy; PaddleFormers' MoE FakeClone)."""
        src = self._t
        if dst._t.numel() > src.numel():  # Paddle lets dst read past the end of the buffer; we refuse
            raise ValueError(f"_share_buffer_to: the destination's {dst._t.numel()} elements do not fit in this "
                             f"tensor's {src.numel()}")
        dst._t = src.new_empty(0).set_(src.untyped_storage(), src.storage_offset(), dst._t.shape)
        return dst

    def _is_shared_buffer_with(self, other):
        return self._t.untyped_storage().data_ptr() == other._t.untyped_storage().data_ptr()

    def _numel(self):
        return self._t.numel()

    def stride(self, dim=None):
        return list(self._t.stride()) if dim is None else self._t.stride(dim)

    def get_strides(self):
        return list(self._t.stride())

    def data_ptr(self):
        return self._t.data_ptr()

    def retain_grads(self):
        if not self._t.is_leaf and self._t.requires_grad:
            self._t.retain_grad()

    def to(self, *args, **kwargs):
        """Tensor.to(device=None, dtype=None, blocking=None), positional in any order, or like a Tensor."""
        from .._core.place import to_torch_device

        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        for a in args:
            if isinstance(a, Tensor):
                device, dtype = a._t.device, a._t.dtype
            elif isinstance(a, (Place, torch.device)) or (isinstance(a, str) and _is_device_name(a)):
                device = a
            elif isinstance(a, bool):
                pass  # blocking
            else:
                dtype = a
        from .manipulation import cast

        out = self if dtype is None else cast(self, dtype)  # a new tensor even for the same dtype, as in Paddle
        if device is None:
            return out
        t = out._t.to(to_torch_device(device))
        return out if t is out._t else _normalize.wrap(t)

    def _to(self, device=None, dtype=None, blocking=None, copy_tensor=None):
        """Paddle's private Tensor._to(device, dtype, blocking, copy_tensor), what `to` parses its arguments into:
        this tensor when nothing is asked, else a copy on that device / with that dtype."""
        if device is None and dtype is None and blocking is None:
            return self
        if device is not None and not isinstance(device, (str, Place)):
            raise ValueError("device value error, must be str, paddle.CPUPlace(), paddle.CUDAPlace(), "
                             "paddle.CUDAPinnedPlace(), paddle.XPUPlace() or paddle.CustomPlace(), but the type of "
                             f"device is {type(device).__name__}")
        out = self if dtype is None else self.astype(dtype)  # astype: Paddle's stop_gradient for integer results
        return out if device is None else out.to(device=device)

    def apply(self, func):
        """A new Tensor: `func` applied to this one (Paddle refuses tensors that need gradients)."""
        if self._t.requires_grad:
            raise RuntimeError("Cannot apply function on a tensor that required gradient.")
        return func(self)

    def apply_(self, func):
        if self._t.requires_grad:
            raise RuntimeError("Cannot apply function on a tensor that required gradient.")
        with torch.no_grad():
            self._t.copy_(func(self)._t)
        return self

    # ------------------------------------------------------------ new tensors like this one
    def _new(self, factory, size, dtype, *args, requires_grad=False):
        from .._normalize import _shape

        dt = self._t.dtype if dtype is None else _dtypes.to_torch_dtype(dtype)
        t = factory(_shape(size), *args, dtype=dt, device=self._t.device)
        return _normalize.wrap(t.requires_grad_(requires_grad) if requires_grad else t)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False, pin_memory=False):
        return self._new(torch.full, size, dtype, fill_value, requires_grad=requires_grad)

    # new_empty / new_ones / new_zeros take the size as a list or as separate ints (x.new_ones(3, 3))
    # (or as size=, Paddle 3.3's keyword)
    def new_empty(self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False, **kw):
        return self._new(torch.empty, _size_args(_size_kw(size, kw, "new_empty")), dtype, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False, **kw):
        return self._new(torch.ones, _size_args(_size_kw(size, kw, "new_ones")), dtype, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False, **kw):
        return self._new(torch.zeros, _size_args(_size_kw(size, kw, "new_zeros")), dtype, requires_grad=requires_grad)

    # ------------------------------------------------------------ in-place writes

    def set_value(self, value):
        src = value._t if isinstance(value, Tensor) else torch.as_tensor(np.asarray(value))
        if list(src.shape) != list(self._t.shape):
            # Paddle checks this with an assert, so its error type is AssertionError
            raise AssertionError(f"Variable Shape not match, Variable [ {self.name} ] need tensor with shape "
                                 f"{list(self._t.shape)} but load set tensor with shape {list(src.shape)}")
        dst = self._t
        src = src.to(dst.dtype)
        if type(src) is torch.Tensor and self.is_dist():
            # a dense value (a checkpoint written by one process) into a distributed tensor: each rank
            # keeps its own piece of it, no communication
            from torch.distributed.tensor import distribute_tensor

            src = distribute_tensor(src.to(dst.device), dst.device_mesh, dst.placements, src_data_rank=None)
        with torch.no_grad():
            if type(dst) is torch.Tensor or type(dst) is torch.nn.Parameter:
                # Paddle overwrites the buffer without counting an in-place write (inplace_version stays):
                # a graph that saved this tensor reads the new values in its backward instead of refusing
                # (MAML's set_value on cloned parameters between create_graph gradients)
                dst.data.copy_(src)
            else:
                dst.copy_(src)

    def copy_(self, other, blocking=True, non_blocking=False):
        from .inplace import _check

        _check(self)
        with torch.no_grad():
            self._t.copy_(other._t if isinstance(other, Tensor) else torch.as_tensor(other))
        return self

    def reconstruct_from_(self, other):
        """`self = other` in place: self shares other's data, dtype and gradient history; its name stays."""
        if not isinstance(other, Tensor):
            raise ValueError(f"(InvalidArgument) argument (position 1) must be Tensor, but got "
                             f"{type(other).__name__}")
        self._t = other._t
        self.__dict__.pop("_claims_grad", None)
        if "_claims_grad" in other.__dict__:
            self.__dict__["_claims_grad"] = True

    # ------------------------------------------------------------ dtype shorthands (Paddle 3.3)
    def float(self):
        return self.astype("float32")

    def double(self):
        return self.astype("float64")

    def half(self):
        return self.astype("float16")

    def bfloat16(self):
        return self.astype("bfloat16")

    def int(self):
        return self.astype("int32")

    def long(self):
        return self.astype("int64")

    def short(self):
        return self.astype("int16")

    def char(self):
        return self.astype("int8")

    def byte(self):
        return self.astype("uint8")

    def bool(self):
        return self.astype("bool")

    def cfloat(self):
        return self.astype("complex64")

    def cdouble(self):
        return self.astype("complex128")

    def type_as(self, other):
        return self.astype(other.dtype)

    # ------------------------------------------------------------ small Paddle extras
    def requires_grad_(self, requires_grad=True):
        self.stop_gradient = not requires_grad
        return self

    def is_same_shape(self, y):
        return list(self._t.shape) == list(y._t.shape)

    def gradient(self):
        """Deprecated in Paddle (use .grad): the gradient as a numpy array, or None."""
        g = self._t.grad
        return None if g is None else g.detach().cpu().numpy()

    def resize_(self, shape, fill_zero=False, name=None):
        t = self._t
        n = t.numel()
        with torch.no_grad():
            t.resize_([int(s) for s in shape])
            if fill_zero and t.numel() > n:
                t.view(-1)[n:] = 0
        return self


for _name in ("float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "complex64",
              "complex128"):
    if _name not in Tensor.__dict__:
        setattr(Tensor, _name, (lambda n: lambda self: self.astype(n))(_name))


def _global(t):
    """The value a Paddle user means: for a DTensor, the global one (Paddle's item/numpy read it); None for a
    tensor without a value (a meta one: what unshard_dtensor leaves a process outside the mesh, as Paddle's
    uninitialised tensor there)."""
    if type(t) is torch.Tensor or getattr(t, "device_mesh", None) is None:
        return None if t.is_meta else t
    return _above.distributed().global_value(t)


def _size_args(size):
    return size[0] if len(size) == 1 and not isinstance(size[0], int) else list(size)


class _DenseTensorView:
    def __init__(self, x):
        self._x = x

    def __repr__(self):
        t = self._x._t
        data = t.detach().reshape(-1).cpu().tolist()
        return (f"  - shape: {list(t.shape)}\n  - layout: NCHW\n  - place: {self._x.place}\n"
                f"  - dtype: {self._x.dtype._short}\n  - data: [{' '.join(f'{v:g}' for v in data)}]")

    __str__ = __repr__

    def shape(self):
        return list(self._x._t.shape)

    def _dtype(self):
        return self._x.dtype


def _is_device_name(s):
    return s.split(":")[0] in ("cpu", "gpu", "cuda", "xpu", "npu", "mps", "meta", "xla")


def _rebuild(data, stop_gradient):
    from .creation import to_tensor

    return to_tensor(data, stop_gradient=stop_gradient)


def _set_static_view(view):
    global _static_view
    _static_view = view


_normalize.register_tensor(Tensor, _set_static_view)
