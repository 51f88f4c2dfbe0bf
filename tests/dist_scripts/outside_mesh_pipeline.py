"""A two-stage pipeline written by hand on 8 ranks: stage 0 on the 2x2 mesh [[0,1],[2,3]], stage 1 (and the
loss) on [[4,5],[6,7]].  Each rank prints one JSON line per probe of what it reads from the loss at every step
(dist.unshard_dtensor, dist.reshard, direct reads): ranks 0-3 hold no part of it and must never read a 0.0.

Under the shim (OUTSIDE_MESH_OPS=1, torchrun, tests/test_dist_outside_mesh.py) the pipeline runs: forward,
backward and an SGD step on both meshes.  Real Paddle 3.3.1's CPU build segfaults on any op of a mesh a process
is outside of (its reshard asks for a device count it does not have), so the recorder
(tools/record_outside_mesh.py, OUTSIDE_MESH_OPS=0) takes the losses from the same network run densely in each
process, places them on the loss mesh with shard_tensor, and reads them there as the pipeline's ranks would: on
ranks 4-7 through unshard_dtensor / reshard, on ranks 0-3 through the step those leave to such a process
(unshard_dtensor's paddle.Tensor(reshard(...)._local_value()), reshard's uninitialised result)."""
import json
import os
import warnings

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.distributed as dist  # noqa: E402

STEPS, BATCH, WIDTH, LR = 2, 4, 8, 0.1


def describe(v):
    if isinstance(v, np.ndarray):
        return {"ndarray": {"dtype": str(v.dtype), "shape": list(v.shape),
                            "values": np.round(v.astype("float64"), 5).reshape(-1).tolist()}}
    if isinstance(v, float):
        return {"float": round(v, 5)}
    if v is None or isinstance(v, (bool, int, list, str)):
        return {type(v).__name__: v}
    return {"other": type(v).__name__}


def probe(rank, name, fn):
    try:
        out = describe(fn())
    except Exception as e:  # noqa: BLE001 - the error is the answer
        out = {"error": type(e).__name__, "message": str(e).split("\n")[0][:200]}
    print(json.dumps({"rank": rank, "probe": name, "answer": out}), flush=True)


def weight(shape, seed):
    return np.random.RandomState(seed).uniform(-0.5, 0.5, shape).astype("float32")


def batch(step):
    return np.random.RandomState(10 + step).randn(BATCH, WIDTH).astype("float32")


class TwoStages(paddle.nn.Layer):
    """tanh(x @ w0) on mesh0, then @ w1 on mesh1 (meshes None: a dense network)."""

    def __init__(self, mesh0=None, mesh1=None):
        super().__init__()
        self.mesh0, self.mesh1 = mesh0, mesh1
        self.w0 = self.create_parameter([WIDTH, WIDTH])
        self.w0.set_value(weight([WIDTH, WIDTH], 1))
        self.w1 = self.create_parameter([WIDTH, WIDTH])
        self.w1.set_value(weight([WIDTH, WIDTH], 2))
        if mesh0 is not None:
            self.w0 = dist.shard_tensor(self.w0, mesh0, [dist.Replicate(), dist.Shard(1)])
            self.w1 = dist.shard_tensor(self.w1, mesh1, [dist.Replicate(), dist.Shard(0)])

    def forward(self, x):
        if self.mesh0 is not None:
            x = dist.shard_tensor(x, self.mesh0, [dist.Shard(0), dist.Replicate()])
        h = paddle.tanh(paddle.matmul(x, self.w0))
        if self.mesh0 is not None:
            h = dist.reshard(h, self.mesh1, [dist.Shard(0), dist.Shard(1)])
        return paddle.matmul(h, self.w1)


def train(net):
    """Yields each step's loss (after its backward and SGD step)."""
    opt = paddle.optimizer.SGD(LR, parameters=net.parameters())
    for step in range(STEPS):
        loss = (net(paddle.to_tensor(batch(step))) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        yield loss


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    mesh0 = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    mesh1 = dist.ProcessMesh([[4, 5], [6, 7]], dim_names=["dp", "mp"])
    replicated = [dist.Replicate(), dist.Replicate()]
    pipeline = os.environ.get("OUTSIDE_MESH_OPS") == "1"
    if pipeline:
        losses = train(TwoStages(mesh0, mesh1))
    else:
        losses = (dist.shard_tensor(paddle.to_tensor(float(v), stop_gradient=False), mesh1, replicated)
                  for v in train(TwoStages()))
    inside = rank in mesh1.process_ids
    for step, loss in enumerate(losses):
        if pipeline or inside:
            full = dist.unshard_dtensor(loss)
            rep = dist.reshard(loss, mesh1, replicated)
        else:
            full = paddle.Tensor(loss._local_value())
            rep = loss
        for name, t in (("unshard", full), ("reshard", rep), ("loss", loss)):
            probe(rank, f"step{step}.{name}.numpy", lambda: t.numpy())
            probe(rank, f"step{step}.{name}.float_numpy", lambda: float(t.numpy()))
            probe(rank, f"step{step}.{name}.float", lambda: float(t))
            probe(rank, f"step{step}.{name}._is_initialized", lambda: t._is_initialized())
            probe(rank, f"step{step}.{name}.is_dist", lambda: t.is_dist())
            probe(rank, f"step{step}.{name}.shape", lambda: list(t.shape))
        probe(rank, f"step{step}.unshard.item", lambda: full.item())
        probe(rank, f"step{step}.unshard.repr", lambda: repr(full))
        probe(rank, f"step{step}.unshard.stop_gradient", lambda: full.stop_gradient)
    dist.barrier()


if __name__ == "__main__":
    main()
