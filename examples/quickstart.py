# A plain Paddle script: nothing here knows about paddle_on_torch.
import paddle
import paddle.nn as nn


class RMSNorm(nn.Layer):
    def __init__(self, hidden):
        super().__init__()
        self.weight = paddle.create_parameter(shape=[hidden], dtype="float32",
                                              default_initializer=nn.initializer.Constant(1.0))

    def forward(self, x):
        variance = x.pow(2).mean(-1, keepdim=True)
        return paddle.rsqrt(variance + 1e-6) * x * self.weight


paddle.seed(0)
x = paddle.to_tensor([[1.0, -2.0, 3.0, -4.0]], stop_gradient=False)
norm = RMSNorm(4)
y = norm(x)
y.sum().backward()
print(y)
print("weight grad:", norm.weight.grad.numpy())
