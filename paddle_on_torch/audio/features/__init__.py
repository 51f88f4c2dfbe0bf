"""paddle.audio.features: Spectrogram, MelSpectrogram, LogMelSpectrogram, MFCC layers."""
from ... import _report
from .layers import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram  # noqa: F401

__all__ = ["LogMelSpectrogram", "MelSpectrogram", "MFCC", "Spectrogram"]

__getattr__ = _report.module_getattr("paddle.audio.features")
