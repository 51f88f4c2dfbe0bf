"""The registry of device backends that places, `paddle.device` and `paddle.cuda` are built on.

One file per backend (cpu, cuda, xpu, mps, xla, privateuse1).  A backend is a `Backend` object
with this small interface; everything else (Place, set_device, the memory and stream APIs) goes
through it, so supporting another torch device type means adding one file here:

    name            Paddle's device type as `paddle.get_device()` spells it ('cpu', 'gpu', 'xpu', 'mps', ...)
    torch_type      torch's device type ('cpu', 'cuda', 'xpu', 'mps', 'xla', the privateuse1 name)
    aliases         other spellings `set_device` accepts for it ('cuda', 'dcu' for 'gpu')
    custom          True for what Paddle calls a custom device (CustomPlace, get_all_custom_device_type)
    is_available()  whether torch can use it here
    device_count()  how many devices of this type torch sees (0 when unavailable)
    torch_device(i) the torch.device of device i
    module()        the torch.<type> module with synchronize / memory / stream APIs, or None
    compile_backend the torch.compile backend paddle.jit.to_static uses on it: None picks inductor where
                    inductor can generate code for the device type, else 'aot_eager' (the graph runs on the
                    device's own kernels); a vendor with a compiler of its own names it here

`register(backend)` adds one (a later registration of the same name replaces the earlier);
`get(name)` finds one by Paddle name, alias or torch type; `backends()` lists them in order.  A device that an
extension registers with torch under PrivateUse1 (torch_npu's 'npu', ...) is picked up by its name whenever the
registry is asked (privateuse1.py), also when the extension was imported after paddle.
"""
import torch

__all__ = ["Backend", "register", "get", "backends", "available_accelerators"]


class Backend:
    name = None
    torch_type = None
    aliases = ()
    custom = False
    compile_backend = None

    def is_available(self):
        mod = self.module()
        try:
            return bool(mod is not None and mod.is_available())
        except Exception:  # noqa: BLE001 - a half-installed backend is an unavailable one
            return False

    def device_count(self):
        if not self.is_available():
            return 0
        return int(self.module().device_count())

    def torch_device(self, index=0):
        return torch.device(self.torch_type, index)

    def module(self):
        return getattr(torch, self.torch_type, None)

    def torch_compile_backend(self):
        """The torch.compile backend for to_static on this device (see compile_backend above)."""
        if self.compile_backend is not None:
            return self.compile_backend
        from torch._inductor.codegen.common import get_scheduling_for_device, init_backend_registration

        init_backend_registration()
        return "inductor" if get_scheduling_for_device(self.torch_type) is not None else "aot_eager"

    def __repr__(self):
        return f"<backend {self.name} (torch '{self.torch_type}')>"


_REGISTRY = {}


def register(backend):
    _REGISTRY[backend.name] = backend
    return backend


def get(name):
    """The backend for a Paddle device name, alias or torch device type (None if unknown)."""
    privateuse1.refresh()
    name = name.lower()
    b = _REGISTRY.get(name)
    if b is not None:
        return b
    for b in _REGISTRY.values():
        if name in b.aliases or name == b.torch_type:
            return b
    return None


def backends():
    privateuse1.refresh()
    return list(_REGISTRY.values())


def available_accelerators():
    """The registered non-CPU backends torch can use here, built-in ones first."""
    return [b for b in backends() if b.name != "cpu" and b.is_available()]


def compile_backend_for(device, requested):
    """The torch.compile backend to_static uses for code running on `device` (a torch.device): the one asked for,
    except that the default (inductor) gives way to what the device's backend says it can compile with."""
    if requested != "inductor" or device.type in ("cpu", "cuda", "meta"):
        return requested
    b = get(device.type)
    return b.torch_compile_backend() if b is not None else requested


from . import cpu, cuda, xpu, mps, xla, privateuse1  # noqa: E402,F401  (each registers itself)
