"""paddle.vision.ops.box_coder: encode / decode boxes against prior boxes."""
import torch

from ..._normalize import TensorLike, op


@op
def box_coder(prior_box: TensorLike, prior_box_var, target_box: TensorLike, code_type="encode_center_size",
              box_normalized=True, axis=0, name=None):
    """Encode target boxes against prior boxes (center-size form) or decode offsets back to boxes."""
    from ..._normalize import Tensor

    if isinstance(prior_box_var, Tensor):
        var = prior_box_var._t
    elif isinstance(prior_box_var, (list, tuple)):
        assert len(prior_box_var) == 4, "Input prior_box_var must be Variable or list|tuple with 4 elements."
        var = torch.tensor([float(v) for v in prior_box_var], dtype=prior_box.dtype, device=prior_box.device)
    else:
        raise TypeError("Input prior_box_var must be Variable or list|tuple")
    one = 0.0 if box_normalized else 1.0
    pw = prior_box[:, 2] - prior_box[:, 0] + one
    ph = prior_box[:, 3] - prior_box[:, 1] + one
    pcx = prior_box[:, 0] + pw / 2
    pcy = prior_box[:, 1] + ph / 2
    if code_type == "encode_center_size":
        t = target_box
        tw = t[:, 2] - t[:, 0] + one
        th = t[:, 3] - t[:, 1] + one
        tcx = ((t[:, 0] + t[:, 2]) / 2)[:, None]  # Paddle's kernel: the target's centre has no +1 shift
        tcy = ((t[:, 1] + t[:, 3]) / 2)[:, None]
        out = torch.stack([(tcx - pcx) / pw, (tcy - pcy) / ph, torch.log(torch.abs(tw[:, None] / pw)),
                           torch.log(torch.abs(th[:, None] / ph))], dim=-1)
        return out / (var if var.dim() == 1 else var[None, :, :])
    if code_type != "decode_center_size":
        raise ValueError(f"code_type must be 'encode_center_size' or 'decode_center_size', but got {code_type}")
    t = target_box
    if t.dim() == 2:
        t = t[:, None, :] if axis == 0 else t[None, :, :]
    # axis=0: prior j pairs with column j; axis=1: prior i pairs with row i
    expand = (lambda v: v[None, :]) if axis == 0 else (lambda v: v[:, None])
    pw, ph, pcx, pcy = expand(pw), expand(ph), expand(pcx), expand(pcy)
    v = var if var.dim() == 1 else (var[None, :, :] if axis == 0 else var[:, None, :])
    v = v.expand(t.shape)
    cx = v[..., 0] * t[..., 0] * pw + pcx
    cy = v[..., 1] * t[..., 1] * ph + pcy
    w = torch.exp(v[..., 2] * t[..., 2]) * pw
    h = torch.exp(v[..., 3] * t[..., 3]) * ph
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2 - one, cy + h / 2 - one], dim=-1)
