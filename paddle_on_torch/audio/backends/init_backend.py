"""Which audio backend paddle.audio.load / save / info use: the wave backend, or paddleaudio's when installed."""
import sys
import warnings

from . import backend, wave_backend


def _check_version(version):
    """paddleaudio >= 1.0.2 is required."""
    major, minor, patch = (int(v) for v in version.split(".")[:3])
    if major < 1:
        return False
    return not (major == 1 and minor == 0 and patch <= 1)


def list_available_backends():
    """paddleaudio's backends (when it is installed), then 'wave_backend'; warns when paddleaudio is missing."""
    backends = []
    try:
        import paddleaudio  # noqa: F401
    except ImportError:
        package = "paddleaudio"
        warnings.warn(f"Failed importing {package}. \n"
                      "only wave_backend(only can deal with PCM16 WAV) supported.\n"
                      "if want soundfile_backend(more audio type supported),\n"
                      f"please manually installed (usually with `pip install {package} >= 1.0.2`). ")
    paddleaudio = sys.modules.get("paddleaudio")
    if paddleaudio is not None:
        version = paddleaudio.__version__
        if not _check_version(version):
            raise ImportError(f"the version of paddleaudio installed is {version},\n"
                              "please ensure the paddleaudio >= 1.0.2.")
        backends = paddleaudio.backends.list_audio_backends()
    backends.append("wave_backend")
    return backends


def get_current_backend():
    """The name of the backend behind paddle.audio.load: paddleaudio's current one if it is set, else 'wave_backend'."""
    from ... import audio

    paddleaudio = sys.modules.get("paddleaudio")
    if paddleaudio is not None:
        current = paddleaudio.backends.get_audio_backend()
        if audio.load == paddleaudio.load:
            return current
    return "wave_backend"


def set_backend(backend_name):
    """Point paddle.audio.load / save / info at one of list_available_backends()."""
    from ... import audio

    if backend_name not in list_available_backends():
        raise NotImplementedError  # Paddle's, without a message
    if backend_name == "wave_backend":
        module = wave_backend
    else:
        import paddleaudio

        paddleaudio.backends.set_audio_backend(backend_name)
        module = paddleaudio
    for func in ("save", "load", "info"):
        setattr(backend, func, getattr(module, func))
        setattr(audio, func, getattr(module, func))


def _init_set_audio_backend():
    for func in ("save", "load", "info"):
        setattr(backend, func, getattr(wave_backend, func))
