from ...layers.mpu.mp_layers import *  # noqa: F401,F403
