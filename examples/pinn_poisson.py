"""A physics-informed neural network for the 2-D Poisson problem, written as plain Paddle code.

    -(u_xx + u_yy) = 2 pi^2 sin(pi x) sin(pi y)   on (0, 1)^2,     u = 0 on the boundary,

whose solution is u = sin(pi x) sin(pi y).  A small tanh MLP u(x, y) is trained with Adam on the
PDE residual at fixed interior points plus the boundary condition; the second derivatives come from
paddle.grad(create_graph=True).  Run it under real Paddle or under paddle_on_torch:

    python examples/pinn_poisson.py
    python -m paddle_on_torch examples/pinn_poisson.py

tests/test_pinn.py checks that the loss curve matches real Paddle's from the same initial weights.
"""
import math

import numpy as np
import paddle

PI = math.pi


def collocation(n_interior=256, n_boundary=64, seed=0):
    """Fixed training points (numpy, float32): interior points, their source term, boundary points."""
    rng = np.random.default_rng(seed)
    inner = rng.uniform(0.0, 1.0, size=(n_interior, 2)).astype("float32")
    t = rng.uniform(0.0, 1.0, size=(n_boundary,)).astype("float32")
    zeros, ones = np.zeros_like(t), np.ones_like(t)
    edges = [np.stack(p, 1) for p in ((t, zeros), (t, ones), (zeros, t), (ones, t))]
    boundary = np.concatenate(edges, 0).astype("float32")
    f = (2 * PI ** 2 * np.sin(PI * inner[:, :1]) * np.sin(PI * inner[:, 1:])).astype("float32")
    return inner, f, boundary


def build_model(width=32, depth=3):
    """u(x, y): an MLP with tanh activations."""
    layers, n_in = [], 2
    for _ in range(depth):
        layers += [paddle.nn.Linear(n_in, width), paddle.nn.Tanh()]
        n_in = width
    layers.append(paddle.nn.Linear(n_in, 1))
    return paddle.nn.Sequential(*layers)


def laplacian(model, xy):
    """u and u_xx + u_yy at the points xy ([N, 2], stop_gradient=False)."""
    u = model(xy)
    (du,) = paddle.grad(u.sum(), xy, create_graph=True)
    (d2x,) = paddle.grad(du[:, 0].sum(), xy, create_graph=True)
    (d2y,) = paddle.grad(du[:, 1].sum(), xy, create_graph=True)
    return u, d2x[:, 0:1] + d2y[:, 1:2]


def loss_fn(model, xy, f, boundary):
    _, lap = laplacian(model, xy)
    residual = lap + f
    return paddle.mean(residual * residual) + 10.0 * paddle.mean(model(boundary) ** 2)


def make_batch():
    inner, f, boundary = collocation()
    xy = paddle.to_tensor(inner, stop_gradient=False)
    return xy, paddle.to_tensor(f), paddle.to_tensor(boundary)


def train_step(model, opt, xy, f, boundary):
    loss = loss_fn(model, xy, f, boundary)
    loss.backward()
    opt.step()
    opt.clear_grad()
    return loss


def train(model, steps=50, lr=1e-3, log_every=10):
    """Train with Adam; prints the loss every `log_every` steps and returns every step's loss."""
    xy, f, boundary = make_batch()
    opt = paddle.optimizer.Adam(learning_rate=lr, parameters=model.parameters())
    losses = []
    for step in range(steps):
        loss = train_step(model, opt, xy, f, boundary)
        losses.append(float(loss))
        if step % log_every == 0 or step == steps - 1:
            print(f"step {step:3d}  loss {losses[-1]:.6e}")
    return losses


def error_vs_exact(model):
    g = np.linspace(0.0, 1.0, 21, dtype="float32")
    pts = np.stack(np.meshgrid(g, g), -1).reshape(-1, 2)
    u = model(paddle.to_tensor(pts)).numpy()[:, 0]
    exact = np.sin(PI * pts[:, 0]) * np.sin(PI * pts[:, 1])
    return float(np.abs(u - exact).max())


if __name__ == "__main__":
    paddle.seed(2024)
    model = build_model()
    train(model, 50)
    print(f"max |u - exact| on a 21x21 grid: {error_vs_exact(model):.4f}")
