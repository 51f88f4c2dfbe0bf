"""paddle.signal: stft and istft, written the way Paddle computes them (frame, window, FFT, overlap-add).

Paddle checks its arguments with `assert`, so bad arguments raise AssertionError here too.
"""
import torch

from . import _report
from ._normalize import OptionalTensor, TensorLike, op

__all__ = ["stft", "istft"]


def _padded_window(window, win_length, n_fft, dtype, device):
    if window is not None:
        if not (window.dim() == 1 and window.shape[0] == win_length):
            raise AssertionError(f"expected a 1D window tensor of size equal to win_length({win_length}), but got "
                                 f"window with shape {list(window.shape)}.")
    else:
        window = torch.ones(win_length, dtype=dtype, device=device)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = torch.nn.functional.pad(window, [left, n_fft - win_length - left])
    return window


def _overlap_add(frames, hop_length):
    """frames [B, n_fft, n_frames] -> signal [B, (n_frames - 1) * hop + n_fft]."""
    b, n_fft, n_frames = frames.shape
    length = (n_frames - 1) * hop_length + n_fft
    return torch.nn.functional.fold(frames.reshape(b, n_fft, n_frames) if not frames.is_complex() else frames,
                                    output_size=(1, length), kernel_size=(1, n_fft),
                                    stride=(1, hop_length)).reshape(b, length)


@op
def stft(x: TensorLike, n_fft, hop_length=None, win_length=None, window: OptionalTensor = None, center=True,
         pad_mode="reflect", normalized=False, onesided=None, name=None):
    rank = x.dim()
    if rank not in (1, 2):
        raise AssertionError(f"x should be a 1D or 2D real tensor, but got rank of x is {rank}")
    if rank == 1:
        x = x.unsqueeze(0)
    hop_length = n_fft // 4 if hop_length is None else hop_length
    if not hop_length > 0:
        raise AssertionError(f"hop_length should be > 0, but got {hop_length}.")
    win_length = n_fft if win_length is None else win_length
    if not 0 < n_fft <= x.shape[-1]:
        raise AssertionError(f"n_fft should be in (0, seq_length({x.shape[-1]})], but got {n_fft}.")
    if not 0 < win_length <= n_fft:
        raise AssertionError(f"win_length should be in (0, n_fft({n_fft})], but got {win_length}.")
    window = _padded_window(window, win_length, n_fft, x.dtype, x.device)
    if center:
        if pad_mode not in ("constant", "reflect"):
            raise AssertionError(f'pad_mode should be "reflect" or "constant", but got "{pad_mode}".')
        pad = n_fft // 2
        if x.is_complex():
            x = torch.complex(torch.nn.functional.pad(x.real.unsqueeze(1), [pad, pad], mode=pad_mode),
                              torch.nn.functional.pad(x.imag.unsqueeze(1), [pad, pad], mode=pad_mode)).squeeze(1)
        else:
            x = torch.nn.functional.pad(x.unsqueeze(1), [pad, pad], mode=pad_mode).squeeze(1)
    frames = x.unfold(-1, n_fft, hop_length)  # [B, n_frames, n_fft]
    frames = frames * window
    norm = "ortho" if normalized else "backward"
    if onesided is None:
        onesided = not frames.is_complex()
    if frames.is_complex() and onesided:
        raise AssertionError("onesided should be False when input or window is a complex Tensor.")
    if onesided:
        out = torch.fft.rfft(frames, dim=-1, norm=norm)
    else:
        out = torch.fft.fft(frames, dim=-1, norm=norm)
    out = out.transpose(1, 2)
    return out.squeeze(0) if rank == 1 else out


@op
def istft(x: TensorLike, n_fft, hop_length=None, win_length=None, window: OptionalTensor = None, center=True,
          normalized=False, onesided=True, length=None, return_complex=False, name=None):
    if not x.is_complex():  # Paddle's dygraph skips its dtype check; the inverse FFT then treats x as complex
        x = x.to(torch.complex128 if x.dtype == torch.float64 else torch.complex64)
    rank = x.dim()
    if rank not in (2, 3):
        raise AssertionError(f"x should be a 2D or 3D complex tensor, but got rank of x is {rank}")
    if rank == 2:
        x = x.unsqueeze(0)
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not 0 < hop_length <= win_length:
        raise AssertionError(f"hop_length should be in (0, win_length({win_length})], but got {hop_length}.")
    if not 0 < win_length <= n_fft:
        raise AssertionError(f"win_length should be in (0, n_fft({n_fft})], but got {win_length}.")
    n_frames, fft_size = x.shape[-1], x.shape[-2]
    if x.numel() == 0:
        raise AssertionError("x should not be an empty tensor.")
    if onesided and fft_size != n_fft // 2 + 1:
        raise AssertionError(f"fft_size should be equal to n_fft // 2 + 1({n_fft // 2 + 1}) when onesided is True, "
                             f"but got {fft_size}.")
    if not onesided and fft_size != n_fft:
        raise AssertionError(f"fft_size should be equal to n_fft({n_fft}) when onesided is False, but got "
                             f"{fft_size}.")
    real_dtype = torch.float32 if x.dtype == torch.complex64 else torch.float64
    window = _padded_window(window, win_length, n_fft, real_dtype, x.device)
    x = x.transpose(1, 2)  # [B, n_frames, fft_size]
    norm = "ortho" if normalized else "backward"
    if return_complex:
        if onesided:
            raise AssertionError("onesided should be False when input(output of istft) or window is a complex "
                                 "Tensor.")
        out = torch.fft.ifft(x, dim=-1, norm=norm)
    else:
        if window.is_complex():
            raise AssertionError("Data type of window should not be complex when return_complex is False.")
        if not onesided:
            x = x[:, :, :n_fft // 2 + 1]
        out = torch.fft.irfft(x, dim=-1, norm=norm)
    out = (out * window).transpose(1, 2)  # [B, n_fft, n_frames]
    if out.is_complex():
        out = torch.complex(_overlap_add(out.real.contiguous(), hop_length),
                            _overlap_add(out.imag.contiguous(), hop_length))
    else:
        out = _overlap_add(out.contiguous(), hop_length)
    wsq = (window * window)
    if wsq.is_complex():
        wsq = wsq.real
    env = _overlap_add(wsq.reshape(1, n_fft, 1).expand(1, n_fft, n_frames).contiguous(), hop_length)[0]
    if length is None:
        if center:
            out = out[:, n_fft // 2:-(n_fft // 2)]
            env = env[n_fft // 2:-(n_fft // 2)]
    else:
        start = n_fft // 2 if center else 0
        out = out[:, start:start + length]
        env = env[start:start + length]
    if env.abs().min().item() < 1e-11:
        raise ValueError("Abort istft because Nonzero Overlap Add (NOLA) condition failed. For more information "
                         "about NOLA constraint please see `scipy.signal.check_NOLA`(https://docs.scipy.org/doc/"
                         "scipy/reference/generated/scipy.signal.check_NOLA.html).")
    out = out / env
    return out.squeeze(0) if rank == 2 else out


__getattr__ = _report.module_getattr("paddle.signal")


@op
def frame(x: TensorLike, frame_length, hop_length, axis=-1, name=None):
    """Slices `x` into overlapping frames along its first or last axis: [..., frame_length, num_frames] for
    axis=-1, [num_frames, frame_length, ...] for axis=0 (paddle.signal.frame, outside Paddle's __all__)."""
    if axis not in (0, -1):
        raise ValueError(f"Unexpected axis: {axis}. It should be 0 or -1.")
    if not isinstance(frame_length, int) or frame_length <= 0:
        raise ValueError(f"Unexpected frame_length: {frame_length}. It should be an positive integer.")
    if not isinstance(hop_length, int) or hop_length <= 0:
        raise ValueError(f"Unexpected hop_length: {hop_length}. It should be an positive integer.")
    if frame_length > x.shape[axis]:
        raise ValueError(f"Attribute frame_length should be less equal than sequence length, but got "
                         f"({frame_length}) > ({x.shape[axis]}).")
    if axis == -1:
        return x.unfold(-1, frame_length, hop_length).transpose(-1, -2).contiguous()  # [..., L, n]
    return x.unfold(0, frame_length, hop_length).movedim(-1, 1).contiguous()  # [n, L, ...]
