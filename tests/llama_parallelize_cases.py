"""PaddleNLP 3.0.0b4's plain LLaMA for the intermediate API (transformers/llama/modeling_network.py:
LlamaForCausalLMNet, LlamaPretrainingCriterionNet), tiny, parallelised by `dist.parallelize` with the model's own
plan (`auto_dist_config`, merged by `PretrainedModel._generate_auto_dist_config` as AutoTrainer.parallel_model
does for --use_intermediate_api).  Shared by tools/record_llama_parallelize.py (real Paddle, one process, no
parallelisation) and tests/dist_scripts/llama_parallelize.py (the shim under torchrun).
"""
import numpy as np

from tests.llama_auto_cases import BATCH, LR, SEED, SEQ, STEPS, VOCAB, _Rows, data  # noqa: F401  (the same data)
from tests.llama_auto_cases import CONFIG as _AUTO_CONFIG

CONFIG = dict(_AUTO_CONFIG, use_flash_attention=False)
WEIGHTS = "llama_net"  # tests/data/llama_parallelize/<WEIGHTS>.pdparams, written by real Paddle


def degrees(tp=False, pp=False, dp=False, sharding=None, sp=False):
    """AutoTrainer.parallel_model's `auto_dist_degree` (sharding: None or 'stage1' / 'stage2' / 'stage3')."""
    from paddlenlp.trainer.trainer_utils import ShardingOption

    opt = {None: [], "stage1": [ShardingOption.SHARD_OP], "stage2": [ShardingOption.SHARD_GRAD_OP],
           "stage3": [ShardingOption.FULL_SHARD]}[sharding]
    return {"tensor_parallel": tp, "sequence_parallel": sp, "pipeline_parallel": pp, "data_sharding_parallel": dp,
            "sharding": opt, "sharding_mesh_dim": "dp"}


def build(paddle, weights=None, mp=1, **config):
    """LlamaForCausalLMNet and its criterion built lazily (paddle.LazyGuard, as the intermediate API wants), the
    parameter names starting afresh; the Paddle-saved state dict `weights` is loaded after `initialize()`."""
    from paddlenlp.transformers import LlamaConfig
    from paddlenlp.transformers.llama.modeling_network import LlamaForCausalLMNet, LlamaPretrainingCriterionNet

    cfg = LlamaConfig(**dict(CONFIG, **config))
    cfg.tensor_parallel_degree = mp
    cfg.tensor_parallel_rank = 0
    paddle.seed(SEED)
    with paddle.utils.unique_name.guard(), paddle.LazyGuard():
        model = LlamaForCausalLMNet(cfg)
        criterion = LlamaPretrainingCriterionNet(cfg)
    return model, criterion


def initialize(paddle, model, weights=None):
    """Materialise the lazy parameters (each on its own mesh after parallelize) and load `weights`."""
    for p in model.parameters():
        if not p._is_initialized():
            p.initialize()
    if weights is not None:
        state = paddle.load(weights)
        own = model.state_dict()
        assert sorted(state) == sorted(own), "the saved weights' keys differ from the model's"
        model.set_state_dict(state)


def optimizer(paddle, model):
    """AdamW with global-norm clipping, as the pretraining defaults."""
    return paddle.optimizer.AdamW(learning_rate=LR, parameters=model.parameters(), weight_decay=0.01,
                                  grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))


def plain_loader(paddle, start=0, stop=STEPS):
    ids, labels = (a[start * BATCH:stop * BATCH] for a in data())
    return paddle.io.DataLoader(_Rows(ids, labels), batch_size=BATCH, shuffle=False, drop_last=True)


def loader(paddle, pp=1, start=0, stop=STEPS):
    """As AutoTrainer._wrap_for_dist_loader: ids on the first stage's mesh, labels on the last's, batch on 'dp'."""
    dist = paddle.distributed
    mesh = dist.fleet.auto.get_mesh()
    meshes = [mesh.get_mesh_with_dim("pp")[0]]
    if pp > 1:
        meshes.append(mesh.get_mesh_with_dim("pp")[pp - 1])
    return dist.shard_dataloader(plain_loader(paddle, start, stop), meshes=meshes, shard_dims="dp")


def _value(loss):
    """The loss as a float, or None on a process that holds no part of it (an earlier pipeline stage)."""
    if loss is None:
        return None
    if hasattr(loss, "_is_initialized") and not loss._is_initialized():
        return None
    return float(np.asarray(loss.numpy()).reshape(-1)[0])


def train(paddle, model, criterion, opt, dl):
    losses = []
    model.train()
    for ids, labels in dl:
        loss = criterion(model(ids), labels)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(_value(loss))
    return losses


# ---------------------------------------------------------------- PaddleNLP's AutoTrainer (--use_intermediate_api)
def stand_in_checkpoint_converter():
    """PaddleNLP 3.0.0b4's auto_trainer imports trainer/utils/ckpt_converter.py, which imports
    paddle.distributed.checkpoint: Paddle 3.3.1 no longer has that module (it is flex_checkpoint.dcp now), so the
    import fails under real Paddle as here.  AutoTrainer uses the converter only to resume from a hybrid-parallel
    checkpoint; both sides put this module in its place to drive the trainer at all."""
    import sys
    import types

    name = "paddlenlp.trainer.utils.ckpt_converter"
    if name not in sys.modules:
        mod = types.ModuleType(name)
        mod.CheckpointConverter = None  # (never called: nothing resumes here)
        sys.modules[name] = mod


class _Dicts:
    """The rows of data() as AutoTrainer's collator wants them."""

    def __init__(self):
        self.ids, self.labels = data()

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.labels[i]}


def auto_trainer_losses(paddle, weights, output_dir, dp=1, intermediate=True):
    """STEPS steps of AutoTrainer at data parallel degree `dp` (the launch's world), constant learning rate, from
    `weights`; the loss AutoTrainer logs at each step.  `intermediate`: --use_intermediate_api (parallelize_model /
    parallelize_optimizer with the model's own plan; real Paddle refuses it in one process, where nothing is
    parallelised: 'Please use model after parallelize to create optimizer'), else the model as it is."""
    stand_in_checkpoint_converter()
    from paddlenlp.trainer import TrainerCallback
    from paddlenlp.trainer.auto_trainer import AutoTrainer
    from paddlenlp.trainer.auto_training_args import AutoTrainingArguments

    class Losses(TrainerCallback):
        def __init__(self):
            self.seen = []

        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and "loss" in logs:
                self.seen.append(float(logs["loss"]))

    args = AutoTrainingArguments(output_dir=output_dir, enable_auto_parallel=True, use_intermediate_api=intermediate,
                                 per_device_train_batch_size=BATCH // dp, max_steps=STEPS, learning_rate=LR,
                                 lr_scheduler_type="constant", warmup_steps=0, weight_decay=0.01, max_grad_norm=1.0,
                                 logging_steps=1, save_strategy="no", report_to=[], seed=SEED, disable_tqdm=True,
                                 dataloader_drop_last=True, do_train=True)
    model, criterion = build(paddle)
    losses = Losses()
    trainer = AutoTrainer(model=model, args=args, train_dataset=_Dicts(), criterion=criterion, callbacks=[losses])
    trainer.model.set_state_dict(paddle.load(weights))
    trainer.train()
    return losses.seen
