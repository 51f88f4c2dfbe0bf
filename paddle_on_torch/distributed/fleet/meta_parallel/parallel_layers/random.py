from ...layers.mpu.random import *  # noqa: F401,F403
from ...layers.mpu.random import RNG_STATE_TRACKER  # noqa: F401
