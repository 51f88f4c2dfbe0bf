"""paddle.vision.models against real Paddle 3.3.1.

tools/record_vision_models.py built, under real Paddle, one small member of each family (CASES) with
every state_dict entry set by `seeded_state`, and stored the eval-mode outputs (and, for small models,
the weights saved by paddle.save); it also stored the state_dict keys and shapes of every constructor
(KEY_VARIANTS).  Here the same models are built by paddle_on_torch: Paddle's .pdparams files load with
paddle.load + set_state_dict, the outputs agree to 1e-4, and every key list matches.
"""
import json
import os

import numpy as np
import pytest

DATA = os.path.join(os.path.dirname(__file__), "data", "vision_models")
RTOL = 1e-4

# name -> (build(models), input shape): the smallest member of each family at a small input size
CASES = {
    "lenet": (lambda M: M.LeNet(num_classes=10), [2, 1, 28, 28]),
    "alexnet_features": (lambda M: M.alexnet(num_classes=0), [1, 3, 64, 64]),
    "vgg11_bn_features": (lambda M: M.vgg11(batch_norm=True, num_classes=0, with_pool=False), [1, 3, 32, 32]),
    "resnet18": (lambda M: M.resnet18(num_classes=10), [1, 3, 32, 32]),
    "resnet_bottleneck_grouped": (lambda M: M.ResNet(M.resnet.BottleneckBlock, 50, width=16, groups=2,
                                                     num_classes=10), [1, 3, 32, 32]),
    "mobilenet_v1_x0_25": (lambda M: M.mobilenet_v1(scale=0.25, num_classes=10), [1, 3, 32, 32]),
    "mobilenet_v2_x0_25": (lambda M: M.mobilenet_v2(scale=0.25, num_classes=10), [1, 3, 32, 32]),
    "mobilenet_v3_small_x0_5": (lambda M: M.mobilenet_v3_small(scale=0.5, num_classes=10), [1, 3, 32, 32]),
    "mobilenet_v3_large_x0_35": (lambda M: M.mobilenet_v3_large(scale=0.35, num_classes=10), [1, 3, 32, 32]),
    "squeezenet1_0": (lambda M: M.squeezenet1_0(num_classes=10), [1, 3, 48, 48]),
    "squeezenet1_1": (lambda M: M.squeezenet1_1(num_classes=10), [1, 3, 32, 32]),
    "shufflenet_v2_x0_25": (lambda M: M.shufflenet_v2_x0_25(num_classes=10), [1, 3, 32, 32]),
    "shufflenet_v2_x0_25_swish": (lambda M: M.ShuffleNetV2(scale=0.25, act="swish", num_classes=10), [1, 3, 32, 32]),
    "densenet121": (lambda M: M.densenet121(num_classes=10, dropout=0.1), [1, 3, 32, 32]),
    "googlenet": (lambda M: M.googlenet(num_classes=10), [1, 3, 192, 192]),
    "inception_v3": (lambda M: M.inception_v3(num_classes=10), [1, 3, 75, 75]),
}

CONSTRUCTORS = [
    "resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "resnext50_32x4d", "resnext50_64x4d",
    "resnext101_32x4d", "resnext101_64x4d", "resnext152_32x4d", "resnext152_64x4d", "wide_resnet50_2",
    "wide_resnet101_2", "vgg11", "vgg13", "vgg16", "vgg19", "mobilenet_v1", "mobilenet_v2", "mobilenet_v3_small",
    "mobilenet_v3_large", "densenet121", "densenet161", "densenet169", "densenet201", "densenet264", "alexnet",
    "inception_v3", "squeezenet1_0", "squeezenet1_1", "googlenet", "shufflenet_v2_x0_25", "shufflenet_v2_x0_33",
    "shufflenet_v2_x0_5", "shufflenet_v2_x1_0", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0", "shufflenet_v2_swish",
]


def KEY_VARIANTS():
    """(label, build) for every constructor with its defaults, every class, and argument variants."""
    out = [(name, (lambda M, n=name: getattr(M, n)())) for name in CONSTRUCTORS]
    out += [
        ("LeNet", lambda M: M.LeNet()),
        ("LeNet(num_classes=0)", lambda M: M.LeNet(num_classes=0)),
        ("AlexNet(num_classes=0)", lambda M: M.AlexNet(num_classes=0)),
        ("VGG(make_layers(E, bn), with_pool=False)",
         lambda M: M.VGG(M.vgg.make_layers(M.vgg.cfgs["E"], batch_norm=True), num_classes=10, with_pool=False)),
        ("vgg16(batch_norm=True)", lambda M: M.vgg16(batch_norm=True)),
        ("ResNet(BasicBlock, 34, num_classes=0, with_pool=False)",
         lambda M: M.ResNet(M.resnet.BasicBlock, 34, num_classes=0, with_pool=False)),
        ("MobileNetV1(scale=0.5)", lambda M: M.MobileNetV1(scale=0.5)),
        ("MobileNetV2(scale=1.4, num_classes=0)", lambda M: M.MobileNetV2(scale=1.4, num_classes=0)),
        ("MobileNetV3Small(scale=0.75, with_pool=False)", lambda M: M.MobileNetV3Small(scale=0.75, with_pool=False)),
        ("MobileNetV3Large(scale=1.25)", lambda M: M.MobileNetV3Large(scale=1.25)),
        ("DenseNet(161, bn_size=2, dropout=0.2)", lambda M: M.DenseNet(161, bn_size=2, dropout=0.2)),
        ("GoogLeNet(num_classes=0)", lambda M: M.GoogLeNet(num_classes=0)),
        ("InceptionV3(num_classes=0)", lambda M: M.InceptionV3(num_classes=0)),
        ("SqueezeNet('1.1', num_classes=5)", lambda M: M.SqueezeNet("1.1", num_classes=5)),
        ("ShuffleNetV2(scale=0.33, act=None)", lambda M: M.ShuffleNetV2(scale=0.33, act=None)),
    ]
    return out


def seeded_state(state):
    """Deterministic values for every state_dict entry (numpy, by sorted key; same on both sides)."""
    rng = np.random.default_rng(2024)
    out = {}
    for k in sorted(state):
        shape = [int(s) for s in state[k].shape]
        if k.endswith("_variance"):
            v = rng.uniform(0.5, 1.5, shape)
        elif k.endswith("_mean"):
            v = rng.standard_normal(shape) * 0.1
        elif len(shape) == 1:  # biases and norm scales
            v = (1.0 if k.endswith("weight") else 0.0) + rng.standard_normal(shape) * 0.1
        elif len(shape) == 2:  # Linear weight [in, out]
            v = rng.standard_normal(shape) / np.sqrt(shape[0])
        else:  # conv weight [out, in/groups, kh, kw]
            v = rng.standard_normal(shape) * np.sqrt(2.0 / np.prod(shape[1:]))
        out[k] = v.astype("float32")
    return out


def _state_for(paddle, name, model):
    path = os.path.join(DATA, f"{name}.pdparams")
    if os.path.exists(path):
        return paddle.load(path)
    return {k: paddle.to_tensor(v) for k, v in seeded_state(model.state_dict()).items()}


@pytest.mark.parametrize("name", list(CASES))
def test_forward_matches_paddle(name, paddle):
    build, shape = CASES[name]
    recorded = dict(np.load(os.path.join(DATA, f"{name}.npz")))
    model = build(paddle.vision.models)
    state = _state_for(paddle, name, model)
    own = model.state_dict()
    assert list(state) == list(own) or sorted(state) == sorted(own)
    for k, v in state.items():
        assert list(v.shape) == list(own[k].shape), k
    model.set_state_dict(state)
    model.eval()
    with paddle.no_grad():
        out = model(paddle.to_tensor(recorded["input"]))
    outs = out if isinstance(out, (tuple, list)) else [out]
    want = [recorded[f"out{i}"] for i in range(sum(k.startswith("out") for k in recorded))]
    assert len(outs) == len(want)
    for i, (o, w) in enumerate(zip(outs, want)):
        got = o.numpy()
        assert got.shape == w.shape and got.dtype == w.dtype, f"{name} out{i}"
        np.testing.assert_allclose(got, w, rtol=RTOL, atol=RTOL * np.abs(w).max(), err_msg=f"{name} out{i}")


def test_state_dict_keys_of_every_constructor(paddle):
    with open(os.path.join(DATA, "keys.json")) as f:
        recorded = json.load(f)
    variants = dict(KEY_VARIANTS())
    assert sorted(recorded) == sorted(variants)
    for label, build in variants.items():
        with paddle.LazyGuard():
            model = build(paddle.vision.models)
        got = [[k, list(v.shape)] for k, v in model.state_dict().items()]
        assert got == recorded[label], label


def test_every_name_is_exported(paddle):
    from paddle_on_torch._api import paddle_names

    for name in paddle_names("paddle.vision.models"):
        assert callable(getattr(paddle.vision.models, name)), name
        assert getattr(paddle.vision, name) is getattr(paddle.vision.models, name)


@pytest.mark.parametrize("ctor", ["resnet18", "vgg16", "mobilenet_v3_small", "googlenet", "shufflenet_v2_x1_0"])
def test_pretrained_raises_offline(ctor, paddle):
    with pytest.raises(RuntimeError, match="cannot be downloaded"):
        getattr(paddle.vision.models, ctor)(pretrained=True)


def test_train_mode_backward(paddle):
    model = paddle.vision.models.mobilenet_v3_small(scale=0.5, num_classes=4)
    model.train()
    loss = model(paddle.randn([2, 3, 32, 32])).mean()
    loss.backward()
    assert all(p.grad is not None for p in model.parameters() if not p.stop_gradient)
