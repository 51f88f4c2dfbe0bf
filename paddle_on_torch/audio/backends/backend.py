"""paddle.audio.backends.backend: AudioInfo, and the load / save / info that the current backend put here.

Paddle rebinds this module's load / save / info (and paddle.audio's) whenever a backend is set;
init_backend does the same, starting with the wave backend.
"""


class AudioInfo:
    """Audio info, the return type of a backend's info function."""

    sample_rate: int
    num_samples: int
    num_channels: int
    bits_per_sample: int
    encoding: str

    def __init__(self, sample_rate, num_samples, num_channels, bits_per_sample, encoding):
        self.sample_rate = sample_rate
        self.num_samples = num_samples
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding
