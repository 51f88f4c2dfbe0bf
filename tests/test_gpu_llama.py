"""A LLaMA training step on a CUDA GPU against the same step on the CPU (issue 29, item 4; run by
tools/gpu_checks.sh on a lent machine): eager with the plain ops, eager with Paddle's fused ops (fused_rms_norm,
fused_rotary_position_embedding, swiglu: the Triton kernels on CUDA, the C++ ones on the CPU), and to_static.
The CPU run of the same code, from the same initial weights and data, is the reference.  The CPU-only case checks
this file's model itself, so the GPU run cannot fail on a broken script."""
import numpy as np
import pytest
import torch

VOCAB, DIM, HEADS, LAYERS, SEQ, BATCH, STEPS = 128, 64, 4, 2, 16, 2, 3


def _model(paddle, fused):
    nn, F = paddle.nn, paddle.nn.functional
    IF = paddle.incubate.nn.functional
    hd = DIM // HEADS

    def rms(x, w):
        if fused:
            return IF.fused_rms_norm(x, w, None, 1e-6, x.ndim - 1)[0]
        return paddle.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * x * w

    def rope(q, k, sin, cos):
        if fused:
            return IF.fused_rotary_position_embedding(q, k, None, sin=sin, cos=cos, use_neox_rotary_style=True)[:2]

        def rot(x):
            x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
            return x * cos + paddle.concat([-x2, x1], axis=-1) * sin
        return rot(q), rot(k)

    class Layer(nn.Layer):
        def __init__(self):
            super().__init__()
            self.n1 = self.create_parameter([DIM], default_initializer=nn.initializer.Constant(1.0))
            self.n2 = self.create_parameter([DIM], default_initializer=nn.initializer.Constant(1.0))
            self.qkv, self.o = nn.Linear(DIM, 3 * DIM, bias_attr=False), nn.Linear(DIM, DIM, bias_attr=False)
            self.gate_up, self.down = nn.Linear(DIM, 4 * DIM, bias_attr=False), nn.Linear(2 * DIM, DIM, bias_attr=False)

        def forward(self, x, sin, cos):
            b = x.shape[0]
            q, k, v = paddle.split(self.qkv(rms(x, self.n1)).reshape([b, SEQ, 3 * HEADS, hd]), 3, axis=2)
            q, k = rope(q, k, sin, cos)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # [b, seq, heads, hd]
            x = x + self.o(a.reshape([b, SEQ, DIM]))
            g, u = paddle.split(self.gate_up(rms(x, self.n2)), 2, axis=-1)
            h = IF.swiglu(g, u) if fused else F.silu(g) * u
            return x + self.down(h)

    class Llama(nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(VOCAB, DIM)
            self.layers = nn.LayerList([Layer() for _ in range(LAYERS)])
            self.norm = self.create_parameter([DIM], default_initializer=nn.initializer.Constant(1.0))
            self.head = nn.Linear(DIM, VOCAB, bias_attr=False)

        def forward(self, ids):
            inv = 1.0 / (10000 ** (paddle.arange(0, hd, 2, dtype="float32") / hd))
            freqs = paddle.outer(paddle.arange(SEQ, dtype="float32"), inv)
            emb = paddle.concat([freqs, freqs], axis=-1).reshape([1, SEQ, 1, hd])
            sin, cos = paddle.sin(emb), paddle.cos(emb)
            x = self.emb(ids)
            for layer in self.layers:
                x = layer(x, sin, cos)
            return self.head(rms(x, self.norm))

    return Llama()


def llama_losses(paddle, device, fused=False, to_static=False):
    """Losses of STEPS AdamW steps on `device` from fixed initial weights and data (numpy seeds)."""
    paddle.set_device(device)
    try:
        paddle.seed(1)
        model = _model(paddle, fused)
        rng = np.random.default_rng(0)
        for p in model.parameters():  # the same start on every device
            p.set_value(rng.standard_normal(p.shape).astype("float32") * 0.05 + (1.0 if p.ndim == 1 else 0.0))
        ids = paddle.to_tensor(rng.integers(0, VOCAB, (BATCH, SEQ)))
        labels = paddle.to_tensor(rng.integers(0, VOCAB, (BATCH, SEQ)))
        opt = paddle.optimizer.AdamW(1e-3, parameters=model.parameters(), grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))

        def loss_fn(ids, labels):
            return paddle.nn.functional.cross_entropy(model(ids).reshape([-1, VOCAB]), labels.reshape([-1]))

        if to_static:
            loss_fn = paddle.jit.to_static(loss_fn, full_graph=True)
        losses = []
        for _ in range(STEPS):
            loss = loss_fn(ids, labels)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(float(loss))
        return losses
    finally:
        paddle.set_device("cpu")


def test_cpu_model_runs(paddle):
    """This file's model on the CPU, plain and fused (what the GPU runs are compared with): both train, and agree to
    about 1e-3 (the fused rotary and norm kernels round differently from the composition)."""
    plain, fused = llama_losses(paddle, "cpu"), llama_losses(paddle, "cpu", fused=True)
    assert all(np.isfinite(plain)) and plain[-1] < plain[0]
    np.testing.assert_allclose(fused, plain, rtol=2e-3)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("fused,to_static", [(False, False), (True, False), (False, True), (True, True)])
def test_llama_step_on_the_gpu_matches_the_cpu(paddle, fused, to_static):
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 matmuls without TF32: the CPU's rounding
    try:
        gpu = llama_losses(paddle, "gpu", fused, to_static)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    cpu = llama_losses(paddle, "cpu", fused, to_static=False)
    np.testing.assert_allclose(gpu, cpu, rtol=2e-4)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_llama_saved_and_loaded_on_the_gpu_matches_the_cpu(paddle, tmp_path):
    """Deployment: paddle.jit.save of the model built on the GPU, paddle.jit.load there, against CPU eager."""
    rng = np.random.default_rng(0)
    ids = rng.integers(0, VOCAB, (BATCH, SEQ))
    outs = {}
    for device in ("cpu", "gpu"):
        paddle.set_device(device)
        try:
            paddle.seed(1)
            model = _model(paddle, fused=False)
            state = np.random.default_rng(3)
            for p in model.parameters():
                p.set_value(state.standard_normal(p.shape).astype("float32") * 0.05 + (1.0 if p.ndim == 1 else 0.0))
            model.eval()
            if device == "cpu":
                outs["cpu"] = model(paddle.to_tensor(ids)).numpy()
            else:
                spec = [paddle.static.InputSpec([BATCH, SEQ], "int64")]
                paddle.jit.save(model, str(tmp_path / "llama"), input_spec=spec)
                loaded = paddle.jit.load(str(tmp_path / "llama"))
                out = loaded(paddle.to_tensor(ids))
                assert "gpu" in str(out.place).lower()
                outs["gpu"] = out.numpy()
        finally:
            paddle.set_device("cpu")
    np.testing.assert_allclose(outs["gpu"], outs["cpu"], rtol=1e-3, atol=1e-4)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_random_streams_on_the_gpu_repeat_under_a_seed(paddle):
    """paddle.seed makes the CUDA generator's streams repeat (randn, uniform, randint, dropout), and they look like
    their distributions (Paddle's GPU streams are not its CPU ones, so no bit comparison with the CPU)."""
    paddle.set_device("gpu")
    try:
        def draw():
            paddle.seed(2024)
            x = paddle.randn([4096])
            u = paddle.uniform([4096], min=-1.0, max=1.0)
            r = paddle.randint(0, 10, [4096])
            d = paddle.nn.functional.dropout(paddle.ones([4096]), p=0.5, training=True)
            return [v.numpy() for v in (x, u, r, d)]

        first, second = draw(), draw()
        for a, b in zip(first, second):
            np.testing.assert_array_equal(a, b)
        x, u, r, d = first
        assert abs(x.mean()) < 0.1 and abs(x.std() - 1) < 0.1 and -1 <= u.min() and u.max() < 1
        assert set(np.unique(r)) <= set(range(10)) and 0.4 < (d == 0).mean() < 0.6
    finally:
        paddle.set_device("cpu")
