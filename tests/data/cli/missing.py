"""A Paddle script using APIs paddle_on_torch lacks (download datasets) and one Paddle never had."""
import paddle
import paddle.text as text

paddle.set_device("cpu")
paddle.vision.transforms.functional  # noqa: B018
data = text.Imdb(mode="train")
paddle.not_a_paddle_api(data)
