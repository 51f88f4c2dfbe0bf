"""Record real Paddle inference models for tests/test_inference_models.py (run under REAL Paddle 3.3.1).

    ~/oracle/bin/python tools/record_inference_models.py             # every model, both formats
    ~/oracle/bin/python tools/record_inference_models.py resnet gpt  # just these
    ~/oracle/bin/python tools/record_inference_models.py legacy_ops  # the Paddle 1.x/2.x op versions

For each model (the tests/model_zoo architectures at tiny widths, an LSTM, a transformer encoder
and a model that uses the remaining ops of the lowering table) it builds the Layer with
paddle.seed(2024), perturbs every parameter and buffer with seeded noise (BatchNorm statistics are
not the trivial 0/1), and writes with real `paddle.jit.save`:

  tests/data/inference_models/<name>/pir/model.json + model.pdiparams        (PIR, Paddle 3's default)
  tests/data/inference_models/<name>/legacy/model.pdmodel + model.pdiparams  (ProgramDesc; the save
      runs in a child process started with FLAGS_enable_pir_api=0, which switches PIR off)

plus `legacy_ops`: a static program built op by op from the Paddle 1.x/2.x op versions that
jit.save no longer writes (mul, flatten2, v1 reshape / transpose / matmul / lookup_table, sum,
fill_constant_batch_size_like, elementwise_add with `axis`), saved with save_inference_model;
and, for each format, the real inference predictor's outputs on fixed seeded inputs
(`io.npz`: input<i>, output<i>).  A model that real Paddle cannot save in a format is reported and
skipped for that format.  Widths are tiny so the stored files stay small.
"""
import os
import subprocess
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_inference_models must run under real Paddle"

import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "inference_models")
SEED = 2024


# ----------------------------------------------------------------- models not in the zoo
class LSTMNet(nn.Layer):
    """A bidirectional 1-layer LSTM with its final states."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 8, num_layers=1, direction="bidirect")
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out), h, c


class EncoderNet(nn.Layer):
    """nn.TransformerEncoder (pre-norm, relu) with a padding mask, mean-pooled."""

    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1, activation="relu", normalize_before=True)
        self.enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(16))
        self.head = nn.Linear(16, 4)

    def forward(self, x, mask):
        y = self.enc(x, src_mask=mask)
        return F.softmax(self.head(y.mean(axis=1)), axis=-1)


class OpsNet(nn.Layer):
    """The table's remaining ops: depthwise/transposed conv, interpolate, argmax/top_k/where/cast/gather,
    split/slice/stack, arange, scale, hard activations, pooling variants, clip, pow, reductions."""

    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2D(4, 4, 3, padding=1, groups=4)
        self.pw = nn.Conv2D(4, 6, 1)
        self.up = nn.Conv2DTranspose(6, 4, 3, stride=2, padding=1, output_padding=1)
        self.bn = nn.BatchNorm2D(4)
        self.drop = nn.Dropout(0.3)
        self.emb = nn.Embedding(10, 4)

    def forward(self, x, ids):
        y = F.hardswish(self.pw(F.relu6(self.dw(x))))
        y = F.leaky_relu(self.up(y), 0.1)
        y = self.bn(y)
        y = F.interpolate(y, scale_factor=0.5, mode="bilinear", align_corners=True)
        z = F.interpolate(y, size=[5, 5], mode="nearest")
        z = F.avg_pool2d(z, 2, stride=1, ceil_mode=True) + F.max_pool2d(z, 2, stride=1, padding=0, ceil_mode=True)
        a, b = paddle.split(y, 2, axis=1)
        c = paddle.concat([F.sigmoid(a) * paddle.tanh(b), F.silu(a)], axis=1)
        c = self.drop(c)
        s = paddle.transpose(c, [0, 2, 3, 1]).reshape([c.shape[0], -1, 2])
        prob = F.softmax(s, axis=-1)
        cls = paddle.argmax(prob, axis=-1)
        vals, idx = paddle.topk(s[:, :, 0], k=3, axis=1)
        w = paddle.where(s > 0, s, paddle.zeros_like(s) - 1.0).sum(axis=[1, 2])
        e = self.emb(ids)
        g = paddle.gather(e, paddle.to_tensor([2, 0]), axis=1)
        r = paddle.arange(0, 4, dtype="float32")
        t = (g * r).mean(axis=-1) * 2.0 + 1.0
        h = paddle.clip(paddle.pow(z.flatten(1), 2), 0.0, 1.0).max(axis=1, keepdim=True)
        st = paddle.stack([w, h.squeeze(-1)], axis=1)
        return cls.astype("int32"), vals, idx, paddle.exp(-st.abs()), t, z[:, 1:3, ::2, :].unsqueeze(0).sum(0)


class ControlNet(nn.Layer):
    """Data-dependent control flow: to_static turns the `if` into pd_op.if and the loop into pd_op.while."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x, n):
        y = self.fc(x)
        if y.mean() > 0:
            y = y * 2.0 + x
        else:
            y = y - 1.0
        i = paddle.zeros([1], "int64")
        while i < n:
            y = F.relu(y) + 0.5 * y
            i = i + 1
        return y, i


class MoreOpsNet(nn.Layer):
    """Ops real models use beyond the zoo: attention, einsum, slice assignment (set_value), take_along_axis,
    masked_fill, cumsum, group/instance norm, prelu, pad, one_hot, argsort, gather_nd, log_softmax, ..."""

    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(2, 4)
        self.inorm = nn.InstanceNorm2D(4)
        self.prelu = nn.PReLU(4)
        self.q = nn.Linear(8, 8)

    def forward(self, x, seq, idx):
        y = self.prelu(self.inorm(self.gn(x)))
        y = F.pad(y, [1, 2, 0, 1], mode="constant", value=0.5)
        y = F.pad(y, [1, 1, 1, 1], mode="reflect")
        z = F.elu(y) + F.softplus(y) - F.log_softmax(y, axis=1)
        q = self.q(seq).reshape([seq.shape[0], seq.shape[1], 2, 4])
        att = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        e = paddle.einsum("bshd,bthd->bhst", q, q)
        c = paddle.cumsum(seq, axis=1)
        m = paddle.masked_fill(seq, seq > 0.5, 0.0)
        t = paddle.take_along_axis(seq, idx, axis=2)
        s = seq.clone()
        s[:, 0, :] = 1.0
        oh = F.one_hot(idx[:, 0, 0], num_classes=8)
        srt = paddle.argsort(seq, axis=-1, descending=True)
        g = paddle.gather_nd(seq, paddle.to_tensor([[0, 1], [1, 2]]))
        lse = paddle.logsumexp(seq, axis=-1)
        ex = paddle.expand_as(seq[:, :1, :], seq) * paddle.tile(seq[:1], [seq.shape[0], 1, 1])
        return (z.mean(axis=[2, 3]), att, e, c, m, t, s, oh, srt.astype("int32"), g, lse, ex,
                paddle.erf(seq), paddle.sqrt(paddle.abs(seq)) + paddle.rsqrt(seq * seq + 1.0))


class DetectNet(nn.Layer):
    """Detection heads: yolo_box, prior_box, box_coder, roi_align, matrix_nms (PaddleDetection's ops)."""

    def __init__(self):
        super().__init__()
        self.head = nn.Conv2D(3, 2 * (5 + 2), 1)

    def forward(self, x, img_size, rois, rois_num):
        from paddle.vision import ops

        boxes, scores = ops.yolo_box(self.head(x), img_size, anchors=[10, 13, 16, 30], class_num=2,
                                     conf_thresh=0.01, downsample_ratio=8)
        pb, pv = ops.prior_box(x, x, min_sizes=[4.0], max_sizes=[9.0], aspect_ratios=[2.0], flip=True,
                               clip=True, steps=[8.0, 8.0])
        dec = ops.box_coder(pb.reshape([-1, 4]), pv.reshape([-1, 4]), rois, code_type="encode_center_size",
                            box_normalized=False)
        ra = ops.roi_align(x, rois, rois_num, output_size=2, spatial_scale=0.5, sampling_ratio=2)
        out, num, _ = ops.matrix_nms(boxes, scores.transpose([0, 2, 1]), score_threshold=0.05, post_threshold=0.05,
                                  nms_top_k=20, keep_top_k=10, background_label=-1)
        return boxes, scores, pb, pv, dec, ra, out, num


class LayoutNet(nn.Layer):
    """Convolution and pooling variants: NHWC, SAME / VALID / asymmetric padding, dilation, 1-D and 3-D,
    adaptive max pooling, bicubic / linear / align_corners interpolation."""

    def __init__(self):
        super().__init__()
        self.c_nhwc = nn.Conv2D(3, 4, 3, padding="SAME", stride=2, data_format="NHWC")
        self.bn_nhwc = nn.BatchNorm2D(4, data_format="NHWC")
        self.c_asym = nn.Conv2D(3, 4, 3, padding=[1, 2, 0, 1], dilation=2)
        self.c_valid = nn.Conv2D(3, 2, 2, padding="VALID", groups=1)
        self.c1 = nn.Conv1D(3, 2, 3, padding=1)
        self.c3 = nn.Conv3D(1, 2, 2)
        self.ct = nn.Conv2DTranspose(3, 2, 3, stride=2, padding="SAME")

    def forward(self, x):
        a = self.bn_nhwc(self.c_nhwc(x.transpose([0, 2, 3, 1])))
        b = F.avg_pool2d(self.c_asym(x), 3, stride=2, padding=1, exclusive=True)
        c = F.max_pool2d(self.c_valid(x), 2, stride=2, padding="SAME")
        d = F.adaptive_max_pool2d(x, [3, 2])
        e = F.max_pool1d(self.c1(x.mean(axis=2)), 2)
        f = self.c3(x[:, :2].unsqueeze(1))
        g = F.interpolate(x, scale_factor=[1.5, 1.5], mode="bicubic", align_corners=False)
        h = F.interpolate(x, size=[5, 7], mode="bilinear", align_corners=True)
        i = F.interpolate(x.mean(axis=2), scale_factor=2.0, mode="linear", data_format="NCW")
        j = F.interpolate(x, scale_factor=2, mode="nearest")
        k = self.ct(x)
        return a, b, c, d, e, f, g, h, i, j, k


def _zoo(name, **kwargs):
    import importlib

    mod = importlib.import_module(f"tests.model_zoo.{name}")
    return lambda: mod.build() if not kwargs else _zoo_cls(mod)(**kwargs)


def _zoo_cls(mod):
    return {"resnet": lambda m: m.ResNet, "vit": lambda m: m.VisionTransformer}[mod.__name__.rsplit(".", 1)[1]](mod)


def _f(rng, shape):
    return rng.standard_normal(shape).astype("float32")


def _ids(rng, shape, hi):
    return rng.integers(0, hi, size=shape).astype("int64")


# name -> (factory, input specs, inputs(rng))
MODELS = {
    "resnet": (_zoo("resnet", width=4, layers=(1, 1, 1, 1)),
               [InputSpec([None, 3, 32, 32], "float32", "x")], lambda r: [_f(r, [2, 3, 32, 32])]),
    "mobilenetv3": (_zoo("mobilenetv3"), [InputSpec([None, 3, 48, 48], "float32", "x")],
                    lambda r: [_f(r, [2, 3, 48, 48])]),
    "vit": (_zoo("vit", dim=16, depth=1, heads=2), [InputSpec([None, 3, 16, 16], "float32", "x")],
            lambda r: [_f(r, [2, 3, 16, 16])]),
    "swin": (_zoo("swin"), [InputSpec([None, 64, 12], "float32", "x")], lambda r: [_f(r, [2, 64, 12])]),
    "lstm_tagger": (_zoo("lstm_tagger"), [InputSpec([None, 7], "int64", "ids")],
                    lambda r: [_ids(r, [3, 7], 40)]),
    "bert": (_zoo("bert"), [InputSpec([None, 9], "int64", "ids"), InputSpec([None, 9], "int64", "types")],
             lambda r: [_ids(r, [2, 9], 60), _ids(r, [2, 9], 2)]),
    "gpt": (_zoo("gpt"), [InputSpec([None, 10], "int64", "ids")], lambda r: [_ids(r, [2, 10], 50)]),
    "unet": (_zoo("unet"), [InputSpec([None, 3, 24, 24], "float32", "x")], lambda r: [_f(r, [2, 3, 24, 24])]),
    "densenet": (_zoo("densenet"), [InputSpec([None, 3, 32, 32], "float32", "x")],
                 lambda r: [_f(r, [2, 3, 32, 32])]),
    "bigru": (_zoo("bigru"), [InputSpec([None, 6], "int64", "ids"), InputSpec([None, 6], "float32", "mask")],
              lambda r: [_ids(r, [3, 6], 30), (r.random([3, 6]) > 0.3).astype("float32")]),
    "vgg": (_zoo("vgg"), [InputSpec([None, 3, 16, 16], "float32", "x")], lambda r: [_f(r, [2, 3, 16, 16])]),
    "lstm": (LSTMNet, [InputSpec([None, 5, 6], "float32", "x")], lambda r: [_f(r, [2, 5, 6])]),
    "encoder": (EncoderNet, [InputSpec([None, 7, 16], "float32", "x"), InputSpec([None, 1, 7, 7], "float32", "mask")],
                lambda r: [_f(r, [2, 7, 16]), np.where(np.arange(7)[None, None, None, :] < np.array([7, 5])[:, None, None, None],
                                                       0.0, -1e9).repeat(7, axis=2).astype("float32")]),
    "control": (ControlNet, [InputSpec([None, 4], "float32", "x"), InputSpec([1], "int64", "n")],
                lambda r: [_f(r, [3, 4]), np.array([3], dtype="int64")]),
    "ops2": (MoreOpsNet, [InputSpec([None, 4, 6, 6], "float32", "x"), InputSpec([None, 5, 8], "float32", "seq"),
                          InputSpec([None, 5, 3], "int64", "idx")],
             lambda r: [_f(r, [2, 4, 6, 6]), r.random([2, 5, 8]).astype("float32"),
                        r.integers(0, 8, size=[2, 5, 3]).astype("int64")]),
    "detect": (DetectNet, [InputSpec([None, 3, 8, 8], "float32", "x"), InputSpec([None, 2], "int32", "img_size"),
                           InputSpec([None, 4], "float32", "rois"), InputSpec([None], "int32", "rois_num")],
               lambda r: [_f(r, [2, 3, 8, 8]), np.array([[64, 64], [48, 64]], dtype="int32"),
                          np.array([[0, 0, 6, 6], [2, 1, 7, 7], [1, 1, 3, 5]], dtype="float32"),
                          np.array([2, 1], dtype="int32")]),
    "layout": (LayoutNet, [InputSpec([None, 3, 8, 8], "float32", "x")], lambda r: [_f(r, [2, 3, 8, 8])]),
    "ops": (OpsNet, [InputSpec([None, 4, 8, 8], "float32", "x"), InputSpec([None, 3], "int64", "ids")],
            lambda r: [_f(r, [2, 4, 8, 8]), _ids(r, [2, 3], 10)]),
}


def _inputs(name):
    arrays = MODELS[name][2](np.random.default_rng(SEED + 7))
    if name == "bigru":
        arrays[1][:, 0] = 1.0
    return arrays


def build(name):
    paddle.seed(SEED)
    rng = np.random.default_rng(SEED)
    with paddle.utils.unique_name.guard():
        model = MODELS[name][0]()
    for _, p in sorted(model.state_dict().items(), key=lambda kv: kv[0]):
        a = p.numpy()
        if a.dtype.kind == "f":
            noise = rng.normal(0, 0.05, a.shape).astype(a.dtype)
            if _ is not None and _.endswith("_variance"):
                noise = np.abs(noise) * 4  # variances stay positive
            p.set_value(a + noise)
    model.eval()
    return model


def predict(prefix, model_file, arrays):
    """Real Paddle's inference predictor on `arrays`."""
    from paddle import inference

    config = inference.Config(prefix + model_file, prefix + ".pdiparams")
    config.disable_gpu()
    config.disable_onednn()  # plain CPU kernels (oneDNN cannot run some PIR attributes here)
    config.set_cpu_math_library_num_threads(1)
    predictor = inference.create_predictor(config)
    for name, a in zip(predictor.get_input_names(), arrays):
        h = predictor.get_input_handle(name)
        h.reshape(a.shape)
        h.copy_from_cpu(a)
    predictor.run()
    return [predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()]


def record(name, fmt):
    model = build(name)
    d = os.path.join(OUT, name, fmt)
    os.makedirs(d, exist_ok=True)
    prefix = os.path.join(d, "model")
    paddle.jit.save(model, prefix, input_spec=MODELS[name][1])
    info = prefix + ".pdiparams.info"
    if os.path.exists(info):  # a pickle of parameter attributes: not needed for inference
        os.remove(info)
    arrays = _inputs(name)
    outs = predict(prefix, ".json" if fmt == "pir" else ".pdmodel", arrays)
    # the predictor must agree with the dygraph Layer (it is the specification the tests match)
    with paddle.no_grad():
        ref = model(*[paddle.to_tensor(a) for a in arrays])
    ref = ref if isinstance(ref, (list, tuple)) else [ref]
    for o, r in zip(outs, ref):
        np.testing.assert_allclose(o, r.numpy(), rtol=1e-4, atol=1e-5, err_msg=f"{name}/{fmt}")
    extra = {}
    if name == "control":  # the other branch and a loop that does not run: a second input set
        other = [-10.0 * arrays[0], np.array([0], dtype="int64")]
        extra = {**{f"input{i}b": a for i, a in enumerate(other)},
                 **{f"output{i}b": o for i, o in enumerate(predict(prefix, ".json", other))}}
    np.savez(os.path.join(d, "io.npz"), **{f"input{i}": a for i, a in enumerate(arrays)},
             **{f"output{i}": o for i, o in enumerate(outs)}, **extra)
    print(f"{name}/{fmt}: {len(outs)} outputs, files {sorted(os.listdir(d))}")


def record_legacy_ops():
    """Paddle 1.x/2.x op versions (mul, flatten2, v1 reshape/transpose/matmul/lookup_table, sum,
    fill_constant_batch_size_like, elementwise_add with axis broadcasting) that jit.save no longer
    emits: a static program built op by op, saved with save_inference_model (legacy only)."""
    paddle.enable_static()
    main_prog, start = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_prog, start), paddle.utils.unique_name.guard():
        x = paddle.static.data("x", [-1, 3, 4, 4], "float32")
        ids = paddle.static.data("ids", [-1, 5, 1], "int64")
        blk = main_prog.global_block()

        def op(type, inputs, attrs, extra_out=()):
            out = blk.create_var(name=paddle.utils.unique_name.generate("t"), dtype="float32")
            outs = {"Out": [out]}
            for k in extra_out:
                outs[k] = [blk.create_var(name=paddle.utils.unique_name.generate("t"), dtype="float32")]
            blk.append_op(type=type, inputs=inputs, outputs=outs, attrs=attrs)
            return out
        w = paddle.static.create_parameter([48, 6], "float32", name="fc_w")
        b = paddle.static.create_parameter([6], "float32", name="fc_b")
        emb = paddle.static.create_parameter([10, 4], "float32", name="emb_w")
        ch = paddle.static.create_parameter([3], "float32", name="ch_b")
        f = op("flatten2", {"X": [x]}, {"axis": 1}, extra_out=["XShape"])
        y = op("mul", {"X": [f], "Y": [w]}, {"x_num_col_dims": 1, "y_num_col_dims": 1})
        y = op("elementwise_add", {"X": [y], "Y": [b]}, {"axis": 1})
        xc = op("elementwise_add", {"X": [x], "Y": [ch]}, {"axis": 1})
        xr = op("reshape", {"X": [xc]}, {"shape": [0, 3, 16]})
        xt = op("transpose", {"X": [xr]}, {"axis": [0, 2, 1]})
        mm = op("matmul", {"X": [xt], "Y": [xr]}, {"transpose_X": False, "transpose_Y": False, "alpha": 0.5})
        e = op("lookup_table", {"Ids": [ids], "W": [emb]}, {"padding_idx": -1})
        s2 = op("sum", {"X": [y, y]}, {})
        z = op("fill_constant_batch_size_like", {"Input": [x]}, {"shape": [-1, 6], "value": 0.25, "dtype": 5,
                                                                 "input_dim_idx": 0, "output_dim_idx": 0})
        s2 = op("elementwise_add", {"X": [s2], "Y": [z]}, {"axis": -1})
        r = op("reshape", {"X": [s2]}, {"shape": [-1, 2, 3]})
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    rng = np.random.default_rng(SEED)
    scope = paddle.static.global_scope()
    for n in ("ch_b", "emb_w", "fc_b", "fc_w"):
        t = scope.find_var(n).get_tensor()
        t.set(rng.standard_normal(np.array(t).shape).astype("float32"), paddle.CPUPlace())
    arrays = [rng.standard_normal([2, 3, 4, 4]).astype("float32"), rng.integers(0, 10, [2, 5, 1]).astype("int64")]
    ref = exe.run(main_prog, feed={"x": arrays[0], "ids": arrays[1]}, fetch_list=[r, mm, e])
    d = os.path.join(OUT, "legacy_ops", "legacy")
    os.makedirs(d, exist_ok=True)
    prefix = os.path.join(d, "model")
    paddle.static.save_inference_model(prefix, [x, ids], [r, mm, e], exe, program=main_prog)
    paddle.disable_static()
    if os.path.exists(prefix + ".pdiparams.info"):
        os.remove(prefix + ".pdiparams.info")
    outs = predict(prefix, ".pdmodel", arrays)
    for o, rr in zip(outs, ref):
        np.testing.assert_allclose(o, rr, rtol=1e-5, atol=1e-6)
    np.savez(os.path.join(d, "io.npz"), **{f"input{i}": a for i, a in enumerate(arrays)},
             **{f"output{i}": o for i, o in enumerate(outs)})
    print(f"legacy_ops/legacy: {len(outs)} outputs, files {sorted(os.listdir(d))}")


def main(argv):
    fmt = "pir"
    if argv and argv[0] == "--format":
        fmt, argv = argv[1], argv[2:]
    names = argv or list(MODELS) + ["legacy_ops"]
    if fmt == "both":
        main(["--format", "pir", *names])
        env = dict(os.environ, FLAGS_enable_pir_api="0")  # switches PIR off: jit.save writes a ProgramDesc
        subprocess.run([sys.executable, __file__, "--format", "legacy", *names], env=env, check=False)
        return
    if fmt == "legacy":
        assert not paddle.framework.use_pir_api(), "legacy recording needs FLAGS_enable_pir_api=0"
        if "legacy_ops" in names:
            record_legacy_ops()
    for name in [n for n in names if n in MODELS]:
        try:
            record(name, fmt)
        except Exception as e:  # noqa: BLE001
            import shutil

            shutil.rmtree(os.path.join(OUT, name, fmt), ignore_errors=True)
            print(f"{name}/{fmt}: real Paddle failed: {type(e).__name__}: {str(e)[:300]}")


if __name__ == "__main__":
    main(["--format", "both"] + sys.argv[1:] if not sys.argv[1:2] == ["--format"] else sys.argv[1:])
