"""Paddle's CPU random streams, bit for bit.

Paddle's CPU generator is one 64-bit Mersenne Twister (std::mt19937_64) per generator: `paddle.seed(s)` seeds the
default one through a std::seed_seq of s's low 32 bits, and every CPU random kernel draws from it in element order
with libstdc++'s distributions; an op whose own `seed` attribute is nonzero draws from a fresh engine seeded with
it instead.  The engine and Paddle's kernels are re-implemented in C++ (ext/random.cpp, torch.ops.pot_random);
an engine's state is an int64 tensor of 313 words (the 312 state words, then the read position), held here by a
`CPUStream`.

The samplers below fill CPU tensors from the default stream (or an op seed's fresh one) and leave tensors on
other devices to torch's generator (CUDA keeps torch's Philox: Paddle's CUDA streams are not reproduced).  Where
the C++ kernels cannot be had (no compiler), CPU tensors fall back to torch's generator too, with one warning.
"""
import math
import os
import warnings

import torch

STATE_WORDS = 313
_SEED_MASK = (1 << 64) - 1
_UNSET = object()
_ops = _UNSET


def ops():
    """torch.ops.pot_random, or None where the C++ kernels cannot be had here (one warning)."""
    global _ops
    if _ops is _UNSET:
        from ..kernels.cpp import CPP

        found = None
        if CPP.load() is not None:
            namespace = getattr(torch.ops, "pot_random", None)
            try:
                found = namespace if namespace is not None and namespace.seed_ is not None else None
            except (AttributeError, RuntimeError):  # a build of the kernels made before ext/random.cpp existed
                found = None
            if found is None:
                warnings.warn("paddle_on_torch: this build of the C++ CPU kernels has no random kernels "
                              "(ext/random.cpp; rebuild: pip install --no-build-isolation -e .); CPU random numbers "
                              "come from torch's generator, not Paddle's streams", RuntimeWarning, stacklevel=3)
        if found is not None:
            _register_fakes()
        _ops = found
    return _ops


def _register_fakes():
    """Shapes of the kernels' outputs without running them: static programs record their ops on fake tensors
    (the recorded kernel then runs, and draws, when the program runs)."""
    lib = "pot_random::"
    for name in ("seed_", "uniform_", "normal_", "randint_", "exponential_", "truncated_normal_"):
        torch.library.register_fake(lib + name)(lambda *args, **kwargs: None)
    torch.library.register_fake(lib + "bits")(lambda state, n: state.new_empty([n]))
    torch.library.register_fake(lib + "randperm")(lambda state, n: state.new_empty([n]))
    torch.library.register_fake(lib + "bernoulli")(lambda state, x: torch.empty_like(x))
    torch.library.register_fake(lib + "poisson")(lambda state, x: torch.empty_like(x))
    torch.library.register_fake(lib + "standard_gamma")(lambda state, x: torch.empty_like(x))
    torch.library.register_fake(lib + "binomial")(lambda state, n, p: n.new_empty(n.shape, dtype=torch.int64))
    torch.library.register_fake(lib + "dropout_mask")(lambda state, n, p: state.new_empty([n], dtype=torch.uint8))
    torch.library.register_fake(lib + "dropout")(
        lambda state, x, p, upscale: (torch.empty_like(x), x.new_empty(x.shape, dtype=torch.uint8)))
    torch.library.register_fake(lib + "multinomial")(
        lambda state, x, samples, replacement: x.new_empty(
            [samples] if x.dim() == 1 else [x.shape[0], samples], dtype=torch.int64))


class CPUStream:
    """One Paddle CPU generator: its engine state and Paddle's GeneratorState fields (current seed, offset)."""

    __slots__ = ("state", "seed", "thread_offset")

    def __init__(self, seed=None):
        self.state = torch.zeros(STATE_WORDS, dtype=torch.int64)
        self.thread_offset = 0
        # Paddle seeds an unseeded generator from std::random_device, keeping 53 bits
        self.manual_seed(int.from_bytes(os.urandom(8), "little") & ((1 << 53) - 1) if seed is None else seed)

    def manual_seed(self, seed):
        seed = int(seed) & _SEED_MASK
        self.seed, self.thread_offset = seed, 0
        k = ops()
        if k is not None:
            k.seed_(self.state, _signed(seed), True)
        return self

    def draw64(self):
        """One raw 64-bit draw (Paddle's Generator.random())."""
        return int(ops().bits(self.state, 1)[0]) & _SEED_MASK


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


_default = None


def default_cpu():
    """The default CPU stream (paddle.seed's, core.default_cpu_generator()'s)."""
    global _default
    if _default is None:
        _default = CPUStream()
    return _default


def _state_for(seed):
    """The engine state an op draws from: a fresh one seeded with a nonzero op `seed` (plain std::mt19937_64
    seeding, as Paddle's kernels do), else the default stream's."""
    if seed:
        state = torch.empty(STATE_WORDS, dtype=torch.int64)
        ops().seed_(state, _signed(int(seed) & _SEED_MASK), False)
        return state
    return default_cpu().state


def exact(t):
    """Whether a draw for tensor `t` (or a device) comes from Paddle's stream: a real CPU tensor, kernels here.
    A fake tensor (static programs are traced on them) takes torch's op, which the trace records."""
    if isinstance(t, torch.Tensor):
        if t.device.type != "cpu" or isinstance(t, _FakeTensor):
            return False
    elif torch.device(t).type != "cpu":
        return False
    return ops() is not None


try:
    from torch._subclasses.fake_tensor import FakeTensor as _FakeTensor
except ImportError:  # pragma: no cover - every supported torch has it
    class _FakeTensor:
        pass


def _fill(t, kernel, *args):
    """Run in-place kernel `kernel(state, out, *args)` on t in t's element order (through a contiguous copy
    where t is not contiguous)."""
    if t.is_contiguous():
        kernel(t, *args)
    else:
        tmp = torch.empty(t.shape, dtype=t.dtype)
        kernel(tmp, *args)
        t.copy_(tmp)
    return t


# ------------------------------------------------------------------------------------------------ samplers
def uniform_(t, low=0.0, high=1.0, seed=0):
    """Fill t with Paddle's uniform draws in [low, high) (uniform / uniform_inplace kernels)."""
    if not exact(t):
        return t.uniform_(float(low), float(high))
    if t.is_complex():  # Paddle draws every real part, then every imaginary part
        real_dtype = torch.float64 if t.dtype is torch.complex128 else torch.float32
        parts = [uniform_(torch.empty(t.shape, dtype=real_dtype), low, high, seed) for _ in range(2)]
        return t.copy_(torch.complex(*parts))
    return _fill(t, lambda o: ops().uniform_(_state_for(seed), o, float(low), float(high)))


def normal_(t, mean=0.0, std=1.0, seed=0):
    """Fill t with Paddle's gaussian draws N(mean, std) (a complex t: both parts N(mean, std / sqrt(2)))."""
    mean, std = float(mean), float(std)
    if not exact(t):
        if std >= 0 and not t.is_complex():
            return t.normal_(mean, std)
        return t.copy_(torch.randn(t.shape, dtype=t.dtype, device=t.device) * std + mean)
    if t.is_complex():
        parts = torch.view_as_real(t) if t.is_contiguous() else torch.empty(t.shape + (2,), dtype=t.real.dtype)
        ops().normal_(_state_for(seed), parts, mean, float(std / math.sqrt(2.0)))
        if not t.is_contiguous():
            t.copy_(torch.view_as_complex(parts))
        return t
    return _fill(t, lambda o: ops().normal_(_state_for(seed), o, mean, std))


def truncated_normal_(t, mean=0.0, std=1.0, a=-2.0, b=2.0, seed=0):
    """Fill t with Paddle's truncated_gaussian_random draws: N(mean, std) restricted to [a, b] (absolute
    bounds), by inversion."""
    if not exact(t):
        return torch.nn.init.trunc_normal_(t, float(mean), float(std), float(a), float(b))
    return _fill(t, lambda o: ops().truncated_normal_(_state_for(seed), o, float(mean), float(std), float(a),
                                                       float(b)))


def randint_(t, low, high):
    """Fill int32 / int64 t with Paddle's randint draws in [low, high)."""
    if not exact(t):
        return t.random_(int(low), int(high))
    return _fill(t, lambda o: ops().randint_(default_cpu().state, o, int(low), int(high)))


def randperm(n, device="cpu"):
    """Paddle's randperm(n) as int64 (std::shuffle of 0 .. n-1 with the default stream)."""
    if not exact(device):
        return torch.randperm(n, device=device)
    return ops().randperm(default_cpu().state, int(n))


def bernoulli(p):
    """Paddle's bernoulli of probabilities p (float / double; half precision drawn as float)."""
    if not exact(p):
        return torch.bernoulli(p)
    if p.dtype in (torch.float16, torch.bfloat16):
        return ops().bernoulli(default_cpu().state, p.detach().float()).to(p.dtype)
    return ops().bernoulli(default_cpu().state, p.detach())


def dropout_keep(shape, p, device="cpu", seed=0):
    """The keep mask (bool) of Paddle's dropout kernel over `shape`: one float uniform draw per element, kept
    where it is not below p."""
    if not exact(device):
        return torch.rand(shape, device=device) >= p
    if not all(type(d) is int for d in shape):  # sizes known only when it runs (a static program being recorded):
        # the dropout op, sized by a tensor, draws the same mask and keeps the sizes symbolic
        return ops().dropout(_state_for(seed), torch.empty(shape, device=device), float(p), False)[1].bool()
    return ops().dropout_mask(_state_for(seed), math.prod(shape), float(p)).view(shape).bool()


def dropout(x, p, upscale, seed=0):
    """Paddle's dropout kernel: (out, keep mask) with kept elements x / (1 - p) (upscale) or x, others 0."""
    if not exact(x):
        keep = torch.rand(x.shape, device=x.device) >= p
        out = torch.where(keep, x / (1.0 - p) if upscale else x, torch.zeros((), dtype=x.dtype))
        return out, keep
    out, mask = ops().dropout(_state_for(seed), x.detach(), float(p), bool(upscale))
    return out, mask.bool()


def multinomial(x, num_samples, replacement):
    """Paddle's multinomial over the last axis of a 1-D / 2-D x (int64 category indices)."""
    if not exact(x):
        return torch.multinomial(x, num_samples, replacement)
    if x.dtype in (torch.float16, torch.bfloat16):
        x = x.float()
    return ops().multinomial(default_cpu().state, x.detach(), int(num_samples), bool(replacement))


def poisson(x):
    """Paddle's poisson of rates x (libstdc++'s poisson_distribution per element)."""
    if not exact(x):
        return torch.poisson(x)
    if x.dtype in (torch.float16, torch.bfloat16):
        return ops().poisson(default_cpu().state, x.detach().float()).to(x.dtype)
    return ops().poisson(default_cpu().state, x.detach())


def standard_gamma(x):
    """Paddle's standard_gamma of concentrations x (float32 / float64; Marsaglia and Tsang per element)."""
    if not exact(x) or x.dtype not in (torch.float32, torch.float64):
        return torch._standard_gamma(x)
    return ops().standard_gamma(default_cpu().state, x.detach())


def dirichlet(alpha):
    """Paddle's dirichlet kernel: a gamma draw per element (standard_gamma's sampler), divided by its row's sum
    over the last axis, summed in order (numpy's float accumulation: torch's cumsum accumulates in double)."""
    if not exact(alpha) or alpha.dtype not in (torch.float32, torch.float64):
        return torch._sample_dirichlet(alpha)
    gammas = standard_gamma(alpha.contiguous())
    sums = torch.from_numpy(gammas.numpy().cumsum(axis=-1)[..., -1:].copy())
    return gammas / sums


def binomial(count, prob):
    """Paddle's binomial of (count, prob), both of prob's float dtype and one shape: int64 draws."""
    if not exact(prob) or prob.dtype not in (torch.float32, torch.float64):
        return torch.binomial(count, prob).to(torch.int64)
    return ops().binomial(default_cpu().state, count.detach(), prob.detach())


def exponential_(t, lam=1.0):
    """Fill t with Paddle's exponential draws of rate lam."""
    if not exact(t):
        return t.exponential_(float(lam))
    return _fill(t, lambda o: ops().exponential_(default_cpu().state, o, float(lam)))


# numeric_limits<T>::digits of Paddle's floating types (random_ bounds by them)
DIGITS = {torch.float32: 24, torch.float64: 53, torch.float16: 11, torch.bfloat16: 8}


def _int_through(v, dtype):
    """static_cast<int64_t>(static_cast<T>(v)) for an int64 v: T's rounding (float16 / bfloat16 through float,
    as Paddle's conversions from an integer go)."""
    t = torch.tensor(v, dtype=torch.int64)
    if dtype in (torch.float16, torch.bfloat16):
        t = t.to(torch.float32)
    return int(t.to(dtype).to(torch.float64).item())


def _representable_bounds(low, high, dtype):
    """Paddle's random kernel on a floating dtype moves `low` up and `high` down to values the dtype holds
    (update_from / update_to), then refuses an empty range."""
    digits = DIGITS[dtype]
    above = _int_through(low + 1, dtype)
    if above < low:
        low = above + (1 << (abs(low + 1).bit_length() - digits))
    below = _int_through(high - 1, dtype)
    if below >= high:
        high = below - (1 << (abs(high - 1).bit_length() - digits))
    if low >= high:
        raise ValueError(f"(InvalidArgument) random expects 'from' casted to dtype to be less than 'to' casted to "
                         f"dtype, but got from={low} >= to={high}")
    return low, high


def random_(t, low, high):
    """Fill t with Paddle's random_ draws in [low, high): per element one 64-bit draw modulo the range where the
    range is at least 2**28, else the draw's low 32 bits modulo it, plus low, converted to t's dtype."""
    if t.dtype in DIGITS:
        low, high = _representable_bounds(int(low), int(high), t.dtype)
    if not exact(t):
        return t.random_(int(low), int(high))
    import numpy as np

    span = (high - low) % 2**64
    raw = ops().bits(default_cpu().state, t.numel()).numpy().view(np.uint64)
    if span < 2**28:
        raw = raw & np.uint64(0xFFFFFFFF)
    drawn = (raw % np.uint64(span)).astype(np.int64) + np.int64(low)  # wrapping, as the kernel's int64 sum
    return t.copy_(torch.from_numpy(drawn).view(t.shape))
