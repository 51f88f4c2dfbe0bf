"""paddle.audio parts that are not provided name themselves (NotImplementedError)."""
import pytest

import paddle


@pytest.mark.parametrize("name", ["load", "save", "info", "backends", "datasets"])
def test_backends_and_datasets_raise_naming_the_api(name):
    with pytest.raises(NotImplementedError, match=f"paddle.audio.{name}"):
        getattr(paddle.audio, name)


def test_feature_layers_are_layers():
    layer = paddle.audio.features.MFCC(sr=8000, n_mfcc=4, n_fft=64, n_mels=8)
    assert isinstance(layer, paddle.nn.Layer) and layer.parameters() == []
