"""paddle.nn.functional: one module per family as in Paddle; names Paddle has and we lack raise
NotImplementedError naming them."""
from ... import _report
from .activation import *  # noqa: F401,F403
from .common import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .extension import *  # noqa: F401,F403
from .flash_attention import *  # noqa: F401,F403
from .input import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .norm import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .vision import *  # noqa: F401,F403

from . import (activation, common, conv, distance, extension, flash_attention, input, loss, norm,  # noqa: E402
               pooling, vision)

__all__ = sorted({name for module in (activation, common, conv, distance, extension, flash_attention, input, loss,
                                      norm, pooling, vision) for name in module.__all__})

__getattr__ = _report.module_getattr("paddle.nn.functional")
