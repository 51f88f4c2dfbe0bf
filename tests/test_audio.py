"""paddle.audio: what the golden cases cannot check (atomic writes, a paddleaudio stand-in, the report).

The wave backend's behaviour against real Paddle is in tests/cases/audio_backends.py.
"""
import importlib
import os
import stat
import sys
import types

import pytest

import paddle
from paddle_on_torch import _report


def test_datasets_raise_naming_the_api():
    with pytest.raises(NotImplementedError, match="paddle.audio.datasets"):
        paddle.audio.datasets
    with pytest.raises(ModuleNotFoundError, match="paddle.audio.datasets"):
        importlib.import_module("paddle.audio.datasets")


def test_backend_names_are_supported_and_not_reported():
    before = dict(_report._misses)
    from paddle.audio.backends import backend, wave_backend

    importlib.import_module("paddle.audio.backends.init_backend")

    for name in ("load", "save", "info", "backends"):
        assert hasattr(paddle.audio, name)
    assert paddle.audio.load is wave_backend.load and backend.AudioInfo is wave_backend.AudioInfo
    assert dict(_report._misses) == before


def test_feature_layers_are_layers():
    layer = paddle.audio.features.MFCC(sr=8000, n_mfcc=4, n_fft=64, n_mels=8)
    assert isinstance(layer, paddle.nn.Layer) and layer.parameters() == []


def _wave(values=((0.5, -0.5),)):
    return paddle.to_tensor([list(v) for v in values])


def test_a_failed_save_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "a.wav"
    paddle.audio.save(str(path), _wave(), 8000)
    old = path.read_bytes()
    with pytest.raises(Exception, match="sampling rate not specified"):
        paddle.audio.save(str(path), _wave([(0.1, 0.2, 0.3)]), 0)
    with pytest.raises(Exception, match="channels not specified"):
        paddle.audio.save(str(tmp_path / "new.wav"), paddle.ones([0, 3]), 8000)
    assert path.read_bytes() == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.wav"]


def test_save_overwrites_and_leaves_the_mode_open_would(tmp_path):
    path = tmp_path / "m.wav"
    paddle.audio.save(str(path), _wave(), 8000)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    os.chmod(path, 0o640)
    paddle.audio.save(str(path), _wave([(0.25, 0.25, 0.25)]), 16000)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert paddle.audio.info(str(path)).num_samples == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.wav"]


def test_save_writes_through_a_symlink(tmp_path):
    real, link = tmp_path / "real.wav", tmp_path / "link.wav"
    real.write_bytes(b"")
    link.symlink_to(real)
    paddle.audio.save(str(link), _wave(), 8000)
    assert link.is_symlink() and paddle.audio.info(str(real)).num_samples == 2


def test_save_to_a_folder_name_fails_as_open_does(tmp_path):
    for target in (str(tmp_path), str(tmp_path / "sub") + os.sep):
        with pytest.raises(IsADirectoryError) as e:
            paddle.audio.save(target, _wave(), 8000)
        assert e.value.filename == target
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def fake_paddleaudio(monkeypatch):
    """A stand-in for paddleaudio >= 1.0.2 with a 'soundfile' backend (the real one is not installed here)."""
    state = {"backend": "soundfile", "calls": []}
    mod = types.ModuleType("paddleaudio")
    mod.__version__ = "1.1.0"
    mod.backends = types.SimpleNamespace(list_audio_backends=lambda: ["soundfile"],
                                         get_audio_backend=lambda: state["backend"],
                                         set_audio_backend=lambda name: state.update(backend=name))
    mod.load = lambda *a, **k: state["calls"].append("load")
    mod.save = lambda *a, **k: state["calls"].append("save")
    mod.info = lambda *a, **k: state["calls"].append("info")
    monkeypatch.setitem(sys.modules, "paddleaudio", mod)
    yield mod
    mod.__version__ = "1.1.0"  # set_backend checks the version too
    paddle.audio.backends.set_backend("wave_backend")


def test_paddleaudio_backends_when_installed(fake_paddleaudio):
    b = paddle.audio.backends
    assert b.list_available_backends() == ["soundfile", "wave_backend"]
    assert b.get_current_backend() == "wave_backend"  # paddle.audio.load is still the wave backend's
    b.set_backend("soundfile")
    assert paddle.audio.load is fake_paddleaudio.load and b.backend.save is fake_paddleaudio.save
    assert b.get_current_backend() == "soundfile"
    paddle.audio.info("x.wav")
    b.set_backend("wave_backend")
    assert paddle.audio.load is b.wave_backend.load and b.get_current_backend() == "wave_backend"


@pytest.mark.parametrize("version", ["0.9.9", "1.0.1"])
def test_old_paddleaudio_is_refused(fake_paddleaudio, version):
    fake_paddleaudio.__version__ = version
    with pytest.raises(ImportError, match=f"installed is {version}"):
        paddle.audio.backends.list_available_backends()


def test_without_paddleaudio_only_wave_and_a_warning():
    assert "paddleaudio" not in sys.modules
    with pytest.warns(UserWarning, match="Failed importing paddleaudio"):
        assert paddle.audio.backends.list_available_backends() == ["wave_backend"]
    with pytest.warns(UserWarning), pytest.raises(NotImplementedError):
        paddle.audio.backends.set_backend("soundfile")
