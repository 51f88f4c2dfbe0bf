"""Integer inputs to F.interpolate: Paddle computes linear-family modes in float32 and truncates."""
import numpy as np

from tests.cases import case


@case
def bilinear_uint8_truncates(paddle):
    x = paddle.to_tensor(np.arange(48, dtype="uint8").reshape([1, 3, 4, 4]) * 5)
    F = paddle.nn.functional
    # (align_corners=True is left out: where the float32 value lands within rounding of an integer,
    # Paddle's and torch's coordinate arithmetic can truncate to neighbours; docs/compatibility.md)
    return [F.interpolate(x, size=[7, 5], mode="bilinear"), F.interpolate(x, size=[3, 9], mode="bilinear"),
            F.interpolate(x, scale_factor=1.5, mode="nearest")]
