# The seed hybrid MLP (../shared/seed_examples/hybrid_mlp.py) written by hand in plain torch:
# data + tensor parallel on two 2x2 meshes, a pipeline transfer between them, AdamW.
# torchrun --standalone --nproc-per-node=8 bench/twins/hybrid_mlp_torch.py
# (for the lines-of-code comparison in bench/distributed.py: it runs on 8 gloo ranks; its numbers
# were not compared with the seed's)
import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_tensor
from torch.utils.data import DataLoader, Dataset, DistributedSampler

dist.init_process_group("gloo")
rank = dist.get_rank()
mesh0 = DeviceMesh("cpu", torch.tensor([[0, 1], [2, 3]]), mesh_dim_names=("x", "y"))
mesh1 = DeviceMesh("cpu", torch.tensor([[4, 5], [6, 7]]), mesh_dim_names=("x", "y"))
my_mesh = mesh0 if rank < 4 else mesh1


class RandomDataset(Dataset):
    def __init__(self, seq_len, hidden, num_samples=100):
        self.seq_len, self.hidden, self.num_samples = seq_len, hidden, num_samples

    def __getitem__(self, idx):
        return (np.random.uniform(size=[self.seq_len, self.hidden]).astype("float32"),
                np.random.uniform(size=[self.seq_len, self.hidden]).astype("float32"))

    def __len__(self):
        return self.num_samples


class StageTransfer(torch.autograd.Function):
    """Send this rank's piece to the rank at the same position of the other mesh (and gradients back)."""

    @staticmethod
    def forward(ctx, local, src, dst, shape):
        ctx.src, ctx.dst, ctx.shape = src, dst, local.shape
        if rank == src:
            dist.send(local.contiguous(), dst)
            return local.new_empty(0)
        out = torch.empty(shape)
        dist.recv(out, src)
        return out

    @staticmethod
    def backward(ctx, grad):
        if rank == ctx.dst:
            dist.send(grad.contiguous(), ctx.src)
            return None, None, None, None
        out = torch.empty(ctx.shape)
        dist.recv(out, ctx.dst)
        return out, None, None, None


class MlpModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        w0 = torch.nn.init.xavier_uniform_(torch.empty(1024, 4096))
        w1 = torch.nn.init.xavier_uniform_(torch.empty(4096, 1024))
        self.w0 = torch.nn.Parameter(distribute_tensor(w0, mesh0, [Replicate(), Shard(1)]))
        self.w1 = torch.nn.Parameter(distribute_tensor(w1, mesh1, [Replicate(), Shard(0)]))

    def forward(self, x):
        if rank < 4:
            y = torch.matmul(DTensor.from_local(x, mesh0, [Shard(0), Replicate()]), self.w0)
            y = y.redistribute(mesh0, [Shard(0), Shard(2)]).to_local()
            return StageTransfer.apply(y, rank, rank + 4, None)
        shape = (x.shape[0], x.shape[1], 4096 // 2)
        y = StageTransfer.apply(torch.empty(0, requires_grad=True), rank - 4, rank, shape)
        y = DTensor.from_local(y, mesh1, [Shard(0), Shard(2)])
        return torch.matmul(y, self.w1)


model = MlpModel()
dataset = RandomDataset(128, 1024)
sampler = DistributedSampler(dataset, num_replicas=2, rank=my_mesh.get_coordinate()[0], shuffle=False)
loader = DataLoader(dataset, batch_size=1, sampler=sampler)
opt = torch.optim.AdamW([p for p in model.parameters() if p.device_mesh.get_coordinate() is not None], lr=0.001)

for step, (data, _) in enumerate(loader):
    logits = model(data)
    if rank >= 4:
        loss = logits.mean()
        loss.backward()
    else:
        logits.backward(torch.empty(0))
    opt.step()
    opt.zero_grad()
dist.barrier()
dist.destroy_process_group()
