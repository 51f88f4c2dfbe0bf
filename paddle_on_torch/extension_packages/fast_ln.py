"""PaddleNLP's `fast_ln` custom-op package on the shim (see the package docstring): the same norms as fused_ln
under the names fast_rms_norm and fast_ln."""
from .fused_ln import fused_ln as fast_ln
from .fused_ln import fused_rms_norm as fast_rms_norm

__all__ = ["fast_ln", "fast_rms_norm"]
