"""Tensor printing, character for character as Paddle prints.

Paddle formats each element itself rather than using numpy's printer:
floats with `precision` decimals (an integral float prints as `1.`), every
element padded to the widest one, a leading space for non-negative values
when any value is negative, rows wrapped at `linewidth`, and tensors with
more than `threshold` elements summarised to `edgeitems` at each edge.
"""
import numpy as np
import torch

__all__ = ["set_printoptions", "tensor_to_string"]


class _Options:
    precision = 8
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = False


OPTIONS = _Options()


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None, linewidth=None):
    """Set how Tensors print (Paddle's defaults: 8, 1000, 3, False, 80)."""
    for name, value, kind in (("precision", precision, int), ("threshold", threshold, int),
                              ("edgeitems", edgeitems, int), ("linewidth", linewidth, int),
                              ("sci_mode", sci_mode, bool)):
        if value is None:
            continue
        if not isinstance(value, kind):
            raise TypeError(f"The type of '{name}' in set_printoptions must be {kind}, "
                            f"but received {type(value)}.")
        setattr(OPTIONS, name, value)


def _format_item(v, width=0, signed=False):
    if isinstance(v, np.floating):
        if OPTIONS.sci_mode:
            s = f"{v:.{OPTIONS.precision}e}"
        elif np.ceil(v) == v:
            s = f"{v:.0f}."
        else:
            s = f"{v:.{OPTIONS.precision}f}"
    elif isinstance(v, np.complexfloating):
        p, f = OPTIONS.precision, "e" if OPTIONS.sci_mode else "f"
        re, im = v.real, v.imag
        s = f"({re:.{p}{f}}+{im:.{p}{f}}j)" if im >= 0 else f"({re:.{p}{f}}{im:.{p}{f}}j)"
    else:
        s = f"{v}"
    if width <= len(s):
        return s
    if signed and not v < 0:
        return " " + s.ljust(width - 1)
    return s.ljust(width)


def _summary(a):
    """The elements that will be printed (for measuring the column width)."""
    e = OPTIONS.edgeitems
    if a.size == 0:
        return np.array([])
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * e:
        a = np.concatenate([a[:e], a[-e:]])
    if a.ndim == 1:
        return a
    return np.stack([_summary(r) for r in a])


def _max_width(a):
    width, signed = 0, False
    for v in a.reshape(-1):
        if not signed and v < 0:
            signed = True
        width = max(width, len(_format_item(v)))
    return width, signed


def _format(a, summary, indent, width, signed):
    e = OPTIONS.edgeitems
    if a.ndim == 0:
        return _format_item(a[()], width, signed)
    n = a.shape[0]
    rows = range(n) if not (summary and n > 2 * e) else [*range(e), None, *range(n - e, n)]
    if a.ndim == 1:
        items = ["..." if i is None else _format_item(a[i], width, signed) for i in rows]
        per_line = max(1, (OPTIONS.linewidth - indent) // (width + 2))
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    parts = ["..." if i is None else _format(a[i], summary, indent + 1, width, signed) for i in rows]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def format_data(t, indent):
    """The bracketed data block of a torch tensor, as Paddle lays it out."""
    t = t.detach()
    if t.dtype in (torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2):
        t = t.float()
    a = t.cpu().resolve_conj().resolve_neg().numpy()
    summary = a.size > OPTIONS.threshold
    width, signed = _max_width(_summary(a))
    return _format(a, summary, indent, width, signed)


def tensor_to_string(x, prefix="Tensor"):
    t = x._t
    if t.layout is not torch.strided:  # sparse COO / CSR: Paddle prints the parts
        from .sparse_methods import sparse_to_string

        return sparse_to_string(x, prefix)
    indent = len(prefix) + 1
    head = f"{prefix}(shape={list(t.shape)}, dtype={x.dtype._short}, place={x.place}, stop_gradient={x.stop_gradient}"
    if getattr(t, "device_mesh", None) is not None:  # a DTensor prints its global value
        head += f", process_mesh={x.process_mesh}, placements={x.placements}, GlobalDenseTensor="
        t = t.full_tensor()
    else:
        head += ","
    return f"{head}\n{' ' * indent}{format_data(t, indent)})"
