"""Small models the planner tests share (tests/test_planner.py plans them, tests/test_planner_dist.py runs the
plans on gloo ranks)."""


def cnn(paddle):
    """A conv net with BatchNorm: its running statistics are state the planner must place where DTensor
    updates them."""
    F = paddle.nn.functional

    class CNN(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.c1, self.bn = paddle.nn.Conv2D(3, 8, 3, padding=1), paddle.nn.BatchNorm2D(8)
            self.fc = paddle.nn.Linear(8 * 4 * 4, 10)

        def forward(self, x):
            return self.fc(F.max_pool2d(F.relu(self.bn(self.c1(x))), 2).flatten(1))

    return CNN()
