"""read_file and decode_jpeg."""
import torch

from ... import _report


def read_file(filename, name=None):
    """The bytes of a file as a 1-D uint8 Tensor."""
    from ..._normalize import wrap

    try:
        with open(filename, "rb") as f:
            data = f.read()
    except OSError as e:  # Paddle's read_file kernel fails with a RuntimeError on a missing file
        raise RuntimeError(f"(PreconditionNotMet) read_file cannot read {filename!r}: {e}") from e
    return wrap(torch.frombuffer(bytearray(data), dtype=torch.uint8))


def decode_jpeg(x, mode="unchanged", name=None):
    """Paddle 3.3.1 decodes JPEG only on GPU (nvJPEG); its CPU kernel raises, and so does this one."""
    raise _report.unsupported("paddle.vision.ops.decode_jpeg", ": Paddle's DecodeJpeg op only supports GPU (its "
                              "CPU kernel raises too); decode with paddle.vision.image_load or PIL instead")


__getattr__ = _report.module_getattr("paddle.vision.ops")
