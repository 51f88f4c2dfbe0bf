"""paddle.audio.backends.wave_backend: PCM16 WAV through Python's `wave` module, as Paddle's default backend.

Kept to Paddle 3.3.1's behaviour, quirks included:
- load always returns float32: scaled by 1/2**15 with normalize=True, the raw int16 values otherwise;
  frame_offset is used only when num_frames != -1 (then both slice the frames as Python slices do);
- save scales only float32 input by 2**15 and stores it as int16 (numpy's cast, so out-of-range
  values wrap); any other dtype is written as its raw bytes under a 16-bit header;
- a file `wave` cannot open (not RIFF/WAVE, not PCM) raises NotImplementedError; a PCM WAV of another
  sample width opens, and load then fails in numpy as in Paddle.
A path given as a str is written atomically (a temporary file next to it, then os.replace): where
Paddle leaves an empty or partial file after an error, here an old file stays as it was and no new
one appears.
"""
import errno
import os
import wave

import numpy as np

from ..._core.dtype import float32
from ...tensor.creation import to_tensor
from ...tensor.manipulation import transpose
from .backend import AudioInfo


def _error_message():
    package = "paddleaudio"
    return ("only PCM16 WAV supported. \n"
            "if want support more other audio types, please "
            f"manually installed (usually with `pip install {package}`). \n "
            "and use paddle.audio.backends.set_backend('soundfile') to set audio backend")


def _open_wave(filepath):
    """(wave reader, the file object under it); a path is opened here, a file object is used as given."""
    file_obj = filepath if hasattr(filepath, "read") else open(filepath, "rb")
    try:
        return wave.open(file_obj), file_obj
    except wave.Error:  # the chained wave.Error says what was wrong
        file_obj.seek(0)
        file_obj.close()
        raise NotImplementedError(_error_message())


def info(filepath):
    """Sample rate, frame count, channels, bits per sample and encoding of a WAV file (path or file object)."""
    reader, file_obj = _open_wave(filepath)
    channels = reader.getnchannels()
    sample_rate = reader.getframerate()
    frames = reader.getnframes()
    bits_per_sample = reader.getsampwidth() * 8
    file_obj.close()  # also a caller's file object, as Paddle does
    return AudioInfo(sample_rate, frames, channels, bits_per_sample, "PCM_S")


def load(filepath, frame_offset=0, num_frames=-1, normalize=True, channels_first=True):
    """(waveform, sample_rate): float32, [channels, time] (or [time, channels] with channels_first=False)."""
    reader, file_obj = _open_wave(filepath)
    channels = reader.getnchannels()
    sample_rate = reader.getframerate()
    frames = reader.getnframes()
    content = reader.readframes(frames)
    file_obj.close()

    samples = np.frombuffer(content, dtype=np.int16).astype(np.float32)  # read as PCM16 whatever the width
    if normalize:
        samples = samples / (2**15)
    waveform = np.reshape(samples, (frames, channels))
    if num_frames != -1:
        waveform = waveform[frame_offset:frame_offset + num_frames, :]
    waveform = to_tensor(waveform)
    if channels_first:
        waveform = transpose(waveform, perm=[1, 0])
    return waveform, sample_rate


def save(filepath, src, sample_rate, channels_first=True, encoding=None, bits_per_sample=16):
    """Write a 2-D tensor as a 16-bit WAV file (`encoding` is ignored, as in Paddle)."""
    assert src.ndim == 2, "Expected 2D tensor"
    audio = src.numpy()
    if channels_first:
        audio = np.transpose(audio)  # to [time, channels]
    channels = audio.shape[1]

    if bits_per_sample not in (None, 16):
        raise ValueError("Invalid bits_per_sample, only support 16 bit")
    sample_width = int(bits_per_sample / 8)  # None gets here and fails, as in Paddle (a TypeError)

    if src.dtype == float32:
        audio = (audio * (2**15)).astype("<h")

    def write(file_obj):
        with wave.open(file_obj, "w") as f:
            f.setnchannels(channels)
            f.setsampwidth(sample_width)
            f.setframerate(sample_rate)
            f.writeframes(audio.tobytes())

    if isinstance(filepath, str):
        _write_atomically(filepath, write)
    else:  # a file object (Paddle hands anything but a str to `wave` as one)
        write(filepath)


def _write_atomically(path, write):
    """Call write(file) on a new file next to `path`, then move it over `path`.

    The new file gets the mode open(path, 'wb') would leave (the old file's, else 0o666 less the umask);
    errors from creating it name `path`, as open() would.
    """
    if path.endswith(os.sep) or os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    target = os.path.realpath(path)  # through a symlink, as open() writes
    directory, base = os.path.split(target)
    while True:
        tmp = os.path.join(directory, f".{base}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:
            continue
        except OSError as e:
            raise type(e)(e.errno, e.strerror, path) from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        if os.path.exists(target):
            os.chmod(tmp, os.stat(target).st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
