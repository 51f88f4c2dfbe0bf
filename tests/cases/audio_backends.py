"""paddle.audio.load / save / info and paddle.audio.backends (the wave backend: PCM16 WAV).

Files go to a fresh temporary folder per case.  Saved files are compared byte for byte (their hex, or a
sha256 for long ones), errors by type and message.
"""
import functools
import hashlib
import io
import os
import struct
import tempfile
import warnings

import numpy as np

from tests.cases import case


def _in_tmp_dir(fn):
    """Run the case with a fresh temporary folder as its second argument (removed afterwards)."""

    @functools.wraps(fn)
    def run(paddle):
        with tempfile.TemporaryDirectory(prefix="audio_case_") as d:
            return fn(paddle, d)

    return run


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _bytes(path):
    data = _read(path)
    return data.hex() if len(data) <= 200 else [len(data), hashlib.sha256(data).hexdigest()]


def _error(fn, *args, **kwargs):
    try:
        return ["no error", fn(*args, **kwargs)]
    except Exception as e:  # noqa: BLE001 - the error is the answer
        return [type(e).__name__, str(e)]


def _wav(path, sample_width, channels, data, fmt=1, rate=8000):
    """A WAV file written by hand: any format tag and sample width."""
    fmt_chunk = struct.pack("<HHIIHH", fmt, channels, rate, rate * channels * sample_width, channels * sample_width,
                            sample_width * 8)
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt_chunk
                + b"data" + struct.pack("<I", len(data)) + data)
    return path


def _stereo(paddle, n=50):
    a = np.random.default_rng(0).uniform(-0.9, 0.9, (2, n)).astype("float32")
    return paddle.to_tensor(a)


@case
@_in_tmp_dir
def save_load_docstring_example(paddle, d):
    # the docstring's waveform: 0.5 s of a ramp at 16 kHz, mono
    waveform = (paddle.linspace(-1.0, 1.0, 8000) * 0.1).tile([1, 1])
    path = os.path.join(d, "test.wav")
    paddle.audio.save(path, waveform, 16000)
    wav, sr = paddle.audio.load(path)
    return [_bytes(path), wav, sr]


@case
@_in_tmp_dir
def save_load_stereo(paddle, d):
    path = os.path.join(d, "stereo.wav")
    paddle.audio.save(path, _stereo(paddle), 22050)
    return [_bytes(path), paddle.audio.load(path), paddle.audio.load(path, normalize=False),
            paddle.audio.load(path, channels_first=False), paddle.audio.load(path, normalize=False, channels_first=False)]


@case
@_in_tmp_dir
def save_channels_last(paddle, d):
    path = os.path.join(d, "last.wav")
    paddle.audio.save(path, _stereo(paddle, 7).transpose([1, 0]), 8000, channels_first=False)
    return [_bytes(path), paddle.audio.load(path)]


@case
@_in_tmp_dir
def save_three_channels_short(paddle, d):
    path = os.path.join(d, "three.wav")
    x = paddle.to_tensor([[0.0, 0.25, -0.25], [0.5, -0.5, 0.125], [0.999, -0.999, 0.001]])
    paddle.audio.save(path, x, 44100)
    return [_bytes(path), paddle.audio.load(path)]


@case
@_in_tmp_dir
def load_frame_offset_and_num_frames(paddle, d):
    path = os.path.join(d, "ramp.wav")
    paddle.audio.save(path, (paddle.arange(20, dtype="float32") / 40.0).reshape([2, 10]), 8000)
    out = []
    for offset, num in [(0, -1), (3, -1), (3, 4), (0, 0), (5, 100), (-3, 2), (1, -2), (12, 3), (0, 10)]:
        wav, sr = paddle.audio.load(path, frame_offset=offset, num_frames=num)
        out.append(wav)
    out.append(paddle.audio.load(path, frame_offset=2, num_frames=3, normalize=False, channels_first=False)[0])
    out.append(_error(paddle.audio.load, path, num_frames=1.5))
    out.append(_error(paddle.audio.load, path, frame_offset=None, num_frames=1))
    return out


@case
@_in_tmp_dir
def info_fields(paddle, d):
    path = os.path.join(d, "info.wav")
    paddle.audio.save(path, _stereo(paddle, 33), 11025)
    i = paddle.audio.info(path)
    return [type(i).__name__, type(i).__module__.replace("paddle_on_torch", "paddle"), i.sample_rate, i.num_samples,
            i.num_channels, i.bits_per_sample, i.encoding, sorted(vars(i))]


@case
@_in_tmp_dir
def info_of_other_pcm_widths(paddle, d):
    # wave opens 8- and 24-bit PCM, so info answers; load reads the bytes as int16 and fails in numpy
    out = []
    for name, width, channels, data in [("u8.wav", 1, 1, bytes(range(10))), ("u8odd.wav", 1, 1, bytes(range(9))),
                                        ("s24.wav", 3, 1, bytes(range(12))), ("s24st.wav", 3, 2, bytes(range(12)))]:
        path = _wav(os.path.join(d, name), width, channels, data)
        out.append(vars(paddle.audio.info(path)))
        out.append(_error(paddle.audio.load, path))
    return out


@case
@_in_tmp_dir
def load_truncated_data_chunk(paddle, d):
    full = _wav(os.path.join(d, "full.wav"), 2, 2, bytes(range(8)))
    data = _read(full)
    short = os.path.join(d, "short.wav")
    with open(short, "wb") as f:
        f.write(data[:-3])
    return [paddle.audio.load(full), vars(paddle.audio.info(short)), _error(paddle.audio.load, short)]


@case
@_in_tmp_dir
def load_not_a_wav(paddle, d):
    path = os.path.join(d, "bad.wav")
    with open(path, "wb") as f:
        f.write(b"hello world, not a wav file at all")
    return [_error(paddle.audio.load, path), _error(paddle.audio.info, path)]


@case
@_in_tmp_dir
def load_float_wav_is_not_pcm16(paddle, d):
    path = _wav(os.path.join(d, "f32.wav"), 4, 1, np.ones(4, "float32").tobytes(), fmt=3)
    return [_error(paddle.audio.load, path), _error(paddle.audio.info, path)]


@case
@_in_tmp_dir
def load_empty_and_header_only(paddle, d):
    empty, header = os.path.join(d, "empty.wav"), os.path.join(d, "header.wav")
    open(empty, "wb").close()
    with open(header, "wb") as f:
        f.write(b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00")
    return [_error(paddle.audio.load, empty), _error(paddle.audio.info, empty), _error(paddle.audio.load, header)]


@case
@_in_tmp_dir
def load_missing_file(paddle, d):
    out = []
    for fn in (paddle.audio.load, paddle.audio.info):
        try:
            fn(os.path.join(d, "missing.wav"))
        except OSError as e:
            out.append([type(e).__name__, e.errno, os.path.basename(e.filename)])
    return out


@case
@_in_tmp_dir
def file_objects(paddle, d):
    path = os.path.join(d, "obj.wav")
    paddle.audio.save(path, _stereo(paddle, 5), 8000)
    f = open(path, "rb")
    wav, sr = paddle.audio.load(f)
    buf = io.BytesIO(_read(path))
    i = paddle.audio.info(buf)
    junk = io.BytesIO(b"junkjunkjunkjunk")
    err = _error(paddle.audio.load, junk)
    out = io.BytesIO()
    paddle.audio.save(out, paddle.to_tensor([[0.25, -0.25, 0.5]]), 16000)
    return [wav, sr, f.closed, vars(i), buf.closed, err, junk.closed, out.getvalue().hex(), out.closed]


@case
@_in_tmp_dir
def save_dtypes_other_than_float32(paddle, d):
    # only float32 is scaled to int16; other dtypes are written as their raw bytes under a 16-bit header
    out = []
    for i, (values, dtype) in enumerate([([[0.5, -0.5, 1.0]], "float64"), ([[1, 2, -3]], "int16"),
                                         ([[1, 2, 3]], "int32"), ([[0.5, -0.5]], "float16"),
                                         ([[0.5, -0.5]], "bfloat16"), ([[1, 2]], "uint8"), ([[True, False]], "bool"),
                                         ([[1 + 2j]], "complex64")]):
        path = os.path.join(d, f"{i}.wav")
        paddle.audio.save(path, paddle.to_tensor(values, dtype), 8000)
        out.append(_bytes(path))
    return out


@case
@_in_tmp_dir
def save_float32_out_of_range_wraps(paddle, d):
    path = os.path.join(d, "wrap.wav")
    paddle.audio.save(path, paddle.to_tensor([[1.0, -1.0, 1.5, -1.5, 0.99999, -2.0, 3e-5]]), 8000)
    return [_bytes(path), paddle.audio.load(path, normalize=False)]


@case
@_in_tmp_dir
def save_sample_rates_and_ignored_arguments(paddle, d):
    x = paddle.to_tensor([[0.5, -0.5]])
    out = []
    for i, kwargs in enumerate([dict(sample_rate=8000.6), dict(sample_rate=8000, encoding="PCM_F"),
                                dict(sample_rate=8000, bits_per_sample=16.0),
                                dict(sample_rate=96000, channels_first=False)]):
        path = os.path.join(d, f"{i}.wav")
        paddle.audio.save(path, x, **kwargs)
        out.append(_bytes(path))
    grad = paddle.to_tensor([[0.5, -0.5]], stop_gradient=False)
    paddle.audio.save(os.path.join(d, "grad.wav"), grad, 8000)
    out.append(_bytes(os.path.join(d, "grad.wav")))
    return out


@case
@_in_tmp_dir
def save_errors(paddle, d):
    path = os.path.join(d, "e.wav")
    x = paddle.ones([2, 3]) * 0.5
    out = [_error(paddle.audio.save, path, paddle.ones([3]), 8000),
           _error(paddle.audio.save, path, paddle.ones([1, 2, 3]), 8000),
           _error(paddle.audio.save, path, x, 8000, bits_per_sample=8),
           _error(paddle.audio.save, path, x, 8000, bits_per_sample=32),
           _error(paddle.audio.save, path, x, 8000, bits_per_sample=None),
           _error(paddle.audio.save, path, x, 0),
           _error(paddle.audio.save, path, x, -5),
           _error(paddle.audio.save, path, x, "8000"),
           _error(paddle.audio.save, path, x, 2**33),
           _error(paddle.audio.save, path, paddle.ones([0, 3]), 8000),
           _error(paddle.audio.save, path, np.ones([2, 3], "float32"), 8000)]
    try:
        paddle.audio.save(os.path.join(d, "nodir", "x.wav"), x, 8000)
    except OSError as e:
        out.append([type(e).__name__, e.errno, os.path.relpath(e.filename, d)])
    try:
        paddle.audio.save(d, x, 8000)
    except OSError as e:
        out.append([type(e).__name__, e.errno, e.filename == d])
    return out


@case
@_in_tmp_dir
def save_to_a_pathlib_path_fails_as_in_paddle(paddle, d):
    import pathlib

    # Paddle passes anything but a str to `wave` as a file object
    return _error(paddle.audio.save, pathlib.Path(os.path.join(d, "p.wav")), paddle.ones([1, 2]), 8000)


@case
@_in_tmp_dir
def load_and_info_take_a_pathlib_path(paddle, d):
    import pathlib

    path = os.path.join(d, "p.wav")
    paddle.audio.save(path, paddle.to_tensor([[0.5, -0.25]]), 8000)
    return [paddle.audio.load(pathlib.Path(path)), vars(paddle.audio.info(pathlib.Path(path)))]


@case
def backends_without_paddleaudio(paddle):
    b = paddle.audio.backends
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        available = b.list_available_backends()
    return [b.get_current_backend(), available, [(w.category.__name__, str(w.message)) for w in caught],
            sorted(n for n in dir(b) if not n.startswith("_")), b.__all__]


@case
def set_backend_answers(paddle):
    b = paddle.audio.backends
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ["soundfile", "sox_io", None, 3, "wave_backend"]:
            out.append(_error(b.set_backend, name))
    out += [paddle.audio.load is b.wave_backend.load, paddle.audio.save is b.wave_backend.save,
            paddle.audio.info is b.wave_backend.info, b.backend.load is b.wave_backend.load,
            b.backend.AudioInfo.__name__, b.get_current_backend()]
    return out
