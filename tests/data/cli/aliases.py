"""A small Paddle script for `paddle-on-torch check`: every alias form, all APIs supported."""
import paddle
import paddle as pd
import paddle.nn.functional as F
from paddle import nn
from paddle.nn import Linear

x = pd.to_tensor([[1.0, 2.0]])
layer = Linear(2, 3)
y = F.relu(layer(x))
z = nn.Sequential(nn.ReLU())(y)
print(paddle.sum(z).numpy(), paddle.Tensor.abs)
