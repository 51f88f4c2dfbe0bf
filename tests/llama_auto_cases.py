"""PaddleNLP 3.0.0b4's auto-parallel LLaMA (transformers/llama/modeling_auto.py), tiny: the config, the data, the
set-up its llm/auto_parallel/llama/run_pretrain_auto.py does, and the training loop.  Shared by
tools/record_llama_auto.py (real Paddle, one process) and tests/dist_scripts/llama_auto.py (the shim under
torchrun), so both sides run the same code.

Set-up, as the pretraining script and PaddleNLP's AutoTrainer do it: the global mesh from
`fleet.auto.create_mesh([("pp", pp), ("dp", dp), ("mp", mp)])` (AutoTrainingArguments' pp_first order), the model
and criterion built under `paddle.LazyGuard` and each parameter `initialize()`d (the model places its own
parameters: column / row tensor parallel on "mp", decoder layers on the pipeline stage meshes), the Paddle-saved
weights loaded with set_state_dict, AdamW with global-norm clipping wrapped in `dist.shard_optimizer` (a sharding
stage on "dp" when asked), the data from `dist.shard_dataloader(meshes=[first stage, last stage],
shard_dims="dp")`; then either the dynamic loop (forward, criterion, backward, step) or `dist.to_static`.
"""
import numpy as np

SEED = 2024
STEPS = 4
LR = 1e-2
VOCAB, SEQ, BATCH = 64, 8, 8  # BATCH is the global batch of one step
CONFIG = dict(vocab_size=VOCAB, hidden_size=16, intermediate_size=32, num_hidden_layers=4, num_attention_heads=4,
              num_key_value_heads=4, max_position_embeddings=32, seq_length=SEQ, rms_norm_eps=1e-6,
              use_fast_layer_norm=False)
WEIGHTS = "llama_auto"  # tests/data/llama_auto/<WEIGHTS>.pdparams, written by real Paddle


def data():
    """STEPS batches of token ids and labels, drawn from a seeded NumPy generator."""
    rng = np.random.RandomState(SEED)
    ids = rng.randint(3, VOCAB, (STEPS * BATCH, SEQ)).astype("int64")
    labels = rng.randint(3, VOCAB, (STEPS * BATCH, SEQ)).astype("int64")
    return ids, labels


class _Rows:
    def __init__(self, ids, labels):
        self.ids, self.labels = ids, labels

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return self.ids[i], self.labels[i]


def stage_mesh(paddle, index):
    """The mesh of pipeline stage `index` (-1: the last), as modeling_auto's get_mesh does."""
    mesh = paddle.distributed.fleet.auto.get_mesh()
    return mesh.get_mesh_with_dim("pp", index) if "pp" in mesh.dim_names else mesh


def build(paddle, pp=1, dp=1, mp=1, weights=None, recompute=None, **config):
    """The global mesh, LlamaForCausalLM3DAuto and its criterion, as run_pretrain_auto.py makes them, with the
    weights of the Paddle-saved state dict `weights` (a path) when given.  `recompute` ("full", "full_attn",
    "core_attn") turns recomputation on as the script does for --recompute: the granularity in the config and
    every layer's enable_recompute set."""
    if recompute is not None:
        config["recompute_granularity"] = recompute
    from paddle.distributed import fleet
    from paddlenlp.transformers import LlamaConfig, LlamaForCausalLM3DAuto, LlamaPretrainingCriterion3DAuto

    fleet.auto.create_mesh([("pp", pp), ("dp", dp), ("mp", mp)])
    cfg = LlamaConfig(**dict(CONFIG, **config))
    cfg.tensor_parallel_degree = mp
    cfg.tensor_parallel_rank = 0
    paddle.seed(SEED)
    # parameter names (and so the optimizer's state keys) start afresh: the same in every build and layout
    with paddle.utils.unique_name.guard(), paddle.LazyGuard():
        model = LlamaForCausalLM3DAuto(cfg)
        criterion = LlamaPretrainingCriterion3DAuto(cfg)
    for p in model.parameters():
        assert not p._is_initialized()
        p.initialize()
    if recompute is not None:
        def enable(layer):
            if hasattr(layer, "enable_recompute") and not layer.enable_recompute:
                layer.enable_recompute = True

        model.apply(enable)
    if weights is not None:
        state = paddle.load(weights)
        own = model.state_dict()
        assert sorted(state) == sorted(own), "the saved weights' keys differ from the model's"
        model.set_state_dict(state)
    return model, criterion


def loader(paddle, pp=1, start=0, stop=STEPS):
    """Batches start..stop-1 as shard_dataloader yields them: ids on the first stage's mesh, labels on the last's,
    the batch split over "dp"."""
    dist = paddle.distributed
    ids, labels = (a[start * BATCH:stop * BATCH] for a in data())
    base = paddle.io.DataLoader(_Rows(ids, labels), batch_size=BATCH, shuffle=False, drop_last=True)
    meshes = [stage_mesh(paddle, 0), stage_mesh(paddle, -1)] if pp > 1 else [stage_mesh(paddle, 0)]
    return dist.shard_dataloader(base, meshes=meshes, shard_dims="dp")


def optimizer(paddle, model, stage=None):
    """AdamW with global-norm clipping (the pretraining defaults' kind), in dist.shard_optimizer; `stage` 1 / 2 / 3
    shards its states (and gradients, parameters) over "dp" as AutoTrainer does for --sharding stageN."""
    dist = paddle.distributed
    opt = paddle.optimizer.AdamW(learning_rate=LR, parameters=model.parameters(), weight_decay=0.01,
                                 grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    shard_fn = {None: None, 1: dist.ShardingStage1, 2: dist.ShardingStage2, 3: dist.ShardingStage3}[stage]
    return dist.shard_optimizer(opt, shard_fn if shard_fn is None else shard_fn("dp"))


def _value(loss):
    """The loss as a float, or None on a process that holds no part of it (an earlier pipeline stage)."""
    if loss is None:
        return None
    if hasattr(loss, "_is_initialized") and not loss._is_initialized():
        return None
    return float(np.asarray(loss if not hasattr(loss, "numpy") else loss.numpy()).reshape(-1)[0])


def train(paddle, model, criterion, opt, dl, mode="dynamic", strategy=None):
    """The losses of one pass over `dl` (one optimizer step per batch): 'dynamic' runs the eager loop,
    'static' dist.to_static's DistModel with `strategy`."""
    losses = []
    if mode == "static":
        dm = paddle.distributed.to_static(model, dl, criterion, opt, strategy=strategy)
        dm.train()
        for ids, labels in dl:
            losses.append(_value(dm(ids, labels)))
        return losses
    model.train()
    for ids, labels in dl:
        loss = criterion(model(ids), labels)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(_value(loss))
    return losses
