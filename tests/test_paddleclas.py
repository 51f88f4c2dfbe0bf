"""PaddleClas 2.6's backbones run unchanged under paddle_on_torch and give real Paddle's logits (recorded by
tools/record_paddleclas.py).  ResNet50 / ResNet18_vd / ResNeXt50 / SE_ResNeXt50 reach paddle.static.amp.fp16_guard
in their forward (issue 17).  Skipped without paddleclas (tests/requirements-libs.txt installs it)."""
import os

import numpy as np
import pytest

pytestmark = pytest.mark.lib

from tests import golden_file, paddleclas_models

GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "paddleclas.json")


@pytest.fixture(scope="module")
def backbones():
    import paddle  # noqa: F401  (the shim, installed by conftest, before ppcls imports it)

    b = paddleclas_models.import_backbones()
    if b is None:
        pytest.skip("paddleclas is not installed")
    return b


@pytest.mark.parametrize("name", paddleclas_models.MODELS)
def test_backbone_logits(backbones, paddle, name):
    want = np.asarray(golden_file.answers("paddleclas")[name], dtype="float32")
    got = paddleclas_models.run(paddle, backbones, name)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
