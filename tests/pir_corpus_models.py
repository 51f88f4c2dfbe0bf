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

Entry = namedtuple("Entry", "group build specs inputs lane")


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
        return getattr(ppcls_backbones(), name)(class_num=10)
    return Entry("paddleclas", build, *_img(3, size), "tool")


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
    model.eval()
    return model


def inputs(entry, batch):
    return entry.inputs(batch, np.random.default_rng(SEED + batch))
