"""Tiny PaddleNLP models, their fixed inputs and the training loop: shared by tools/record_paddlenlp.py (real
Paddle) and tests/test_paddlenlp.py (the shim), so both sides run the same code.

Each case names the PaddleNLP model class, its config, the weight file it loads (cases that differ only in a
switch such as use_flash_attention share one) and, where real Paddle cannot run the case on the CPU, the case
whose results are the reference (the same weights through the plain path).
"""
from collections import namedtuple

import numpy as np

SEED = 2024
TOL = 1e-4  # logits and losses against real Paddle's
STEPS = 4
LR = 1e-2
VOCAB = 64
BATCH, SEQ = 2, 8

Case = namedtuple("Case", "model config kind weights reference patch", defaults=(None, None))

_LLAMA = dict(vocab_size=VOCAB, hidden_size=16, intermediate_size=32, num_hidden_layers=2, num_attention_heads=4,
              max_position_embeddings=32, seq_length=32, rms_norm_eps=1e-6)
_BERT = dict(vocab_size=VOCAB, hidden_size=16, num_hidden_layers=2, num_attention_heads=4, intermediate_size=32,
             max_position_embeddings=32, type_vocab_size=2, hidden_dropout_prob=0.0,
             attention_probs_dropout_prob=0.0, num_labels=3)
_GPT = dict(vocab_size=VOCAB, hidden_size=16, num_hidden_layers=2, num_attention_heads=4, intermediate_size=32,
            max_position_embeddings=32, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)

CASES = {
    "llama": Case("LlamaForCausalLM", _LLAMA, "causal", "llama"),
    "llama_gqa": Case("LlamaForCausalLM", dict(_LLAMA, num_key_value_heads=2), "causal", "llama_gqa"),
    "llama_fused_qkv_ffn": Case("LlamaForCausalLM", dict(_LLAMA, fuse_attention_qkv=True, fuse_attention_ffn=True),
                                "causal", "llama_fused_qkv_ffn"),
    "llama_flash_attention": Case("LlamaForCausalLM", dict(_LLAMA, use_flash_attention=True), "causal", "llama"),
    "llama_fused_rope": Case("LlamaForCausalLM", dict(_LLAMA, use_fused_rope=True), "causal", "llama"),
    # Paddle's CPU build cannot load PaddleNLP's fused_ln custom op: the plain path is the reference
    "llama_fused_rms_norm": Case("LlamaForCausalLM", dict(_LLAMA, use_fused_rms_norm=True, use_fast_layer_norm=False), "causal", "llama",
                                 reference="llama"),
    "qwen2": Case("Qwen2ForCausalLM", dict(_LLAMA, num_key_value_heads=2), "causal", "qwen2"),
    "qwen2_moe": Case("Qwen2MoeForCausalLM",
                      dict(_LLAMA, num_key_value_heads=2, num_experts=4, num_experts_per_tok=2,
                           moe_intermediate_size=16, shared_expert_intermediate_size=16), "causal", "qwen2_moe"),
    "mixtral": Case("MixtralForCausalLM", dict(_LLAMA, num_key_value_heads=2, intermediate_size=16, num_local_experts=4,
                                               num_experts_per_tok=2), "causal", "mixtral"),
    # the rest of Mixtral (attention, router, experts, aux-free loss) with our dense reference for the block that
    # fails in Paddle 3.x (see _dense_mixtral_moe): recorded from real Paddle too
    "mixtral_dense_moe": Case("MixtralForCausalLM", dict(_LLAMA, num_key_value_heads=2, intermediate_size=16,
                                                         num_local_experts=4, num_experts_per_tok=2), "causal",
                              "mixtral", patch="dense_mixtral_moe"),
    "gpt": Case("GPTForCausalLM", _GPT, "causal", "gpt"),
    "gpt_flash_attention": Case("GPTForCausalLM", dict(_GPT, use_flash_attention=True), "causal", "gpt"),
    # fast_ln, like fused_ln, is a PaddleNLP custom op Paddle's CPU build cannot load
    "gpt_fast_layer_norm": Case("GPTForCausalLM", dict(_GPT, use_fast_layer_norm=True), "causal", "gpt",
                                reference="gpt"),
    "bert": Case("BertForSequenceClassification", _BERT, "seqcls", "bert"),
    "ernie": Case("ErnieForSequenceClassification", _BERT, "seqcls", "ernie"),
    "t5": Case("T5ForConditionalGeneration",
               dict(vocab_size=VOCAB, d_model=16, d_kv=4, d_ff=32, num_layers=2, num_decoder_layers=2, num_heads=4,
                    relative_attention_num_buckets=8, dropout_rate=0.0, feed_forward_proj="relu",
                    pad_token_id=0, bos_token_id=0, decoder_start_token_id=0, eos_token_id=1), "seq2seq", "t5"),
    "bart": Case("BartForConditionalGeneration",
                 dict(vocab_size=VOCAB, d_model=16, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                      decoder_attention_heads=4, encoder_ffn_dim=32, decoder_ffn_dim=32, max_position_embeddings=32,
                      dropout=0.0, attention_dropout=0.0, activation_dropout=0.0), "seq2seq", "bart"),
}

# PaddleNLP's Trainer, on the LLaMA case's weights
TRAINER_CASE = "llama"
TRAINER_ARGS = dict(max_steps=4, per_device_train_batch_size=4, learning_rate=1e-2, logging_steps=1, seed=SEED,
                    save_strategy="no", report_to=[], disable_tqdm=True, dataloader_num_workers=0)


def build(transformers, case):
    """The case's model, built from its config (weights: the model's own seeded initialisation)."""
    model_cls = getattr(transformers, case.model)
    config = model_cls.config_class(**case.config)
    model = model_cls(config)
    if case.patch:
        globals()[case.patch](model)
    return model


def dense_mixtral_moe(model):
    """Give each MixtralSparseMoeBlock a dense reference forward: the same routing (softmax over the router's
    logits, top-k, weights renormalised over the k), every expert applied to every token and weighted by a
    one-hot mask.  PaddleNLP 3.0.0b4's own forward indexes with paddle.where's results as Paddle 2.x returned
    them ([N, 1]) and fails under Paddle 3.x on every device."""
    import types

    import paddle

    def forward(block, hidden_states):
        b, s, h = hidden_states.shape
        x = hidden_states.reshape([-1, h])
        router_logits = block.gate(x)
        probs = paddle.nn.functional.softmax(router_logits.astype("float32"), axis=1)
        top_w, top_i = paddle.topk(probs, block.top_k, axis=-1)
        top_w = top_w / top_w.sum(axis=-1, keepdim=True)
        mask = paddle.nn.functional.one_hot(top_i, block.num_experts).astype(top_w.dtype)  # [T, k, E]
        weights = (mask * top_w.unsqueeze(-1)).sum(axis=1)  # [T, E]
        out = paddle.zeros_like(x)
        for e, expert in enumerate(block.experts):
            out = out + expert(x) * weights[:, e:e + 1]
        return out.reshape([b, s, h]), router_logits

    for _, layer in model.named_sublayers():
        if type(layer).__name__ == "MixtralSparseMoeBlock":
            layer.forward = types.MethodType(forward, layer)


def inputs(case):
    """The fixed batch: token ids (and labels) drawn from a seeded NumPy generator."""
    rng = np.random.RandomState(SEED)
    ids = rng.randint(3, VOCAB, (BATCH, SEQ)).astype("int64")
    if case.kind == "seqcls":
        labels = rng.randint(0, case.config["num_labels"], (BATCH,)).astype("int64")
    else:  # causal LM, or seq2seq with targets as long as the source (BART builds its decoder inputs from them)
        labels = rng.randint(3, VOCAB, (BATCH, SEQ)).astype("int64")
    return ids, labels


def _pick(out, key, index):
    if isinstance(out, (tuple, list)):
        return out[index]
    if hasattr(out, "keys"):
        return out[key]
    return out


def run(paddle, model, case):
    """Eval-mode logits for the fixed inputs, then the losses of STEPS AdamW steps on the same batch."""
    ids, labels = inputs(case)
    x = paddle.to_tensor(ids)
    y = paddle.to_tensor(labels)
    model.eval()
    with paddle.no_grad():
        if case.kind == "seq2seq":
            out = model(input_ids=x, decoder_input_ids=y)
        else:
            out = model(input_ids=x)
        logits = _pick(out, "logits", 0).numpy()
    model.train()
    opt = paddle.optimizer.AdamW(learning_rate=LR, parameters=model.parameters(), weight_decay=0.01)
    losses = []
    for _ in range(STEPS):
        out = model(input_ids=x, labels=y)
        loss = _pick(out, "loss", 0)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return logits, losses


class _ListDataset:
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def trainer_dataset(case):
    """Four causal-LM rows; with per_device_train_batch_size=4 every step sees the whole set."""
    rng = np.random.RandomState(SEED + 1)
    ids = rng.randint(3, VOCAB, (4, SEQ)).astype("int64")
    labels = rng.randint(3, VOCAB, (4, SEQ)).astype("int64")
    return _ListDataset([{"input_ids": ids[i], "labels": labels[i]} for i in range(4)])


def train_with_trainer(trainer_module, model, output_dir):
    """TRAINER_ARGS' steps of PaddleNLP's Trainer on trainer_dataset; the losses it logs (one a step)."""
    losses = []

    class _Losses(trainer_module.TrainerCallback):
        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and "loss" in logs:
                losses.append(logs["loss"])

    args = trainer_module.TrainingArguments(output_dir=output_dir, **TRAINER_ARGS)
    trainer = trainer_module.Trainer(model=model, args=args, train_dataset=trainer_dataset(CASES[TRAINER_CASE]),
                                     callbacks=[_Losses()])
    trainer.train()
    return losses


def load_results(directory, name):
    """A case's stored results (<name>.npz): logits and losses, or error_type and error."""
    import os

    with np.load(os.path.join(directory, name + ".npz")) as f:
        return {k: f[k] for k in f.files}


def run_shim_worker(script, out_dir, lane=None, timeout=600):
    """Run `script`'s worker under the shim in a process of its own (importing these libraries patches paddle's
    modules, which must not leak into the test process), with `lane` first on PYTHONPATH when given."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.pathsep.join([p for p in [lane, root, os.environ.get("PYTHONPATH")] if p])
    env = dict(os.environ, PYTHONPATH=path, OMP_NUM_THREADS="1")
    p = subprocess.run([sys.executable, "-m", "paddle_on_torch", script, str(out_dir)], cwd=root, env=env,
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr[-4000:]


def check_case(case, name, data, out_dir, same_message=False):
    """The shim's results for `case` against real Paddle's recorded ones: the same error type where Paddle fails
    (and the same message's tail with `same_message`), else logits (shape, dtype, values) and AdamW losses."""
    want = load_results(data, case.reference or name)
    got = load_results(out_dir, name)
    if "error_type" in want:  # real Paddle fails here on the CPU, and so does the shim, with the same error type
        assert str(got.get("error_type")) == str(want["error_type"]), got.get("error", got)
        if same_message:
            assert str(got["error"]).strip().splitlines()[-1].endswith(str(want["error"]).splitlines()[0][-60:])
        return
    if case.reference:  # Paddle failed on this case; the shim computes what the plain path does
        assert "error_type" in load_results(data, name)
    assert "error_type" not in got, str(got["error"])
    logits = got["logits"]
    assert logits.shape == want["logits"].shape and logits.dtype == want["logits"].dtype
    np.testing.assert_allclose(logits, want["logits"], rtol=TOL, atol=TOL, err_msg=f"{name} logits")
    np.testing.assert_allclose(got["losses"], want["losses"], rtol=TOL, atol=TOL, err_msg=f"{name} AdamW losses")


def load_model(paddle, transformers, case, data):
    """The case's model with the Paddle-saved weights of data/<weights>.pdparams (keys and shapes checked)."""
    import os

    paddle.seed(SEED)
    model = build(transformers, case)
    state = paddle.load(os.path.join(data, case.weights + ".pdparams"))
    own = model.state_dict()
    assert sorted(state) == sorted(own), "state dict keys differ from the Paddle-saved file"
    for k, v in state.items():
        assert list(v.shape) == list(own[k].shape), f"{k}: shape {v.shape} != {own[k].shape}"
    model.set_state_dict(state)
    return model


def run_cases(paddle, transformers, cases, data, out_dir):
    """Run `cases` (Paddle-saved weights from `data`) and store each one's logits and losses, or the error it
    raised, as out_dir/<case>.npz: the shim's side of tests/test_paddlenlp.py and tests/test_paddleformers.py."""
    import os
    import traceback

    for name, case in cases.items():
        try:
            logits, losses = run(paddle, load_model(paddle, transformers, case, data), case)
            result = {"logits": logits, "losses": np.array(losses, dtype=np.float64)}
        except Exception as e:  # noqa: BLE001  (compared with what real Paddle raised)
            result = {"error_type": np.array(type(e).__name__), "error": np.array(traceback.format_exc()[-2000:])}
        np.savez(os.path.join(out_dir, name + ".npz"), **result)


def _shim_worker(out_dir):
    """Run every case and the Trainer under the shim and store what they computed (<case>.npz in out_dir).

    tests/test_paddlenlp.py runs this in its own process: `import paddlenlp` patches paddle at import
    (paddle.nn.functional.linear, the Transformer layers' forward, EagerParamBase.to), which must not leak into
    the other tests of the pytest process."""
    import os
    import tempfile

    import paddle

    import paddlenlp.data  # noqa: F401  (before paddlenlp.transformers: an import cycle in PaddleNLP)
    import paddlenlp.trainer
    import paddlenlp.transformers

    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddlenlp")
    paddle.set_device("cpu")
    run_cases(paddle, paddlenlp.transformers, CASES, data, out_dir)
    with tempfile.TemporaryDirectory() as tmp:
        model = load_model(paddle, paddlenlp.transformers, CASES[TRAINER_CASE], data)
        losses = train_with_trainer(paddlenlp.trainer, model, tmp)
    np.savez(os.path.join(out_dir, "trainer.npz"), losses=np.array(losses, dtype=np.float64))


if __name__ == "__main__":
    import sys

    _shim_worker(sys.argv[1])
