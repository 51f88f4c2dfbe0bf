"""A Paddle script using an API paddle_on_torch lacks (the IPU strategy) and one Paddle never had."""
import paddle
import paddle.static as static

paddle.set_device("cpu")
paddle.vision.transforms.functional  # noqa: B018
data = static.IpuStrategy()
paddle.not_a_paddle_api(data)
