"""`paddle-on-torch convert IN OUT`: checkpoints between Paddle, safetensors and torch files.

Formats, by extension:
  .pdparams / .pdopt      Paddle's state-dict pickle, read with paddle.load's restricted unpickler
  .safetensors            safetensors; Paddle parameter names and non-tensor entries (an optimizer's
                          LR_Scheduler dict) ride in the header metadata, and so does the key order
                          (safetensors sorts its keys), so Paddle -> safetensors -> Paddle is lossless
  .pt / .pth / .bin       torch.save of a plain dict of tensors; read with torch.load(weights_only=True)

`--to torch` renames keys and changes layouts for torch's modules: BatchNorm `_mean`/`_variance`
become `running_mean`/`running_var`, and Linear weights are transposed from Paddle's [in, out] to
torch's [out, in] -- which weights are Linear ones comes from `--model module:factory` (a Paddle
model built under paddle_on_torch) or from `--rules FILE`.  `--to paddle` does the reverse
(and drops torch's `num_batches_tracked`).  Nothing from the input file is ever executed; the
output is written atomically (a temporary file renamed into place), so a failed conversion leaves
no output file.
"""
import io
import json
import os
import re
import sys

import numpy as np

from . import EXIT_FAILED, EXIT_INPUT, EXIT_OK, CLIError, build_from_factory, progress

_PADDLE = (".pdparams", ".pdopt")
_SAFETENSORS = (".safetensors",)
_TORCH = (".pt", ".pth", ".bin")
_META_NAMES, _META_EXTRA = "paddle_on_torch.names", "paddle_on_torch.extra"
_META_ORDER = "paddle_on_torch.order"  # safetensors sorts its keys: the state dict's own order rides here


def add_parser(sub):
    p = sub.add_parser("convert", help="convert checkpoints between .pdparams/.pdopt, .safetensors and torch "
                                       ".pt files",
                       description=__doc__.split("\n\n", 1)[1], formatter_class=_RawFormatter)
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT")
    p.add_argument("--to", choices=("torch", "paddle"), default=None,
                   help="also rename keys and transpose Linear weights for torch's (or Paddle's) modules")
    p.add_argument("--model", metavar="MODULE:FACTORY",
                   help="a Paddle model factory (called with no arguments) whose Linear and BatchNorm layers "
                        "say which keys to transpose and rename")
    p.add_argument("--rules", metavar="FILE",
                   help='a JSON file {"transpose": [regex, ...], "rename": [[regex, replacement], ...]}')
    p.add_argument("--verify", action="store_true", help="reload the output and compare every tensor bit for bit")
    p.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    p.set_defaults(func=run)


class _RawFormatter:
    def __new__(cls, *a, **k):
        import argparse

        return argparse.RawDescriptionHelpFormatter(*a, **k)


def _kind(path):
    ext = os.path.splitext(path)[1].lower()
    for kind, exts in (("paddle", _PADDLE), ("safetensors", _SAFETENSORS), ("torch", _TORCH)):
        if ext in exts:
            return kind
    raise CLIError(f"{path}: unknown checkpoint format {ext or '(no extension)'!r}; expected one of "
                   f"{', '.join(_PADDLE + _SAFETENSORS + _TORCH)}", 2)


# ===================================================================== reading
# Every reader returns (tensors: {key: torch.Tensor}, names: {key: paddle name}, extra: {key: JSON-able},
# order: every key, tensors and others, in the file's order)


def _read_paddle(path):
    import torch

    from ..framework import io as pio

    obj = pio.load(path, keep_name_table=True)
    if not isinstance(obj, dict):
        raise CLIError(f"{path}: not a state dict (a {type(obj).__name__} was saved)", EXIT_INPUT)
    names = obj.pop(pio._NAME_TABLE, {}) or {}
    tensors, extra = {}, {}
    Tensor = pio._tensor_cls()
    for k, v in obj.items():
        if isinstance(v, Tensor):
            tensors[k] = v._t.detach().cpu()
        elif isinstance(v, np.ndarray):
            tensors[k] = torch.from_numpy(v.copy())
        else:
            extra[k] = v
    return tensors, {k: n for k, n in names.items() if k in tensors}, extra, list(obj)


def _read_safetensors(path):
    from safetensors import safe_open

    tensors = {}
    with safe_open(path, framework="pt") as f:
        meta = f.metadata() or {}
        for k in f.keys():
            tensors[k] = f.get_tensor(k)
    names = json.loads(meta[_META_NAMES]) if _META_NAMES in meta else {}
    extra = json.loads(meta[_META_EXTRA]) if _META_EXTRA in meta else {}
    order = json.loads(meta[_META_ORDER]) if _META_ORDER in meta else []
    if not _same_keys(order, [*tensors, *extra]):  # (written by something else: safetensors' sorted order)
        order = [*tensors, *extra]
    tensors = {k: tensors[k] for k in order if k in tensors}
    return tensors, names, extra, order


def _read_torch(path):
    import torch

    from ..framework import safe_pickle

    obj = safe_pickle.torch_load(path, "paddle-on-torch convert", path, map_location="cpu")
    if isinstance(obj, dict) and not any(isinstance(v, torch.Tensor) for v in obj.values()):
        for key in ("state_dict", "model", "model_state_dict"):
            if isinstance(obj.get(key), dict):
                obj = obj[key]
                break
    if not isinstance(obj, dict):
        raise CLIError(f"{path}: not a state dict (a {type(obj).__name__} was saved)", EXIT_INPUT)
    tensors = {k: v for k, v in obj.items() if isinstance(v, torch.Tensor)}
    extra = {k: v for k, v in obj.items() if not isinstance(v, torch.Tensor)}
    return tensors, {}, extra, list(obj)


def read(path):
    kind = _kind(path)
    if not os.path.isfile(path):
        raise CLIError(f"{path}: no such file", EXIT_INPUT)
    reader = {"paddle": _read_paddle, "safetensors": _read_safetensors, "torch": _read_torch}[kind]
    try:
        return reader(path)
    except CLIError:
        raise
    except Exception as e:  # noqa: BLE001 - any failure to parse is the file's: one clear line, exit 3
        raise CLIError(f"{path}: cannot read this {kind} file ({type(e).__name__}: {e})", EXIT_INPUT) from None


# ===================================================================== key and layout changes


def _model_rules(spec):
    """(transpose keys, {old key: new key}) from a Paddle model built by `module:factory`."""
    import paddle_on_torch

    model = build_from_factory(spec, "--model ")
    nn = paddle_on_torch.nn
    transpose, bn = set(), set()
    for prefix, layer in model.named_sublayers(include_self=True):
        p = prefix + "." if prefix else ""
        if isinstance(layer, nn.Linear):
            transpose.add(p + "weight")
        elif "BatchNorm" in type(layer).__name__:
            bn.add(p)
    return transpose, bn, set(model.state_dict().keys())


def _load_rules(path):
    try:
        with open(path) as f:
            rules = json.load(f)
        transpose = [re.compile(r) for r in rules.get("transpose", [])]
        rename = [(re.compile(a), b) for a, b in rules.get("rename", [])]
    except (OSError, ValueError, TypeError, re.error, AttributeError) as e:
        raise CLIError(f"--rules {path}: not a valid rule file ({type(e).__name__}: {e})", EXIT_INPUT) from None
    return transpose, rename


_BN_TO_TORCH = {"_mean": "running_mean", "_variance": "running_var"}
_BN_TO_PADDLE = {v: k for k, v in _BN_TO_TORCH.items()}


def remap(tensors, names, to, model=None, rules=None):
    """Rename keys and transpose Linear weights for `to` ('torch' or 'paddle')."""
    transpose_keys, bn_prefixes, model_keys = _model_rules(model) if model else (set(), None, None)
    rx_transpose, rx_rename = _load_rules(rules) if rules else ([], [])
    table = _BN_TO_TORCH if to == "torch" else _BN_TO_PADDLE
    out, out_names = {}, {}
    for key, t in tensors.items():
        prefix, _, leaf = key.rpartition(".")
        prefix = prefix + "." if prefix else ""
        if to == "paddle" and leaf == "num_batches_tracked":
            continue
        new = key
        if leaf in table and (bn_prefixes is None or prefix in bn_prefixes):
            new = prefix + table[leaf]
        for rx, repl in rx_rename:
            new = rx.sub(repl, new)
        # with --model, Paddle's keys name the layers; going to Paddle, the renamed key does
        paddle_key = key if to == "torch" else new
        if paddle_key in transpose_keys or any(rx.fullmatch(key) for rx in rx_transpose):
            if t.dim() != 2:
                raise CLIError(f"{key}: a Linear weight must be 2-D to transpose, but its shape is "
                               f"{list(t.shape)}", EXIT_FAILED)
            t = t.t().contiguous()
        if new in out:
            raise CLIError(f"two keys map to {new!r}", EXIT_FAILED)
        out[new] = t
        if key in names:
            out_names[new] = names[key]
    if model_keys is not None and to == "torch":
        unknown = sorted(set(tensors) - model_keys)
        if unknown:
            print(f"paddle-on-torch convert: warning: {len(unknown)} keys are not in the model's state dict "
                  f"(first: {unknown[0]})", file=sys.stderr)
    return out, out_names


# ===================================================================== writing


def _json_extra(extra, output):
    try:
        return json.dumps(extra)
    except TypeError as e:
        raise CLIError(f"{output}: cannot store the non-tensor entries {sorted(extra)} in a safetensors header "
                       f"({e})", EXIT_FAILED) from None


def _ordered(tensors, extra, order):
    """Every key in `order` (the input's order) where it names the same keys, else tensors then the rest."""
    keys = [*tensors, *extra]
    return order if order is not None and _same_keys(order, keys) else keys


def _same_keys(a, b):
    return len(a) == len(b) and set(a) == set(b)


def write(path, tensors, names, extra, order=None):
    import torch

    from ..framework import io as pio

    kind = _kind(path)
    keys = _ordered(tensors, extra, order)
    if kind == "paddle":
        from .._normalize import wrap

        obj = {}
        for k in keys:
            if k in tensors:
                v = wrap(tensors[k])
                if k in names:
                    v.name = names[k]
                obj[k] = v
            else:
                obj[k] = extra[k]
        pio.save(obj, path)  # atomic
        return
    if kind == "safetensors":
        from safetensors.torch import save

        meta = {_META_ORDER: json.dumps(keys)}
        if names:
            meta[_META_NAMES] = json.dumps(names)
        if extra:
            meta[_META_EXTRA] = _json_extra(extra, path)
        data = save({k: t.contiguous() for k, t in tensors.items()}, metadata=meta)
        with pio._AtomicWriter(path) as f:
            f.write(data)
        return
    buf = io.BytesIO()
    torch.save({k: tensors[k].contiguous() if k in tensors else extra[k] for k in keys}, buf)
    with pio._AtomicWriter(path) as f:
        f.write(buf.getvalue())


def _same(a, b):
    import torch

    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    a, b = a.contiguous(), b.contiguous()
    if a.numel() == 0:
        return True
    if a.dtype == torch.bool:
        return torch.equal(a, b)
    return torch.equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8))


def verify(path, tensors, names, extra, order=None):
    got, got_names, got_extra, got_order = read(path)
    problems = []
    if got_order != _ordered(tensors, extra, order):
        problems.append("the keys come back in another order")
    if set(got) != set(tensors):
        problems.append(f"keys differ: missing {sorted(set(tensors) - set(got))}, "
                        f"unexpected {sorted(set(got) - set(tensors))}")
    for k in progress(sorted(set(got) & set(tensors)), "verify"):
        if not _same(got[k], tensors[k]):
            problems.append(f"{k}: {tensors[k].dtype} {list(tensors[k].shape)} was read back as "
                            f"{got[k].dtype} {list(got[k].shape)} with other bits")
    if _kind(path) != "torch" and names and got_names != names:
        problems.append("parameter names differ")
    if extra and got_extra != extra:
        problems.append(f"non-tensor entries differ: {extra} vs {got_extra}")
    return problems


def run(args):
    if os.path.abspath(args.input) == os.path.abspath(args.output):
        raise CLIError("IN and OUT are the same file", 2)
    out_kind = _kind(args.output)
    if os.path.exists(args.output) and not args.force:
        raise CLIError(f"{args.output} exists (use --force to overwrite)", 2)
    if (args.model or args.rules) and not args.to:
        raise CLIError("--model and --rules need --to torch or --to paddle", 2)
    tensors, names, extra, order = read(args.input)
    if args.to:
        tensors, names = remap(tensors, names, args.to, args.model, args.rules)
    if out_kind == "torch":
        names = {}  # a torch state dict has no place for Paddle's parameter names
    write(args.output, tensors, names, extra, order)
    if args.verify:
        problems = verify(args.output, tensors, names, extra, order)
        if problems:
            os.unlink(args.output)
            for p in problems:
                print(f"paddle-on-torch convert: verify: {p}", file=sys.stderr)
            raise CLIError(f"{args.output} did not read back identically; removed it", EXIT_FAILED)
    print(f"wrote {args.output}: {len(tensors)} tensors"
          + (f", {len(extra)} other entries" if extra else "") + (" (verified)" if args.verify else ""))
    return EXIT_OK
