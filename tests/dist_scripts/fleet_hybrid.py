"""A PaddleNLP-style GPT-ish model trained with fleet hybrid parallelism: `fleet.init` with
dp x mp x pp from the launcher's world size (8 ranks: 2 x 2 x 2; one process: 1 x 1 x 1), a
PipelineLayer of LayerDesc / SharedLayerDesc (the embedding shared with the LM head), tensor-parallel
attention and MLP, ParallelCrossEntropy, recompute, AdamW with global-norm clipping.  Prints
`loss STEP VALUE` (the loss train_batch returns) and a final `eval VALUE`; the test compares them
with the same script run in one process.  Weights are set from full arrays (by parameter name), each
rank taking its shard, so every layout starts from the same model."""
import sys
import zlib

import numpy as np
import paddle
import paddle.distributed as dist
import paddle.nn.functional as F
from paddle.distributed import fleet
from paddle.distributed.fleet.layers.mpu import mp_ops
from paddle.distributed.fleet.meta_parallel import (ColumnParallelLinear, LayerDesc, ParallelCrossEntropy,
                                                    PipelineLayer, RowParallelLinear, SharedLayerDesc,
                                                    VocabParallelEmbedding)

VOCAB, HIDDEN, HEADS, SEQ, BATCH, STEPS = 16, 8, 2, 6, 8, int(sys.argv[1]) if len(sys.argv) > 1 else 3
world = dist.get_world_size()
dp, mp, pp = (2, 2, 2) if world == 8 else (1, 1, 1)
acc = 2
strategy = fleet.DistributedStrategy()
strategy.hybrid_configs = {"dp_degree": dp, "mp_degree": mp, "pp_degree": pp}
strategy.pipeline_configs = {"accumulate_steps": acc, "micro_batch_size": BATCH // dp // acc}
fleet.init(is_collective=True, strategy=strategy)
hcg = fleet.get_hybrid_communicate_group()


class Embedding(paddle.nn.Layer):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.word = VocabParallelEmbedding(vocab, hidden)
        self.pos = paddle.nn.Embedding(SEQ, hidden)

    @property
    def weight(self):
        return self.word.weight

    def forward(self, ids):
        return self.word(ids) + self.pos(paddle.arange(ids.shape[1]))


def lm_head(embedding, hidden):
    # PaddleNLP's parallel_matmul: identity forward / all-reduce backward, then my vocabulary slice
    hidden = mp_ops._c_identity(hidden, group=hcg.get_model_parallel_group())
    return paddle.matmul(hidden, embedding.weight, transpose_y=True)


class Block(paddle.nn.Layer):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads // hcg.get_model_parallel_world_size()
        self.ln1, self.ln2 = paddle.nn.LayerNorm(hidden), paddle.nn.LayerNorm(hidden)
        self.qkv = ColumnParallelLinear(hidden, 3 * hidden, has_bias=True, gather_output=False)
        self.proj = RowParallelLinear(hidden, hidden, input_is_parallel=True)
        self.fc1 = ColumnParallelLinear(hidden, 4 * hidden, has_bias=True, gather_output=False)
        self.fc2 = RowParallelLinear(4 * hidden, hidden, input_is_parallel=True)

    def forward(self, x):
        b, s, _ = x.shape
        q, k, v = paddle.split(self.qkv(self.ln1(x)).reshape([b, s, self.heads, -1]), 3, axis=-1)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True).reshape([b, s, -1])
        x = x + self.proj(att)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class Norm(paddle.nn.LayerNorm):
    pass


class Criterion(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.ce = ParallelCrossEntropy()

    def forward(self, logits, labels):
        return self.ce(logits, labels.unsqueeze(-1)).mean()


model = PipelineLayer(
    layers=[SharedLayerDesc("embed", Embedding, None, "weight", VOCAB, HIDDEN),
            LayerDesc(Block, HIDDEN, HEADS), LayerDesc(Block, HIDDEN, HEADS), LayerDesc(Norm, HIDDEN),
            SharedLayerDesc("embed", Embedding, lm_head, "weight", VOCAB, HIDDEN)],
    topology=hcg.topology(), loss_fn=Criterion(), seg_method="layer:Block", recompute_interval=1,
    recompute_ctx={"mp_group": hcg.get_model_parallel_group(), "offload": False, "partition": False})

# the same full weights in every layout: each rank takes its shard
for name, p in model.named_parameters():
    shape = list(p.shape)
    axis = getattr(p, "split_axis", None) if p.is_distributed else None
    if axis is not None:
        shape[axis] *= hcg.get_model_parallel_world_size()
    full = np.random.RandomState(zlib.crc32(name.encode())).standard_normal(shape).astype("float32") * 0.3
    if axis is not None:
        full = np.split(full, hcg.get_model_parallel_world_size(), axis=axis)[hcg.get_model_parallel_rank()]
    p.set_value(full)

model = fleet.distributed_model(model)
sched = paddle.optimizer.lr.StepDecay(0.02, step_size=1, gamma=0.5)
opt = paddle.optimizer.AdamW(sched, parameters=model.parameters(), weight_decay=0.01,
                             grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
opt = fleet.distributed_optimizer(opt)

data = np.random.RandomState(0).randint(0, VOCAB, size=(STEPS + 1, BATCH, SEQ + 1))
d = hcg.get_data_parallel_rank()
rows = slice(d * BATCH // dp, (d + 1) * BATCH // dp)
for step in range(STEPS):
    batch = data[step, rows]
    loss = model.train_batch([paddle.to_tensor(batch[:, :-1]), paddle.to_tensor(batch[:, 1:])], opt, sched)
    print("loss", step, repr(float(loss)), flush=True)
batch = data[STEPS, rows]
loss = model.eval_batch([paddle.to_tensor(batch[:, :-1]), paddle.to_tensor(batch[:, 1:])], compute_loss=True)
print("eval", repr(float(loss)), flush=True)
