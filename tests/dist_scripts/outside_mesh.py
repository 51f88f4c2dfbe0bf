"""What a rank reads from a distributed Tensor that lives on a mesh without it (two meshes: [0] and [1]).

Run on 2 ranks, under real Paddle (paddle.distributed.launch, by tools/record_outside_mesh.py) or the shim
(torchrun, tests/test_dist_outside_mesh.py).  Each rank prints one JSON line per probe: what the call
returned (type, shape, value) or raised (type, message).
"""
import json
import os
import warnings

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.distributed as dist  # noqa: E402


def describe(v):
    if isinstance(v, np.ndarray):
        return {"ndarray": {"dtype": str(v.dtype), "shape": list(v.shape), "values": v.reshape(-1).tolist()}}
    if isinstance(v, paddle.Tensor):
        return {"tensor": {"shape": list(v.shape), "initialized": bool(v._is_initialized())}}
    if v is None or isinstance(v, (bool, int, float, list)):
        return {type(v).__name__: v}
    return {"other": type(v).__name__}


def probe(rank, name, fn):
    try:
        out = describe(fn())
    except Exception as e:  # noqa: BLE001 - the error is the answer
        out = {"error": type(e).__name__, "message": str(e).split("\n")[0][:200]}
    print(json.dumps({"rank": rank, "probe": name, "answer": out}), flush=True)


def to_local(t):
    from paddle.distributed.auto_parallel.api import dtensor_to_local

    return dtensor_to_local(t, t.process_mesh, t.placements)


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    m1 = dist.ProcessMesh([1], dim_names=["x"])  # (the mesh [0] holds the other stage; nothing of it is read)
    loss = dist.shard_tensor(paddle.to_tensor(3.5), m1, [dist.Replicate()])
    vec = dist.shard_tensor(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]), m1, [dist.Shard(0)])
    for name, t in (("loss", loss), ("vec", vec)):
        probe(rank, f"{name}.shape", lambda: list(t.shape))
        probe(rank, f"{name}._is_initialized", lambda: t._is_initialized())
        probe(rank, f"{name}.numpy", lambda: t.numpy())
        probe(rank, f"{name}._local_value", lambda: t._local_value())
        probe(rank, f"{name}.item", lambda: t.item())
        probe(rank, f"{name}.tolist", lambda: t.tolist())
        probe(rank, f"{name}.dtensor_to_local", lambda: to_local(t))
        probe(rank, f"{name}.dtensor_to_local.numpy", lambda: to_local(t).numpy())
    probe(rank, "loss.bool", lambda: bool(loss))
    probe(rank, "loss.float", lambda: float(loss))
    probe(rank, "loss.int", lambda: int(loss))
    probe(rank, "vec.int", lambda: int(vec))
    if os.environ.get("OUTSIDE_MESH_OPS") == "1":  # (real Paddle 3.3.1 segfaults on ops there: shim only)
        # the two-stage program: stage 0 on mesh [0], its output moved to mesh [1], the loss computed there
        m0 = dist.ProcessMesh([0], dim_names=["x"])
        x = dist.shard_tensor(paddle.to_tensor([1.0, 2.0, 3.0, 4.0]), m0, [dist.Replicate()])
        h = dist.reshard(x * 2, m1, [dist.Replicate()])
        staged = (h * h).mean()
        for name in ("item", "tolist", "numpy", "_is_initialized"):
            probe(rank, f"staged.{name}", getattr(staged, name))
        probe(rank, "staged.float", lambda: float(staged))
        probe(rank, "staged.shape", lambda: list(staged.shape))
    dist.barrier()


if __name__ == "__main__":
    main()
