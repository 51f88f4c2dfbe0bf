"""The corpus of tools/pir_corpus.py: models the test suite already builds, exported with paddle_on_torch's
`to_static(input_spec=[InputSpec([None, ...])])` + `jit.save` and run by real Paddle 3.3.1.

Shared by both interpreters (paddle_on_torch writes, real Paddle loads); the builders take the `paddle` module
in use and never import paddle themselves.  Each entry: name -> Entry(group, build(paddle) -> Layer, specs,
inputs(batch, rng) -> [numpy arrays], lane).  `specs`: [(shape with None for the batch, dtype, name)].
`lane`: "ci" for the models cheap enough to export in tests/test_pir_corpus.py, "tool" for the rest (exported
by the tool only; their op lists are still checked against the table by the fast test).
"""
import importlib.util
import os
import sys
from collections import namedtuple

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED = 2024
BATCHES = (1, 3, 7)

# calibrate: the batch-norm statistics are those of a batch (see `build`), for models whose activations the
# seeded statistics let grow without bound (RedNet's involutions multiply a feature map by weights computed
# from it: at the default initialisation its eager output overflows to inf / NaN, in Paddle as here; DSNet's
# attention logits reach 1e7 with the top two 0.125 apart, so float32 rounding picks the winner)
Entry = namedtuple("Entry", "group build specs inputs lane calibrate", defaults=(False,))


def _img(c, h, w=None):
    w = w or h
    return [([None, c, h, w], "float32", "x")], lambda b, r: [r.standard_normal([b, c, h, w]).astype("float32")]


def _ids(n, vocab, name="input_ids"):
    return [([None, n], "int64", name)], lambda b, r: [r.integers(3, vocab, [b, n]).astype("int64")]


# ----------------------------------------------------------------- PaddleClas backbones (ppcls.arch.backbone)
def ppcls_backbones():
    """ppcls.arch.backbone from the installed paddleclas package (its code lives in paddleclas/ppcls)."""
    spec = importlib.util.find_spec("paddleclas")
    if spec is None:
        raise ImportError("paddleclas is not installed")
    root = os.path.dirname(spec.origin)
    if root not in sys.path:
        sys.path.insert(0, root)
    from ppcls.utils import logger

    logger.init_logger()
    import ppcls.arch.backbone as backbones

    return backbones


def _clas(name, size=224):
    def build(paddle):
        return getattr(ppcls_backbones(), name)(pretrained=False, class_num=10)  # UniFormer's default downloads
    return Entry("paddleclas", build, *_img(3, size), "tool", name in _CLAS_CALIBRATE)


# tests/test_paddleclas.py's backbones, then the families the issue tried (49 backbones, 9 failing), one or two
# members each; SENet154-size models are left out (seconds of Paddle eager per batch on a shared CPU)
PADDLECLAS = [
    "ResNet50", "ResNet18_vd", "ResNeXt50_32x4d", "SE_ResNeXt50_32x4d", "MobileNetV3_small_x1_0", "FasterNet_T0",
    "PPHGNetV2_B0", "SwinTransformer_tiny_patch4_window7_224", "ReXNet_1_0", "TNT_small", "CSPDarkNet53",
    "LeViT_128S", "MobileViT_XXS", "HRNet_W18_C", "CSWinTransformer_tiny_224", "ConvNeXt_tiny",
    "PPLCNet_x1_0", "PPLCNetV2_base", "PPHGNet_tiny", "MobileNetV1", "MobileNetV2", "MobileNetV3_large_x1_0",
    "GhostNet_x1_0", "ShuffleNetV2_x1_0", "DenseNet121", "DPN68", "EfficientNetB0", "RegNetX_4GF",
    "Res2Net50_26w_4s", "ResNeSt50", "DLA34", "HarDNet68", "Xception41", "VGG11", "AlexNet",
    "SqueezeNet1_0", "GoogLeNet", "DarkNet53", "ViT_small_patch16_224", "DeiT_tiny_patch16_224", "PVT_V2_B0",
    "MixNet_S", "RedNet26", "ESNet_x1_0", "TinyNet_A", "MicroNet_M0", "VAN_B0", "RepVGG_A0", "DSNet_tiny",
    "UniFormer_small", "MobileViTV3_XXS", "PeleeNet", "StarNet_S1", "NextViT_small_224", "InceptionV3",
]
_CLAS_SIZE = {"InceptionV3": 299}
_CLAS_CALIBRATE = {"RedNet26", "DSNet_tiny"}


# ----------------------------------------------------------------- paddle.vision.models (tests/test_vision_models)
def _vision(name):
    from tests.test_vision_models import CASES

    make, shape = CASES[name]

    def build(paddle):
        return make(paddle.vision.models)
    return Entry("vision", build, *_img(shape[1], shape[2], shape[3]), "ci" if name in _VISION_CI else "tool")


_VISION_CI = {"lenet", "resnet18", "mobilenet_v2_x0_25", "squeezenet1_1", "shufflenet_v2_x0_25"}
VISION = ["lenet", "alexnet_features", "vgg11_bn_features", "resnet18", "resnet_bottleneck_grouped",
          "mobilenet_v1_x0_25", "mobilenet_v2_x0_25", "mobilenet_v3_small_x0_5", "mobilenet_v3_large_x0_35",
          "squeezenet1_0", "squeezenet1_1", "shufflenet_v2_x0_25", "shufflenet_v2_x0_25_swish", "densenet121",
          "googlenet", "inception_v3"]


# ----------------------------------------------------------------- tests/model_zoo at the roundtrip's widths
def _zoo(name):
    def build(paddle):
        from tests import pir_writer_models as M

        return M.ROUNDTRIP[name][0]()

    from tests import pir_writer_models as M  # noqa: F811 - specs and inputs read here, under either paddle

    specs = [([None] + list(s.shape[1:]), str(s.dtype).replace("paddle.", ""), s.name) for s in M.ROUNDTRIP[name][1]]

    def inputs(b, r):
        arrays = M.ROUNDTRIP[name][2](r)
        out = []
        for a in arrays:  # the recorded batch is 2 or 3: tile / cut the rows to b
            reps = -(-b // a.shape[0])
            out.append(np.concatenate([a] * reps, 0)[:b])
        return out
    return Entry("model_zoo", build, specs, inputs, "ci")


ZOO = ["resnet", "mobilenetv3", "vit", "swin", "lstm_tagger", "bert", "gpt", "unet", "densenet", "bigru", "vgg",
       "llama_block"]


# ----------------------------------------------------------------- PaddleNLP LLMs (tests/paddlenlp_cases), eval mode
def _nlp(name):
    def build(paddle):
        import paddlenlp.transformers as transformers

        from tests import paddlenlp_cases as C

        case = C.CASES[name]
        model = C.build(transformers, case)

        class Logits(paddle.nn.Layer):
            """The logits only (PaddleNLP's models return tuples or output dataclasses)."""

            def __init__(self, inner):
                super().__init__()
                self.inner = inner

            def forward(self, input_ids):
                out = self.inner(input_ids=input_ids)
                return out[0] if isinstance(out, (tuple, list)) else out.logits if hasattr(out, "logits") else out
        return Logits(model)
    specs, inputs = _ids(8, 64)
    return Entry("paddlenlp", build, specs, inputs, "tool")


NLP = ["llama", "llama_gqa", "qwen2", "gpt", "bert", "ernie"]


# ----------------------------------------------------------------- ppsci MLP, examples
def _ppsci_mlp(paddle):
    import ppsci

    class XYToU(paddle.nn.Layer):
        """ppsci.arch.MLP takes and returns dicts of tensors: x, y -> u."""

        def __init__(self):
            super().__init__()
            self.net = ppsci.arch.MLP(("x", "y"), ("u",), 3, 16, "tanh")

        def forward(self, x, y):
            return self.net({"x": x, "y": y})["u"]
    return XYToU()


def _example(module, fn="build", **kw):
    def build(paddle):
        path = os.path.join(ROOT, "examples", module + ".py")
        spec = importlib.util.spec_from_file_location("_corpus_example_" + module, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return getattr(mod, fn)(**kw)
    return build


def _points(b, r):
    return [r.random([b, 1]).astype("float32"), r.random([b, 1]).astype("float32")]


OTHERS = {
    "ppsci_mlp": Entry("ppsci", _ppsci_mlp, [([None, 1], "float32", "x"), ([None, 1], "float32", "y")], _points,
                       "ci"),
    "example_lenet": Entry("examples", _example("lenet_mnist_hapi"), *_img(1, 28), "ci"),
    "example_resnet": Entry("examples", _example("resnet_momentum_amp"), *_img(3, 32), "ci"),
    "example_gpt": Entry("examples", _example("gpt_adamw_resume"), *_ids(8, 32, "ids"), "ci"),
    "example_pinn": Entry("examples", _example("pinn_poisson", "build_model"),
                          [([None, 2], "float32", "xy")], lambda b, r: [r.random([b, 2]).astype("float32")], "ci"),
}


# ----------------------------------------------------------------- single ops (each op family the writer maps)
def _op(fn, specs, make=None, index_high=None):
    """A Layer computing fn(paddle, *inputs) (make(paddle): its sublayer, when the op has weights)."""
    def build(paddle):
        F = paddle.nn.functional

        class Op1(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.sub = make(paddle) if make else None

            def forward(self, x):
                return self.sub(x) if self.sub is not None else fn(paddle, F, x)

        class Op2(Op1):
            def forward(self, x, y):
                return fn(paddle, F, x, y)

        class Op3(Op1):
            def forward(self, x, y, z):
                return fn(paddle, F, x, y, z)
        return [Op1, Op2, Op3][len(specs) - 1]()

    def inputs(b, r):
        out = []
        for shape, dtype, _ in specs:
            shape = [b if d is None else d for d in shape]
            if dtype == "int64":  # distinct along the last dim: writes through repeated indices have no order
                high = index_high or 2
                rows = int(np.prod(shape[:-1]))
                out.append(np.stack([r.permutation(high)[:shape[-1]] for _ in range(rows)]).reshape(shape)
                           .astype("int64"))
            else:
                out.append(r.standard_normal(shape).astype(dtype))
        return out
    return Entry("ops", build, specs, inputs, "ci")


def _f(*shape, name="x"):
    return (list(shape), "float32", name)


def _setitem_slice(paddle, F, x, y):
    x = x * 1
    x[:, 1:3] = y
    return x


def _setitem_select(paddle, F, x, y):
    x = x * 1
    x[:, 0] = y
    return x


def _setitem_scalar(paddle, F, x):
    x = x * 1
    x[:, 0] = 1.5
    return x


def _swin_mask(paddle, F, x):
    """Swin's attention mask: windows of a zero image filled region by region through negative slices."""
    m = paddle.zeros([1, 8, 8, 1])
    cnt = 0
    for h in (slice(0, -4), slice(-4, -2), slice(-2, None), slice(0, -8)):  # the last one is empty
        for w in (slice(0, -4), slice(-4, -2), slice(-2, None)):
            m[:, h, w, :] = cnt
            cnt += 1
    return x + m.reshape([1, 64])


def _to_tensor_constant(paddle, F, x):
    return x + paddle.to_tensor(2.0)


OPS = {
    "pad_reflect_2d": _op(lambda p, F, x: F.pad(x, [1, 2, 0, 1], mode="reflect"), [_f(None, 3, 8, 8)]),
    "pad_replicate_1d": _op(lambda p, F, x: F.pad(x, [1, 2], mode="replicate", data_format="NCL"), [_f(None, 3, 8)]),
    "pad_circular_3d": _op(lambda p, F, x: F.pad(x, [1, 1, 1, 1, 1, 1], mode="circular", data_format="NCDHW"),
                           [_f(None, 2, 4, 4, 4)]),
    "pad_constant_2d": _op(lambda p, F, x: F.pad(x, [1, 2, 0, 1], value=0.5), [_f(None, 3, 8, 8)]),
    "pad_constant_all_dims": _op(lambda p, F, x: F.pad(x, [0, 0, 1, 2, 0, 1, 1, 1], value=0.5),
                                 [_f(None, 3, 8, 8)]),
    "adaptive_avg_pool1d": _op(lambda p, F, x: F.adaptive_avg_pool1d(x, 3), [_f(None, 3, 8)]),
    "adaptive_avg_pool3d": _op(lambda p, F, x: F.adaptive_avg_pool3d(x, 2), [_f(None, 3, 4, 4, 4)]),
    "adaptive_max_pool1d": _op(lambda p, F, x: F.adaptive_max_pool1d(x, 3), [_f(None, 3, 8)]),
    "adaptive_max_pool2d": _op(lambda p, F, x: F.adaptive_max_pool2d(x, [2, 3]), [_f(None, 3, 8, 8)]),
    "adaptive_max_pool3d": _op(lambda p, F, x: F.adaptive_max_pool3d(x, 2), [_f(None, 3, 4, 4, 4)]),
    "max_pool3d": _op(lambda p, F, x: F.max_pool3d(x, 2, 2), [_f(None, 3, 4, 4, 4)]),
    "avg_pool3d": _op(lambda p, F, x: F.avg_pool3d(x, 2, 2), [_f(None, 3, 4, 4, 4)]),
    "max_pool2d_mask": _op(lambda p, F, x: F.max_pool2d(x, 2, 2, return_mask=True)[1], [_f(None, 3, 4, 4)]),
    "unfold": _op(lambda p, F, x: F.unfold(x, [2, 2], strides=2, paddings=1), [_f(None, 3, 8, 8)]),
    "fold": _op(lambda p, F, x: F.fold(x, [4, 4], [2, 2]), [_f(None, 12, 9)]),
    "instance_norm": _op(lambda p, F, x: F.instance_norm(x), [_f(None, 3, 8, 8)]),
    "group_norm": _op(None, [_f(None, 4, 5, 5)], make=lambda p: p.nn.GroupNorm(2, 4)),
    "conv1d_transpose": _op(None, [_f(None, 3, 8)], make=lambda p: p.nn.Conv1DTranspose(3, 4, 3, stride=2)),
    "conv3d_transpose": _op(None, [_f(None, 3, 4, 4, 4)], make=lambda p: p.nn.Conv3DTranspose(3, 4, 3, stride=2)),
    "conv2d_transpose_groups": _op(None, [_f(None, 4, 5, 5)],
                                   make=lambda p: p.nn.Conv2DTranspose(4, 4, 3, stride=2, groups=2, padding=1,
                                                                       output_padding=1)),
    "grid_sample": _op(lambda p, F, x, g: F.grid_sample(x, p.tanh(g), align_corners=False),
                       [_f(None, 3, 8, 8), _f(None, 4, 4, 2, name="grid")]),
    "interp_linear_1d": _op(lambda p, F, x: F.interpolate(x, scale_factor=2, mode="linear", data_format="NCW"),
                            [_f(None, 3, 8)]),
    "interp_trilinear": _op(lambda p, F, x: F.interpolate(x, scale_factor=2, mode="trilinear"),
                            [_f(None, 3, 4, 4, 4)]),
    "interp_nearest_3d": _op(lambda p, F, x: F.interpolate(x, size=[8, 8, 8], mode="nearest"),
                             [_f(None, 3, 4, 4, 4)]),
    "interp_bicubic": _op(lambda p, F, x: F.interpolate(x, size=[8, 8], mode="bicubic", align_corners=True),
                          [_f(None, 3, 4, 4)]),
    "interp_area": _op(lambda p, F, x: F.interpolate(x, size=[4, 4], mode="area"), [_f(None, 3, 8, 8)]),
    "cumsum": _op(lambda p, F, x: p.cumsum(x, 1), [_f(None, 5)]),
    "topk_sort": _op(lambda p, F, x: p.topk(x, 2, axis=1)[0] + p.sort(x, axis=1)[:, :2], [_f(None, 5)]),
    "where": _op(lambda p, F, x, y: p.where(x > 0, x, y), [_f(None, 4), _f(None, 4, name="y")]),
    "masked_fill": _op(lambda p, F, x: p.masked_fill(x, x > 0.5, -1.0), [_f(None, 4)]),
    "gather": _op(lambda p, F, x, i: p.take_along_axis(x, i, 1),
                  [_f(None, 4), ([None, 2], "int64", "index")], index_high=4),
    "scatter_put_along_axis": _op(lambda p, F, x, i: p.put_along_axis(x, i, 1.0, 1),
                                  [_f(None, 4), ([None, 2], "int64", "index")], index_high=4),
    "scatter_add": _op(lambda p, F, x, i, v: p.put_along_axis(x, i, v, 1, reduce="add"),
                       [_f(None, 4), ([None, 2], "int64", "index"), _f(None, 2, name="v")], index_high=4),
    "index_put": _op(lambda p, F, x, i, v: p.index_put(x, (i,), v),
                     [_f(6, 3), ([2], "int64", "index"), _f(2, 3, name="v")], index_high=6),
    "scatter": _op(lambda p, F, x, i, v: p.scatter(x, i, v), [_f(6, 3), ([2], "int64", "index"), _f(2, 3, name="v")],
                   index_high=6),
    "setitem_slice": _op(_setitem_slice, [_f(None, 4), _f(None, 2, name="y")]),
    "setitem_select": _op(_setitem_select, [_f(None, 4), _f(None, name="y")]),
    "setitem_scalar": _op(_setitem_scalar, [_f(None, 4)]),
    "to_tensor_constant": _op(_to_tensor_constant, [_f(None, 3)]),
    "setitem_negative_slices": _op(_swin_mask, [_f(None, 64)]),
    "clone_detach": _op(lambda p, F, x: x.clone() * 2 + x.detach(), [_f(None, 3)]),
    "embedding": _op(None, [([None, 5], "int64", "ids")], make=lambda p: p.nn.Embedding(4, 3)),
    "log_sigmoid_mish": _op(lambda p, F, x: F.log_sigmoid(x) + F.mish(x), [_f(None, 3)]),
    "var_std": _op(lambda p, F, x: p.var(x, axis=1) + p.std(x, axis=1, unbiased=False), [_f(None, 5)]),
    "normalize": _op(lambda p, F, x: F.normalize(x, axis=1) + p.linalg.norm(x, p=2, axis=1, keepdim=True),
                     [_f(None, 3)]),
    "einsum": _op(lambda p, F, x: p.einsum("bij,bjk->bik", x, x), [_f(None, 3, 3)]),
    "pixel_shuffle": _op(lambda p, F, x: F.pixel_shuffle(x, 2), [_f(None, 4, 3, 3)]),
    "sdpa": _op(lambda p, F, q: F.scaled_dot_product_attention(q, q, q), [_f(None, 4, 2, 8)]),
    "sdpa_causal": _op(lambda p, F, q: F.scaled_dot_product_attention(q, q, q, is_causal=True), [_f(None, 4, 2, 8)]),
}


def corpus():
    out = {}
    for name in PADDLECLAS:
        out["clas_" + name] = _clas(name, _CLAS_SIZE.get(name, 224))
    for name in VISION:
        out["vision_" + name] = _vision(name)
    for name in ZOO:
        out["zoo_" + name] = _zoo(name)
    for name in NLP:
        out["nlp_" + name] = _nlp(name)
    out.update(OTHERS)
    out.update({"op_" + k: v for k, v in OPS.items()})
    return out


def build(paddle, entry):
    """The entry's Layer in eval mode, built under a fresh name scope, its batch-norm statistics made non-trivial
    (seeded by key: the same on both sides); the other weights are the model's own initialisation (the oracle
    copies the shim's weights, so both sides compute with the same numbers)."""
    paddle.seed(SEED)
    with paddle.utils.unique_name.guard():
        model = entry.build(paddle)
    rng = np.random.default_rng(SEED)
    for key, t in sorted(model.state_dict().items(), key=lambda kv: kv[0]):
        if key.endswith("_variance"):
            t.set_value(np.abs(rng.normal(1.0, 0.2, t.shape)).astype("float32"))
        elif key.endswith("_mean"):
            t.set_value(rng.normal(0, 0.1, t.shape).astype("float32"))
    if entry.calibrate:
        _calibrate_batch_norms(paddle, model, entry)
    model.eval()
    return model


def _calibrate_batch_norms(paddle, model, entry):
    """Batch-norm statistics measured as training measures them: one train-mode forward of a batch of 8 with
    momentum 0, so that each running mean / variance is that batch's (a trained model's statistics fit its
    activations; the seeded ones do not).  Only the side that writes needs this: the other loads its weights."""
    norms = [m for m in model.sublayers() if hasattr(m, "_momentum") and hasattr(m, "_variance")]
    saved = [m._momentum for m in norms]
    for m in norms:
        m._momentum = 0.0
    model.train()
    with paddle.no_grad():
        model(*[paddle.to_tensor(a) for a in entry.inputs(8, np.random.default_rng(SEED - 1))])
    for m, v in zip(norms, saved):
        m._momentum = v


def inputs(entry, batch):
    return entry.inputs(batch, np.random.default_rng(SEED + batch))
