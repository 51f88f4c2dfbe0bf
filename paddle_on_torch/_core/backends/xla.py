"""TPUs and other XLA devices through torch_xla (optional): a custom device type 'xla'.

Nothing is imported until the backend is asked about, and without torch_xla it is unavailable.
"""
import importlib.util

from . import Backend, register


class XLABackend(Backend):
    name = torch_type = "xla"
    custom = True
    compile_backend = "openxla"  # to_static compiles through torch_xla's dynamo backend

    _runtime = False  # not looked up yet

    def _xla(self):
        # looked up once: find_spec walks sys.path (about a millisecond), and libraries ask which devices exist
        # on every step (PaddleNLP's get_env_device, in each layer's forward)
        if self._runtime is False:
            self._runtime = self._load()
        return self._runtime

    def _load(self):
        if importlib.util.find_spec("torch_xla") is None:
            return None
        try:
            import torch_xla.runtime as xr

            return xr
        except Exception:  # noqa: BLE001 - an unusable torch_xla is no backend
            return None

    def is_available(self):
        xr = self._xla()
        try:
            return xr is not None and xr.global_runtime_device_count() > 0
        except Exception:  # noqa: BLE001
            return False

    def device_count(self):
        return self._xla().global_runtime_device_count() if self.is_available() else 0

    def module(self):
        return None  # torch_xla has no torch.cuda-like module: synchronize/memory APIs do not apply


register(XLABackend())
