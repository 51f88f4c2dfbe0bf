"""Sharded checkpoint saved at one parallel layout, loaded at another (run under torchrun, 4 ranks).

  ap_checkpoint.py save DIR   dp x mp (tensor parallel) with ShardingStage1: 2 AdamW steps, save model + optimizer
  ap_checkpoint.py load DIR   pp x dp with ShardingStage3: load, 1 more step; and a dense copy loaded on every rank
Both equal one process's training (2 steps for the dense copy, 3 for the resumed run)."""
import sys

import numpy as np
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
rank = dist.get_rank()
mode, path = sys.argv[1], sys.argv[2]


class Block(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.up = paddle.nn.Linear(8, 16)
        self.down = paddle.nn.Linear(16, 8)

    def forward(self, x):
        return x + self.down(paddle.nn.functional.gelu(self.up(x)))


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.layers = paddle.nn.LayerList([Block(), Block()])
        self.head = paddle.nn.Linear(8, 4)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def make():
    paddle.seed(21)
    net = Net()
    return net, paddle.optimizer.AdamW(learning_rate=0.02, parameters=net.parameters(), weight_decay=0.01)


def step(net, opt, s, place=lambda t, i: t):
    rng = np.random.RandomState(s)
    x, y = paddle.to_tensor(rng.randn(4, 8).astype("float32")), paddle.to_tensor(rng.randn(4, 4).astype("float32"))
    loss = paddle.nn.functional.mse_loss(net(place(x, 0)), place(y, 1))
    loss.backward()
    opt.step()
    opt.clear_grad()


def placer(mesh):
    def place(t, stage):
        m = mesh.get_mesh_with_dim("pp", stage) if "pp" in mesh.dim_names else mesh
        pl = [dist.Replicate()] * m.ndim
        pl[m.dim_names.index("dp")] = dist.Shard(0)
        return dist.shard_tensor(t, m, pl)
    return place


tp = {"layers.\\d+.up": dist.ColWiseParallel(), "layers.\\d+.down": dist.RowWiseParallel()}
if mode == "save":
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    net, opt = make()
    net, opt = dist.parallelize(net, opt, mesh, {"dp_config": {"sharding_level": 1}, "mp_config": {"parallelize_plan": tp}})
    for s in range(2):
        step(net, opt, s, placer(mesh))
    dist.save_state_dict({"model": net.state_dict(), "opt": opt.state_dict()}, path)
    print("SAVED", flush=True)
else:
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["pp", "dp"])
    net, opt = make()
    net, opt = dist.parallelize(net, opt, mesh, {"dp_config": {"sharding_level": 3}, "pp_config": {"split_spec": "layers"}})
    osd = opt.state_dict()  # creates the (sharded) states to load into, as in Paddle
    dist.load_state_dict({"model": net.state_dict(), "opt": osd}, path)
    opt.set_state_dict(osd)
    dense, _ = make()  # the same checkpoint into a plain single-process model, on every rank
    dsd = dense.state_dict()
    dist.load_state_dict({"model": dsd}, path)
    step(net, opt, 2, placer(mesh))
    ref, ropt = make()
    for s in range(2):
        step(ref, ropt, s)
    for (n, a), b in zip(dense.named_parameters(), ref.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6, err_msg=n)
    step(ref, ropt, 2)
    for (n, a), b in zip(net.named_parameters(), ref.parameters()):
        if rank in a.process_mesh.process_ids:
            np.testing.assert_allclose(dist.unshard_dtensor(a).numpy(), b.numpy(), rtol=1e-5, atol=1e-6, err_msg=n)
    print("LOADED OK", flush=True)
dist.barrier()
