"""Random tensors (paddle.tensor.random).

On the CPU they are Paddle's numbers bit for bit: the samplers of paddle_on_torch._core.random draw from Paddle's
CPU generator with Paddle's kernels (ext/random.cpp), in the order Paddle's Python draws them.  On CUDA they come
from torch's generator (other numbers, the same distributions).  Shapes, dtypes and argument checks agree with
Paddle 3.3.1: float factories take float dtypes only, randint / randperm take integer (randperm also float)
dtypes, uniform draws from [0, 1) by default, and normal / log_normal with Tensor mean or std follow that tensor's
dtype.  random_() without bounds still draws from torch's generator.
"""

import torch

from .._normalize import (DTypeLike, OptionalPlace, PlaceLike, RequiresGrad, ScalarLike, ShapeArgs, ShapeLike,
                          TensorLike, int_arg, is_tensor, op)
from .._normalize.wrapping import static_mode
from .._core import dtype as _dtypes
from .._core import random as _rng
from .._core.place import current_torch_device

__all__ = ["rand", "randn", "randint", "randint_like", "randperm", "normal", "uniform", "standard_normal",
           "bernoulli", "multinomial", "poisson", "rand_like", "randn_like", "standard_gamma", "binomial",
           "log_normal", "normal_", "log_normal_", "bernoulli_"]

# Tensor methods only: bound onto Tensor, not exported as paddle.* (Paddle has no such functions)
__tensor_methods__ = ["uniform_", "exponential_", "random_"]

_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_SAMPLED = _FLOATS + (torch.complex64, torch.complex128)  # rand / randn also draw complex (both parts)
_INTS = (torch.int32, torch.int64)


def _dname(dtype):
    return str(dtype).replace("torch.", "")


def _no_kernel(api, dtype):
    # worded so that the @op wrapper's error translation leaves it a RuntimeError, as Paddle's is
    return RuntimeError(f"(NotFound) The kernel `{api}` is not registered for data type {_dname(dtype)}.")


_HALF = (torch.float16, torch.bfloat16)
_REAL_KERNEL = "float64, float32"
_GAUSSIAN_INPLACE = "float64, complex128, float32, complex64"


def _cpu_kernel(kernel, t, supported=_REAL_KERNEL):
    """Paddle's CPU build registers these random kernels for float32 / float64 (and complex) only: a float16 or
    bfloat16 CPU tensor fails with its NotFound error (CUDA has them)."""
    if t.dtype in _HALF and t.device.type == "cpu":
        dt = _dname(t.dtype)
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dt}) of kernel `{kernel}` "
                           f"is not registered. Selected wrong DataType `{dt}`. Paddle support following DataTypes: "
                           f"{supported}.")


def _float(dtype, api):
    dtype = dtype if dtype is not None else _dtypes.default_float_torch()
    if dtype not in _SAMPLED:
        raise _no_kernel(api, dtype)
    return dtype


def _check_shape(shape):
    if any(d < 0 for d in shape):
        raise RuntimeError(f"(PreconditionNotMet) The shape {shape} holds a negative extent.")
    return shape


def _uniform(shape, dtype, device, low=0.0, high=1.0, seed=0):
    return _rng.uniform_(torch.empty(shape, dtype=dtype, device=device), low, high, seed)


def _gaussian(shape, dtype, device, mean=0.0, std=1.0, seed=0):
    return _rng.normal_(torch.empty(shape, dtype=dtype, device=device), mean, std, seed)




@op
def rand(shape: ShapeArgs, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
         requires_grad: RequiresGrad = False, pin_memory=False):
    """Uniform samples in [0, 1)."""
    return _uniform(_check_shape(shape), _float(dtype, "uniform"), device)


@op
def randn(shape: ShapeArgs, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
          requires_grad: RequiresGrad = False, pin_memory=False):
    """Standard normal samples."""
    return _gaussian(_check_shape(shape), _float(dtype, "gaussian"), device)


@op
def standard_normal(shape: ShapeLike, dtype: DTypeLike = None, name=None, *, out=None, device: PlaceLike = None,
                    requires_grad: RequiresGrad = False):
    """Standard normal samples."""
    return _gaussian(_check_shape(shape), _float(dtype, "gaussian"), device)


@op
def rand_like(input: TensorLike, name=None, *, dtype: DTypeLike = None, device: OptionalPlace = None,
              requires_grad: RequiresGrad = False):
    """Uniform samples in [0, 1) shaped like input (its dtype unless dtype is given)."""
    dtype = _float(dtype or input.dtype, "uniform")
    return _uniform(input.shape, dtype, input.device if device is None else device)


@op
def randn_like(x: TensorLike, dtype: DTypeLike = None, name=None, *, device: OptionalPlace = None,
               requires_grad: RequiresGrad = False):
    """Standard normal samples shaped like x (its dtype unless dtype is given)."""
    dtype = _float(dtype or x.dtype, "gaussian")
    return _gaussian(x.shape, dtype, x.device if device is None else device)


def _int_arg(v):
    return int(v._t.item()) if is_tensor(v) else v


def _int32_attrs(*values):
    """randint's low and high are int32 attributes of Paddle's op: its argument parser refuses wider values."""
    for v in values:
        if not -2**31 <= v < 2**31:
            raise IndexError(f"(OutOfRange) Integer value {v} exceeds int32 range [-2147483648, 2147483647]")


@op
def randint(low=0, high=None, shape: ShapeLike = (1,), dtype: DTypeLike = None, name=None):
    """Integers uniform in [low, high) (in [0, low) when high is None)."""
    low, high = _int_arg(low), _int_arg(high)
    if high is None:
        if low <= 0:
            raise ValueError(f"If high is None, low must be greater than 0, but received low = {low}.")
        low, high = 0, low
    if low >= high:
        raise ValueError(f"(InvalidArgument) randint: low must be less than high, but received low = {low}, "
                         f"high = {high}.")
    _int32_attrs(low, high)
    dtype = dtype or torch.int64
    if dtype not in _INTS:
        raise _no_kernel("randint", dtype)
    return _rng.randint_(torch.empty(_check_shape(shape), dtype=dtype, device=current_torch_device()), low, high)


@op
def randint_like(x: TensorLike, low=0, high=None, dtype: DTypeLike = None, name=None):
    """Integers uniform in [low, high), shaped like x, in x's dtype unless dtype is given."""
    low, high = _int_arg(low), _int_arg(high)
    if high is None:
        if low <= 0:
            raise ValueError(f"If high is None, low must be greater than 0, but received low = {low}.")
        low, high = 0, low
    if low >= high:
        raise ValueError(f"randint_like's low must less then high, but received low = {low}, high = {high}")
    _int32_attrs(low, high)
    drawn = _rng.randint_(torch.empty(x.shape, dtype=torch.int64, device=current_torch_device()), low, high)
    return drawn.to(dtype or x.dtype)  # Paddle draws int64 on the current place and casts


_RANDPERM_DTYPES = (torch.int32, torch.int64, torch.float32, torch.float64)


@op
def randperm(n, dtype: DTypeLike = "int64", name=None, *, out=None, device: PlaceLike = None,
             requires_grad: RequiresGrad = False, pin_memory=False):
    """A random permutation of 0 .. n-1."""
    if isinstance(n, (bool, float, str)) or n is None:  # Paddle's parser takes an int or an integer Tensor only
        raise TypeError(f"(InvalidType) randperm(): argument (position 1) must be int, but got {type(n).__name__}")
    n = int_arg(n, api="randperm")
    if n < 0:
        raise RuntimeError(f"(PreconditionNotMet) randperm: n is negative ({n}).")
    if dtype not in _RANDPERM_DTYPES:
        if static_mode():  # a static Program checks the dtype while it is built
            raise TypeError(f"(InvalidType) Check data type error for op: randperm, dtype: "
                            f"{_dtypes.dtype_name(dtype)}, and expected_dtype: float32, float64, int32, int64, ")
        raise _no_kernel("randperm", dtype)
    device = torch.device(device) if device is not None else current_torch_device()
    return _rng.randperm(n, device).to(device=device, dtype=dtype)


def _tensor_or_number(v):
    return v._t if is_tensor(v) else v


def normal_fill_(t, mean, std):
    """Fill torch tensor `t` with Paddle's gaussian draws N(mean, std) in place.  Paddle accepts a negative (or
    NaN) std: its samples are mean + std * z (NaN for NaN); torch's normal_ refuses them."""
    return _rng.normal_(t, mean, std)


def _normal(mean, std, shape, dtype, device, seed=0):
    return _rng.normal_(torch.empty(shape, dtype=dtype, device=device), mean, std, seed)


@op
def normal(mean=0.0, std=1.0, shape: ShapeLike = None, name=None, *, out=None):
    """Normal samples: of `shape` for scalar mean and std, else shaped (and typed) like the Tensor mean / std."""
    m, s = _tensor_or_number(mean), _tensor_or_number(std)
    mt, st = isinstance(m, torch.Tensor), isinstance(s, torch.Tensor)
    if mt or st:
        ref = m if mt else s
        dtype = _float(ref.dtype, "gaussian")
        if mt and st:
            shape_ = torch.broadcast_shapes(m.shape, s.shape)
        else:
            shape_ = ref.shape
        z = _gaussian(shape_, dtype, ref.device)  # Paddle: standard_normal(shape) * std + mean
        return z * s + m
    if shape is None:
        shape = [1]
    if isinstance(m, complex):  # a complex mean gives complex samples (each part with variance std**2 / 2)
        cdtype = torch.complex128 if _dtypes.get_default_dtype() == "float64" else torch.complex64
        return _gaussian(_check_shape(shape), cdtype, current_torch_device(), m.real, float(s))
    return _normal(m, s, _check_shape(shape), _dtypes.default_float_torch(), current_torch_device())


@op
def log_normal(mean=1.0, std=2.0, shape: ShapeLike = None, name=None):
    """exp of normal(mean, std) samples."""
    return torch.exp(normal.__wrapped_impl__(mean, std, shape))


@op
def gaussian(shape: ShapeLike, mean=0.0, std=1.0, seed=0, dtype: DTypeLike = None, name=None, *, out=None,
             device: PlaceLike = None, requires_grad: RequiresGrad = False):
    """paddle.tensor.random.gaussian: normal samples of `shape`."""
    if isinstance(mean, complex):
        mean = mean.real
    return _normal(mean, std, _check_shape(shape), _float(dtype, "gaussian"), device, seed)


@op
def uniform(shape: ShapeLike, dtype: DTypeLike = None, min: ScalarLike = 0, max: ScalarLike = 1.0, seed=0,
            name=None, *, out=None, device: PlaceLike = None, requires_grad: RequiresGrad = False):
    """Uniform samples in [min, max)."""
    dtype = _float(dtype, "uniform")
    min, max = float(min), float(max)
    return _uniform(_check_shape(shape), dtype, device, min, max, seed)


@op
def bernoulli(x: TensorLike, p=None, name=None):
    """0/1 samples with probability x (or p), in x's dtype."""
    if x.dtype not in _FLOATS:
        raise _no_kernel("bernoulli", x.dtype)
    _cpu_kernel("bernoulli", x)
    return _rng.bernoulli(x if p is None else torch.full_like(x, float(p)))


@op
def binomial(count: TensorLike, prob: TensorLike, name=None):
    """Binomial(count, prob) samples as int64."""
    count, prob = torch.broadcast_tensors(count.to(prob.dtype), prob)
    return _rng.binomial(count, prob)


@op
def multinomial(x: TensorLike, num_samples=1, replacement=False, name=None, *, out=None):
    """Category indices drawn with the (unnormalised) probabilities in the last axis of a 1-D or 2-D x."""
    if x.dtype not in _FLOATS:
        raise _no_kernel("multinomial", x.dtype)
    _cpu_kernel("multinomial", x)
    if x.dim() > 2 or x.dim() == 0:
        raise ValueError(f"(InvalidArgument) multinomial: x must be 1-D or 2-D, but received rank {x.dim()}.")
    if bool((x < 0).any()):
        raise ValueError("(InvalidArgument) multinomial: every probability must be >= 0.")
    if bool((x.sum(-1) <= 0).any()):
        raise ValueError("(InvalidArgument) multinomial: the probabilities of each row must sum to more than 0.")
    if not replacement and bool(((x != 0).sum(-1) < num_samples).any()):
        raise ValueError(f"(InvalidArgument) multinomial: cannot draw {num_samples} samples without replacement "
                         "from fewer nonzero categories.")
    return _rng.multinomial(x, num_samples, replacement)


@op
def poisson(x: TensorLike, name=None):
    """Poisson samples with rate x, in x's dtype."""
    if x.dtype not in _FLOATS:
        raise _no_kernel("poisson", x.dtype)
    _cpu_kernel("poisson", x)
    if not _rng.exact(x):
        return torch.poisson(x.clamp(min=0))
    return _rng.poisson(x)  # (a rate <= 0 draws 0, as libstdc++'s poisson_distribution does)


@op
def standard_gamma(x: TensorLike, name=None):
    """Gamma(x, 1) samples."""
    return _rng.standard_gamma(x)


# ----------------------------------------------------------------- in-place samplers (Tensor methods)
def _inplace_target(x):
    from .inplace import _check

    _check(x)
    return x._t


def _fill_inplace(x, fill, kernel=None, supported=_REAL_KERNEL):
    t = _inplace_target(x)
    if kernel is not None:
        _cpu_kernel(kernel, t, supported)
    with torch.no_grad():
        fill(t)
    return x


def uniform_(x, min=0, max=1.0, seed=0, name=None):
    """Fill x in place with uniform samples in [min, max)."""
    return _fill_inplace(x, lambda t: _rng.uniform_(t, float(min), float(max), int(seed)), "uniform_inplace")


def normal_(x, mean=0.0, std=1.0, name=None):
    """Fill x in place with normal samples."""
    return _fill_inplace(x, lambda t: normal_fill_(t, mean, std), "gaussian_inplace", _GAUSSIAN_INPLACE)


def log_normal_(x, mean=1.0, std=2.0, name=None):
    """Fill x in place with log-normal samples (exp of normal(mean, std))."""
    return _fill_inplace(x, lambda t: normal_fill_(t, mean, std).exp_(),  # (Paddle takes std <= 0 too)
                         "gaussian_inplace", _GAUSSIAN_INPLACE)


def bernoulli_(x, p=0.5, name=None):
    """Fill x in place with 0/1 samples of probability p (a number or a Tensor broadcast to x)."""
    # as Paddle: uniform draws in place, then 1 where below p and 0 where above (a draw equal to p stays)
    p = p._t if is_tensor(p) else float(p)

    def fill(t):
        _rng.uniform_(t, 0.0, 1.0)
        below, above = t < p, t > p
        t.masked_fill_(below, 1.0)
        t.masked_fill_(above, 0.0)
    return _fill_inplace(x, fill, "uniform_inplace")


def exponential_(x, lam=1.0, name=None):
    """Fill x in place with exponential samples of rate lam."""
    return _fill_inplace(x, lambda t: _rng.exponential_(t, float(lam)), "exponential")


_RANDOM_KERNEL = (torch.int32, torch.int64, torch.float32, torch.float64, torch.float16, torch.bfloat16)


def random_(x, from_=0, to=None, *, generator=None):
    """Fill x in place with integers uniform in [from_, to) (in [0, from_) when only from_ is given; without
    either, Paddle's Python bounds them by 2**mantissa for a floating dtype, by the largest value for an integer
    one)."""
    t = _inplace_target(x)
    if to is None:
        if from_ == 0:
            to = 2 ** _rng.DIGITS[t.dtype] if t.dtype in _rng.DIGITS else _dtypes.iinfo(t.dtype).max
        else:
            from_, to = 0, from_
    if from_ >= to:
        raise ValueError(f"random_ expects 'from' to be less than 'to', but got from={from_} >= to={to}")
    if t.dtype not in _RANDOM_KERNEL and t.device.type == "cpu":
        dt = _dname(t.dtype)
        raise RuntimeError(f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dt}) of kernel `random` is "
                           f"not registered. Selected wrong DataType `{dt}`. Paddle support following DataTypes: "
                           "int64, float64, float16, float32, int32, bfloat16.")
    return _fill_inplace(x, lambda t: _rng.random_(t, int(from_), int(to)))


__all__ += ["normal_", "log_normal_", "bernoulli_"]
# uniform_, exponential_ and random_ exist in Paddle only as Tensor methods (Tensor defines its own today).
