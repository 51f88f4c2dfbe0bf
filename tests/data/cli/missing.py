"""A Paddle script using APIs paddle_on_torch lacks (static mode) and one Paddle never had."""
import paddle
import paddle.static as static

paddle.enable_static()
paddle.vision.transforms.functional  # noqa: B018
data = static.data(name="x", shape=[None, 2])
paddle.not_a_paddle_api(data)
