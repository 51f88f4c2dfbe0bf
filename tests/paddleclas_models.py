"""PaddleClas 2.6 backbones run unchanged (shared by tools/record_paddleclas.py under real Paddle and
tests/test_paddleclas.py under paddle_on_torch; never imports paddle itself)."""
import importlib.util
import os
import sys

import numpy as np

# the backbones that failed on `paddle.static.amp.fp16_guard` (issue 17), and two that passed, at a small input
MODELS = ["ResNet50", "ResNet18_vd", "ResNeXt50_32x4d", "SE_ResNeXt50_32x4d", "MobileNetV3_small_x1_0",
          "FasterNet_T0"]


def import_backbones():
    """ppcls.arch.backbone, from the installed paddleclas package (its code lives in paddleclas/ppcls)."""
    spec = importlib.util.find_spec("paddleclas")
    if spec is None:
        return None
    root = os.path.dirname(spec.origin)
    if root not in sys.path:
        sys.path.insert(0, root)
    from ppcls.utils import logger

    logger.init_logger()
    import ppcls.arch.backbone as backbones

    return backbones


def run(paddle, backbones, name):
    """Logits of backbone `name` (10 classes) in eval mode on a fixed 1x3x32x32 input, weights from numpy."""
    paddle.seed(0)
    model = getattr(backbones, name)(class_num=10)
    rng = np.random.default_rng(1)
    for pname, p in sorted(model.named_parameters(), key=lambda kv: kv[0]):
        v = rng.standard_normal(list(p.shape)) * 0.1
        if pname.endswith("_variance"):  # running variances stay positive
            v = np.abs(v) + 0.5
        p.set_value(v.astype(str(p.dtype).replace("paddle.", "")))
    model.eval()
    x = np.random.default_rng(2).standard_normal([1, 3, 32, 32]).astype("float32")
    with paddle.no_grad():
        return model(paddle.to_tensor(x)).numpy()
