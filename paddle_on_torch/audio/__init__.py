"""paddle.audio: feature layers and functional helpers (backends and datasets are not provided)."""
from .. import _report
from . import features, functional  # noqa: F401

__all__ = ["functional", "features"]

# load / info / save and the backends / datasets modules raise UnsupportedAPIError naming themselves
__getattr__ = _report.module_getattr("paddle.audio")
