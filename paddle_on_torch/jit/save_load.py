"""paddle.jit.save / paddle.jit.load / TranslatedLayer over torch.export.

`paddle.jit.save(layer, path, input_spec)` writes, next to each other:

  path + ".json"       Paddle 3.3's PIR program (jit/pir_writer.py), what real Paddle's jit.load and
                       predictor run: Paddle's format only.  A model the writer cannot hold is refused
                       (NotImplementedError naming every unmapped op, nothing written), unless
                       `torch_fallback=True`: then no .json, the three files below only.
  path + ".pdiparams"  the weights (parameters and persistable buffers) in Paddle's combined
                       format, byte for byte what Paddle's jit.save / save_combine writes: one
                       binary DenseTensor after another (uint32 version 0, uint64 LoD levels 0,
                       uint32 tensor version 0, int32 TensorDesc size, TensorDesc protobuf, raw C
                       order data), in order of the parameters' Paddle names, sorted.  The file
                       carries no names (as in Paddle); the manifest does.
  path + ".pt2"        paddle_on_torch's program: a torch.export ExportedProgram (torch.export.save),
                       exported non-strict from the Layer's forward in eval mode (Paddle saves the
                       inference program whatever the mode), with the weights lifted to *inputs* (so
                       the archive holds no weights); InputSpec dims that are None/-1 become dynamic
                       (torch.export.Dim.AUTO).
  path + ".pt2.manifest"  its manifest (JSON): format name and version, torch/paddle versions, the
                       input specs (name, shape with -1 for dynamic dims, dtype), the outputs, the
                       Layer's mode at save time, and one entry per tensor of .pdiparams (structured
                       name, Paddle name, shape, dtype, trainable).  Format 2 kept these keys inside
                       path.json, format 1 in path.pot.json: both still load.

`paddle.jit.load(path)` reads those back into a `TranslatedLayer` without the model's Python class:
its parameters are `param_0`, `param_1`, ... in file order (Paddle's own TranslatedLayer names),
real Parameters that the program reads (training through it updates them).

Loading runs no code from the files: the manifest is JSON and the weights are parsed as raw arrays
(no pickle).  The program archive is checked in memory before torch.export.load reads it
(jit/safe_export.py: no pickled payloads or compiled libraries, sample inputs that torch's
weights-only loader accepts, node targets that are torch operators, size expressions that are
arithmetic, no guards code), and its graphs are checked again after loading.
"""
import contextlib
import json
import os
import struct
import tempfile
import warnings

import numpy as np
import torch

from .. import _normalize
from ..nn.layer import layers as _layers
from ..nn.layer.layers import Layer
from .api import StaticFunction, _to_torch_tree
from .._report import unsupported as _unsupported

__all__ = ["save", "load", "TranslatedLayer"]

FORMAT = "paddle_on_torch.jit"
FORMAT_VERSION = 3  # 3: manifest in path.pt2.manifest; 2: in path.json beside the PIR program; 1: path.pot.json
# Paddle 3.3 writes `path.json` (the PIR program) and `path.pdiparams` (only when there are weights): those names
# hold Paddle's formats only.  Ours: the torch program `path.pt2` and its manifest `path.pt2.manifest`.
PROGRAM_SUFFIX, PARAMS_SUFFIX, MANIFEST_SUFFIX = ".pt2", ".pdiparams", ".pt2.manifest"
PADDLE_PROGRAM_SUFFIX = ".json"
V2_MANIFEST_SUFFIX = ".json"  # format version 2 (read)
LEGACY_MANIFEST_SUFFIX = ".pot.json"  # format version 1 (read)
_MAX_MANIFEST_BYTES = 64 << 20

_SAVE_CONFIGS = ("output_spec", "with_hook", "combine_params", "clip_extra", "skip_forward",
                 "input_names_after_prune", "skip_prune_program", "separate_parameters",
                 "torch_fallback")  # the last is paddle_on_torch's (docs/jit.md): Paddle has no such config
_LOAD_CONFIGS = ("model_filename", "params_filename")


# ===================================================================== Paddle's combined params format
def _tensor_record(t):
    from ..framework.io import dense_tensor_bytes

    try:
        return dense_tensor_bytes(t)
    except TypeError:
        raise TypeError(f"paddle.jit.save cannot store a tensor of dtype {t.dtype}") from None


def read_combined_params(data, where):
    """Every DenseTensor of a combined params file (Paddle's or ours), in file order, as numpy arrays."""
    from ..framework.io import read_dense_tensor

    out, pos = [], 0
    try:
        while pos < len(data):
            array, code, pos = read_dense_tensor(data, pos)
            if code == 22:  # bfloat16, stored as uint16
                array = torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
            out.append(array)
    except (struct.error, ValueError) as e:
        raise ValueError(f"paddle.jit.load can not parse the params file {where}: {e}") from None
    return out


# ===================================================================== atomic writes
def _atomic_write(path, write):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-" + os.path.basename(path), dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ===================================================================== save
def _spec_of(value, name):
    from ..static.input import InputSpec

    if isinstance(value, InputSpec):
        return value
    if isinstance(value, _normalize.Tensor):
        return InputSpec(list(value.shape), value.dtype, value.__dict__.get("name") or name, value.stop_gradient)
    if isinstance(value, torch.Tensor):
        return InputSpec(list(value.shape), _normalize.wrap(value).dtype, name, not value.requires_grad)
    return value  # a non-tensor constant argument


def _param_names(call):
    """The names of the positional parameters of the traced function (Paddle names unnamed inputs so)."""
    import inspect

    try:
        params = inspect.signature(call).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _last_call_specs(sf, call):
    """InputSpecs from the last to_static call, its keyword arguments put in the signature's order (Paddle's
    `last_call_input_spec`, names `_jst.<i>.<parameter>.0`); their dims are exported dynamic where the code
    allows, since Paddle's program from such a call takes other shapes too."""
    import inspect

    args, kwargs = sf._last_inputs
    values = list(args)
    if kwargs:
        try:
            bound = inspect.signature(call).bind_partial(*args, **kwargs)
        except (TypeError, ValueError):
            raise TypeError(f"paddle.jit.save: the last call's keyword arguments {sorted(kwargs)} do not fit the "
                            "signature of the function; give `input_spec`") from None
        values = []
        for name, v in bound.arguments.items():
            kind = inspect.signature(call).parameters[name].kind
            if kind == inspect.Parameter.VAR_POSITIONAL:
                values.extend(v)
            elif kind == inspect.Parameter.VAR_KEYWORD:
                raise _unsupported("paddle.jit.save", " for a **kwargs argument in the last call; give `input_spec`")
            else:
                values.append(v)
    names = _param_names(call)
    specs = []
    for i, v in enumerate(values):
        spec = _spec_of(v, f"_jst.{i}.{names[i] if i < len(names) else 'args'}.0")
        if hasattr(spec, "shape"):
            spec._pot_from_call = True
        specs.append(spec)
    return specs


def _example(spec):
    """A concrete example tensor for an InputSpec (dynamic dims get size 2)."""
    from .._core.dtype import to_torch_dtype

    shape = [2 if d == -1 else d for d in spec.shape]
    dtype = to_torch_dtype(spec.dtype)
    if dtype.is_floating_point or dtype.is_complex:
        g = torch.Generator().manual_seed(0)
        return torch.rand(shape, generator=g).to(dtype)
    return torch.zeros(shape, dtype=dtype)


def _dynamic(spec):
    from torch.export import Dim

    if getattr(spec, "_pot_from_call", False):  # every dim the code leaves free
        dyn = {i: Dim.AUTO for i, d in enumerate(spec.shape) if d >= 2}
    else:
        dyn = {i: Dim.AUTO for i, d in enumerate(spec.shape) if d == -1}
    return dyn or None


def _resolve_inputs(layer, fn, input_spec, call=None):
    from ..static.input import InputSpec

    names = _param_names(call) if call is not None else []
    if input_spec is None:
        sf = fn if isinstance(fn, StaticFunction) else None
        if sf is not None and sf._input_spec is not None:
            input_spec = sf._input_spec
        elif sf is not None and sf._last_inputs is not None:
            input_spec = _last_call_specs(sf, call if call is not None else sf._dygraph_function)
        else:
            raise ValueError("paddle.jit.save needs `input_spec`: the layer's forward was neither decorated "
                             "with to_static(input_spec=...) nor called through to_static before saving.")
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"The input input_spec should be 'list', but received input_spec's type is "
                        f"{type(input_spec)}.")
    specs = []
    for i, s in enumerate(input_spec):
        default_name = names[i] if i < len(names) else f"x{i}"
        s = _spec_of(s, default_name)
        if isinstance(s, (list, tuple, dict)):
            raise _unsupported("paddle.jit.save", " with a nested input_spec structure; pass one InputSpec per "
                                                  "positional argument")
        if isinstance(s, InputSpec):
            from_call = getattr(s, "_pot_from_call", False)
            s = InputSpec([-1 if d is None else d for d in s.shape], s.dtype, s.name or default_name,
                          s.stop_gradient)
            s._pot_from_call = from_call
        specs.append(s)
    return specs


def _split_specs(specs, api):
    """(the InputSpecs, the constant arguments after them): a Tensor argument after a constant is refused."""
    from ..static.input import InputSpec

    n = next((i for i, s in enumerate(specs) if not isinstance(s, InputSpec)), len(specs))
    if any(isinstance(s, InputSpec) for s in specs[n:]):
        raise _unsupported(api, " with a Tensor argument after a non-Tensor one (constants must come last)")
    return specs[:n], specs[n:]


class _Exportable(torch.nn.Module):
    """The Layer's forward as a torch function of (weights, inputs): weights are swapped into the
    Parameters' `_t` for the trace, so they become graph inputs instead of constants."""

    def __init__(self, fn, tensors, consts, flat=False):
        super().__init__()
        self._fn, self._tensors, self._consts, self._flat = fn, tensors, consts, flat

    def forward(self, weights, inputs):
        saved = [t._t for t in self._tensors]
        try:
            for t, w in zip(self._tensors, weights):
                t._t = w
            _layers.note_change()  # buffers too (a parameter's `_t` counts itself): see jit/_guards.py
            args = [_normalize.wrap(v) if isinstance(v, torch.Tensor) else v for v in inputs]
            args += list(self._consts)
            out = self._fn(*args)
        finally:
            for t, s in zip(self._tensors, saved):
                t._t = s
            _layers.note_change()
        if self._flat:  # Paddle's program returns its outputs flat, dict values by sorted key; only Tensors
            return [v._t if isinstance(v, _normalize.Tensor) else v for v in _tensor_leaves(out)]
        return _to_torch_tree(out)


def _tensor_leaves(obj):
    """The Tensors of a nested result in Paddle's flatten order (dict values by sorted key)."""
    from .dy2static import UndefinedVar

    if isinstance(obj, (_normalize.Tensor, torch.Tensor)):
        return [obj]
    if isinstance(obj, UndefinedVar):
        obj._fail()  # returning a variable a converted branch left unassigned: Python's UnboundLocalError
    if isinstance(obj, dict):
        obj = [obj[k] for k in sorted(obj)]
    if isinstance(obj, (list, tuple)):
        return [v for x in obj for v in _tensor_leaves(x)]
    return []


def _dtype_name(t):
    from .._core import dtype as _dtypes

    return _dtypes.dtype_name(t.dtype)  # 'float32', 'int64', ...


def _target(layer, api):
    """(its to_static function or None, the eager function to trace, the Layer owning the weights or None)."""
    if isinstance(layer, Layer):
        fn_attr = layer.__dict__.get("forward")
        fn = fn_attr if isinstance(fn_attr, StaticFunction) else None
        if fn is None and isinstance(getattr(type(layer), "forward", None), StaticFunction):
            fn = layer.forward
        return fn, (fn._dygraph_function if fn is not None else layer.forward), layer
    if isinstance(layer, StaticFunction):
        return layer, layer._dygraph_function, layer._layer
    if callable(layer):
        return None, layer, None
    raise TypeError(f"The input of {api} should be 'Layer' or 'Function', but received input type is {type(layer)}.")


def save(layer, path, input_spec=None, **configs):
    """Write Paddle's `path`.json (its PIR program) and `path`.pdiparams, and paddle_on_torch's `path`.pt2 (the
    torch.export program) with `path`.pt2.manifest.  A model whose program Paddle's format cannot hold is refused
    (NotImplementedError naming every torch op without a Paddle form) and nothing is written, unless
    `torch_fallback=True` (paddle_on_torch's own config): then only paddle_on_torch's files and the params."""
    for key in configs:
        if key not in _SAVE_CONFIGS:
            raise ValueError(f"The additional config ({key}) of `paddle.jit.save` is not supported.")
    if configs.get("output_spec") is not None or configs.get("input_names_after_prune") is not None:
        from .._report import unsupported

        raise unsupported("paddle.jit.save", " with output_spec / input_names_after_prune (program pruning)")
    if configs.get("skip_forward"):
        from .._report import unsupported

        raise unsupported("paddle.jit.save", " with skip_forward=True")
    if not isinstance(path, str) or not path or os.path.basename(path) == "":
        raise ValueError("The input path MUST be format of dirname/file_prefix [dirname\\file_prefix in Windows "
                         f"system], but received file_prefix is empty string.")
    fn, call, owner = _target(layer, "paddle.jit.save")
    tensor_specs, consts = _split_specs(_resolve_inputs(owner, fn, input_spec, call), "paddle.jit.save")

    # the weights: state_dict tensors, each once (tied weights keep their first name), by Paddle name
    entries, seen = [], {}
    if owner is not None:
        for key, t in owner.state_dict().items():
            if id(t._t) in seen:
                continue
            seen[id(t._t)] = key
            pname = t.__dict__.get("name") or key
            entries.append((pname, key, t))
    names = [e[0] for e in entries]
    if len(set(names)) != len(names):  # Paddle names must identify the tensors; fall back to keys
        entries = [(k, k, t) for _, k, t in entries]
    entries.sort(key=lambda e: e[0])
    tensors = [e[2] for e in entries]

    examples = [_example(s) for s in tensor_specs]
    dyn = [_dynamic(s) for s in tensor_specs]
    from .dy2static import convert_call

    # Paddle's jit.save converts the source (its AST mode) whatever full_graph says: Python control flow
    # on Tensors becomes torch.cond / torch.while_loop in the exported program
    module = _Exportable(convert_call(call), tensors, consts, flat=True)
    weights = [t._t.detach() for t in tensors]
    from .dy2static import patched_forwards
    from . import _infer_ops

    training = bool(getattr(owner, "training", False))
    try:
        with patched_forwards(owner) if owner is not None else contextlib.nullcontext(), _inference_mode(owner), \
                _infer_ops.save_trace():
            ep = torch.export.export(module, (weights, examples),
                                     dynamic_shapes=([None] * len(weights), dyn), strict=False)
    except Exception as e:  # noqa: BLE001 - export failures name the construct; keep torch's message
        raise RuntimeError(f"paddle.jit.save could not export {getattr(call, '__qualname__', call)} with "
                           f"torch.export: {type(e).__name__}: {e}") from e
    _tidy_graph(ep.graph_module)
    from .pir_writer import static_dim

    placeholders = [n for n in ep.graph.nodes if n.op == "placeholder"]
    user = placeholders[len(placeholders) - len(tensor_specs):] if tensor_specs else []
    inputs = []
    for s, node in zip(tensor_specs, user):
        program_shape = [static_dim(d) for d in node.meta["val"].shape]
        fixed = [i for i, d in enumerate(s.shape) if d == -1 and program_shape[i] != -1]
        if fixed and not getattr(s, "_pot_from_call", False):
            warnings.warn(f"paddle.jit.save: input '{s.name}' dims {fixed} were declared dynamic (None/-1) but "
                          f"the model's code fixes them; the saved program takes shape {program_shape} only.")
        inputs.append({"name": s.name, "shape": list(s.shape), "dtype": _spec_dtype_name(s),
                       "program_shape": program_shape, "stop_gradient": bool(s.stop_gradient)})
    out_node = next(n for n in ep.graph.nodes if n.op == "output")
    outs = [getattr(v, "meta", {}).get("val") for v in out_node.args[0]]
    manifest = {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "torch_version": torch.__version__,
        "paddle_version": _paddle_version(),
        "program": os.path.basename(path) + PROGRAM_SUFFIX,
        "params": os.path.basename(path) + PARAMS_SUFFIX if tensors else None,
        "training": training,  # the Layer's mode at save time; the program is the inference one either way
        "inputs": inputs,
        "constants": [repr(c) for c in consts],
        "outputs": [{"name": f"fetch_name_{i}", "dtype": _dtype_name(v) if v is not None else None,
                     "shape": [static_dim(d) for d in v.shape] if v is not None else None}
                    for i, v in enumerate(outs)],
        "weights": [{"name": key, "paddle_name": pname, "shape": list(t._t.shape), "dtype": _dtype_name(t._t),
                     "trainable": not t.stop_gradient} for pname, key, t in entries],
    }
    # path.json: Paddle's PIR program for real Paddle (jit/pir_writer.py), written first: a model it cannot hold
    # is refused before any file is touched, unless the user asked for the torch program alone
    from .pir_writer import for_jit_save

    program = for_jit_save(ep, [(pname, t._t, not t.stop_gradient) for pname, _, t in entries], inputs,
                           fallback=bool(configs.get("torch_fallback")), training=training)
    manifest["paddle_program"] = os.path.basename(path) + PADDLE_PROGRAM_SUFFIX if program else None
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    _atomic_write(path + PROGRAM_SUFFIX, lambda f: torch.export.save(ep, f))
    if tensors:  # as Paddle: no params file for a program without weights
        _atomic_write(path + PARAMS_SUFFIX, lambda f: [f.write(_tensor_record(t._t)) for t in tensors])
    if program is not None:
        from .pir_writer import dumps

        _atomic_write(path + PADDLE_PROGRAM_SUFFIX, lambda f: f.write(dumps(program)))
    elif os.path.isfile(path + PADDLE_PROGRAM_SUFFIX):  # an earlier save's program would describe another model
        os.remove(path + PADDLE_PROGRAM_SUFFIX)
    _atomic_write(path + MANIFEST_SUFFIX, lambda f: f.write(json.dumps(manifest, indent=1).encode()))


@contextlib.contextmanager
def _inference_mode(owner):
    """The Layer tree in eval mode for the trace, its flags restored after: Paddle's jit.save writes the inference
    program whatever the mode (batch norm on its running statistics, dropout as at test time, is_test on every
    op), so a Layer saved in the middle of training gives the same program as after `eval()`."""
    if owner is None or not isinstance(owner, Layer):
        yield
        return
    layers = [owner] + list(owner.sublayers())
    flags = [layer.training for layer in layers]
    for layer in layers:
        if layer.training:
            layer.training = False
    try:
        yield
    finally:
        for layer, flag in zip(layers, flags):
            if layer.training != flag:
                layer.training = flag


def _tidy_graph(gm, subgraph=False):
    """Drop dead code (a converted `while` evaluates its test once before the loop to pick Python or
    while_loop) and the operands a cond / while_loop subgraph never reads (every weight a branch might
    reach is handed in while tracing); in subgraphs, scalar tensor constants (a Python number an op made a
    tensor of) become `full` calls, since torch.export lifts constants from the top graph only."""
    from torch._higher_order_ops.cond import cond_op
    from torch._higher_order_ops.while_loop import while_loop_op

    for _, sub in list(gm.named_children()):  # nested control flow first: it frees its parents' operands
        if isinstance(sub, torch.fx.GraphModule):
            _tidy_graph(sub, subgraph=True)
    if subgraph:
        _inline_scalar_constants(gm)
    for node in list(gm.graph.nodes):
        if node.op != "call_function" or node.target not in (cond_op, while_loop_op):
            continue
        if node.target is cond_op:
            pred, tg, fg, ops = node.args
            subs = [getattr(gm, tg.target), getattr(gm, fg.target)]
            keep = [i for i in range(len(ops)) if any(_reads(sub, i) for sub in subs)]
            if len(keep) < len(ops):
                for sub in subs:
                    _drop_placeholders(sub, keep)
                node.args = (pred, tg, fg, [ops[i] for i in keep])
        else:
            cg, bg, carried, extra = node.args[:4]
            n = len(carried)
            subs = [getattr(gm, cg.target), getattr(gm, bg.target)]
            keep_extra = [i for i in range(len(extra)) if any(_reads(sub, n + i) for sub in subs)]
            if len(keep_extra) < len(extra):
                for sub in subs:
                    _drop_placeholders(sub, list(range(n)) + [n + i for i in keep_extra])
                node.args = (cg, bg, carried, [extra[i] for i in keep_extra]) + tuple(node.args[4:])
    gm.graph.eliminate_dead_code()
    gm.recompile()


def _inline_scalar_constants(gm):
    from torch._subclasses.fake_tensor import FakeTensor

    for node in list(gm.graph.nodes):
        if node.op != "get_attr":
            continue
        value = getattr(gm, node.target, None)
        if not isinstance(value, torch.Tensor):
            continue
        if value.numel() != 1 or isinstance(value, FakeTensor):
            raise RuntimeError(f"paddle.jit.save: a branch or loop body of the converted control flow holds a "
                               f"constant tensor of shape {list(value.shape)}; make it an input or a parameter")
        with gm.graph.inserting_before(node):
            full = gm.graph.call_function(torch.ops.aten.full.default, (list(value.shape), value.item()),
                                          {"dtype": value.dtype, "device": value.device})
        full.meta = dict(node.meta)
        for user in list(node.users):  # lift_fresh_copy(constant) is the constant itself here
            if user.target is torch.ops.aten.lift_fresh_copy.default:
                user.replace_all_uses_with(full)
                gm.graph.erase_node(user)
        node.replace_all_uses_with(full)
        gm.graph.erase_node(node)
        delattr(gm, node.target)
    gm.recompile()


def _reads(sub, i):
    ph = [n for n in sub.graph.nodes if n.op == "placeholder"]
    return i < len(ph) and bool(ph[i].users)


def _drop_placeholders(sub, keep):
    ph = [n for n in sub.graph.nodes if n.op == "placeholder"]
    for i, n in enumerate(ph):
        if i not in keep:
            sub.graph.erase_node(n)
    sub.recompile()


def _spec_dtype_name(spec):
    from .._core import dtype as _dtypes
    from .._core.dtype import to_torch_dtype

    return _dtypes.dtype_name(to_torch_dtype(spec.dtype))


def _paddle_version():
    try:
        from ..version import full_version

        return full_version
    except ImportError:
        return "3.3.1"


# ===================================================================== load
def manifest_path(prefix):
    """The manifest of our artifact saved at `prefix` (`prefix.pt2.manifest`; `prefix.json` holding our keys
    (version 2) or `prefix.pot.json` (version 1) from older saves), or None: a `.json` that is not ours is a real
    Paddle program (paddle_on_torch.static.model_format)."""
    for suffix in (MANIFEST_SUFFIX, V2_MANIFEST_SUFFIX, LEGACY_MANIFEST_SUFFIX):
        p = prefix + suffix
        if os.path.isfile(p):
            with open(p, "rb") as f:
                head = f.read(512)
            if b'"format": "' + FORMAT.encode() + b'"' in head:
                return p
    return None


def find_artifact(path):
    """The prefix of our artifact named by `path`: a prefix, one of its files, or a directory holding exactly
    one artifact; None when `path` names none (it may be a real Paddle model)."""
    if os.path.isdir(path):
        found = sorted({f[:-len(sfx)] for f in os.listdir(path)
                        for sfx in (MANIFEST_SUFFIX, V2_MANIFEST_SUFFIX, LEGACY_MANIFEST_SUFFIX) if f.endswith(sfx)})
        found = [p for p in (os.path.join(path, f) for f in found) if manifest_path(p)]
        if len(found) > 1:
            raise ValueError(f"The model directory {path} holds {len(found)} paddle.jit.save artifacts "
                             f"({[os.path.basename(f) for f in found]}); give the path prefix instead")
        return found[0] if found else None
    for sfx in (LEGACY_MANIFEST_SUFFIX, MANIFEST_SUFFIX, V2_MANIFEST_SUFFIX, PROGRAM_SUFFIX, PARAMS_SUFFIX):
        if path.endswith(sfx) and manifest_path(path[:-len(sfx)]):
            return path[:-len(sfx)]
    return path if manifest_path(path) else None


def _read_manifest(path):
    mpath = manifest_path(path) or path + MANIFEST_SUFFIX
    if os.path.getsize(mpath) > _MAX_MANIFEST_BYTES:
        raise ValueError(f"paddle.jit.load: {mpath} is too large to be a manifest")
    try:
        with open(mpath, "rb") as f:
            m = json.loads(f.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"paddle.jit.load: {mpath} is not a valid manifest ({e})") from None
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        raise ValueError(f"paddle.jit.load: {mpath} is not a paddle_on_torch jit.save manifest")
    if m.get("format_version") not in (1, 2, FORMAT_VERSION):
        raise ValueError(f"paddle.jit.load: {mpath} has format version {m.get('format_version')}, this "
                         f"paddle_on_torch reads versions 1 to {FORMAT_VERSION}")
    for key, typ in (("inputs", list), ("weights", list)):
        if not isinstance(m.get(key), typ):
            raise ValueError(f"paddle.jit.load: {mpath} has no valid '{key}' entry")
    for w in m["weights"]:
        if not (isinstance(w, dict) and isinstance(w.get("shape"), list) and isinstance(w.get("dtype"), str)):
            raise ValueError(f"paddle.jit.load: {mpath} has a malformed weight entry")
    for i in m["inputs"]:
        if not (isinstance(i, dict) and isinstance(i.get("shape"), list) and isinstance(i.get("dtype"), str)):
            raise ValueError(f"paddle.jit.load: {mpath} has a malformed input entry")
        i.setdefault("program_shape", i["shape"])
    if m["format_version"] == 1:  # outputs were a nested structure
        m["outputs"] = [{"name": f"fetch_name_{k}"} for k in range(len(_v1_leaves(m.get("outputs", {}))))]
        m["_v1_structure"] = True
    return m


def _v1_leaves(structure):
    if not isinstance(structure, dict):
        return []
    if "tensor" in structure:
        return [structure]
    for kind in ("tuple", "list"):
        if kind in structure:
            return [x for s in structure[kind] for x in _v1_leaves(s)]
    if "dict" in structure:
        return [x for s in structure["dict"].values() for x in _v1_leaves(s)]
    return []


def _check_format(path, api):
    """Our artifact at `path`? (Real Paddle programs are found before this, by model_format.find_model_files.)"""
    if manifest_path(path):
        return
    if os.path.isdir(path):
        raise ValueError(f"The ``path`` ({path}) to load model not exists: it is a directory; give the path "
                         "prefix that paddle.jit.save was given.")
    raise ValueError(f"The ``path`` ({path}) to load model not exists. Please make sure that {path}"
                     f"{PADDLE_PROGRAM_SUFFIX} and {path}{PARAMS_SUFFIX} exist (written by paddle.jit.save).")


class _Artifact:
    """A loaded jit.save artifact: manifest, weight arrays, and the program's callable module."""

    def __init__(self, path, model_file=None, params_file=None):
        self.manifest = m = _read_manifest(path)
        model_file = model_file or path + PROGRAM_SUFFIX
        params_file = params_file or path + PARAMS_SUFFIX
        # Paddle's program written beside ours (format 3; a format 2 `path.json` is our manifest): the loaded Layer
        # runs it on inputs of shapes the torch program was not traced for (TranslatedLayer._run_paddle_program)
        paddle_json = m.get("paddle_program") and os.path.join(os.path.dirname(os.path.abspath(path)),
                                                                m["paddle_program"])
        self.paddle_files = (paddle_json, params_file if m["weights"] else None) \
            if m["format_version"] == FORMAT_VERSION and paddle_json and os.path.isfile(paddle_json) else None
        self.paddle_model = None  # read on first use
        if m["weights"] or os.path.exists(params_file):
            with open(params_file, "rb") as f:
                arrays = read_combined_params(f.read(), params_file)
        else:
            arrays = []  # Paddle writes no params file for a program without weights
        if len(arrays) != len(m["weights"]):
            raise ValueError(f"paddle.jit.load: {params_file} holds {len(arrays)} tensors, the manifest lists "
                             f"{len(m['weights'])}")
        from .._core import dtype as _dtypes

        self.weights = []
        for a, w in zip(arrays, m["weights"]):
            t = a if isinstance(a, torch.Tensor) else torch.from_numpy(a)
            if list(t.shape) != w["shape"] or _dtypes.dtype_name(t.dtype) != w["dtype"]:
                raise ValueError(f"paddle.jit.load: {params_file}: tensor '{w.get('name')}' is {list(t.shape)} "
                                 f"{_dtypes.dtype_name(t.dtype)}, the manifest says {w['shape']} {w['dtype']}")
            self.weights.append(t)
        from . import _infer_ops, safe_export  # noqa: F401 - _infer_ops: the program's own operators
        from ..framework.safe_pickle import UnsafePickleError

        try:
            ep = safe_export.load(model_file)
        except (FileNotFoundError, UnsafePickleError):
            raise
        except Exception as e:  # noqa: BLE001 - a corrupt or foreign file is the file's fault
            raise ValueError(f"paddle.jit.load can not read the program {model_file}: {type(e).__name__}: {e}") \
                from None
        self.program = ep
        self.module = ep.module()
        self.output_deps = _output_dependencies(ep)


def _output_dependencies(ep):
    """For each program output, the user inputs (weights first, then the inputs) it is computed from: an
    output that depends on no Tensor requiring grad comes back with stop_gradient=True, as in Paddle (torch's
    control-flow operators mark all their outputs as requiring grad when any operand does)."""
    from torch.export.graph_signature import InputKind

    user = [s.arg.name for s in ep.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    deps = _graph_deps(ep.graph_module, {n: {i} for i, n in enumerate(user)})
    return [sorted(d) for d in deps]


def _graph_deps(gm, seed):
    """Per output of `gm`: the set of seed labels (by placeholder name) it depends on."""
    from torch._higher_order_ops.cond import cond_op
    from torch._higher_order_ops.while_loop import while_loop_op

    deps = {}
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]

    def of(a):
        out = set()
        for n in _nodes_in(a):
            d = deps.get(n, set())
            out |= set().union(*d) if isinstance(d, list) else d
        return out

    for node in gm.graph.nodes:
        if node.op == "placeholder":
            # top level: user inputs by position (lifted constants depend on nothing); subgraphs: by position
            deps[node] = seed.get(node.name, set()) if seed is not None else {placeholders.index(node)}
        elif node.op == "call_function" and node.target is cond_op:
            _, tg, fg, ops = node.args
            sub = [_graph_deps(getattr(gm, g.target), None) for g in (tg, fg)]
            deps[node] = [set().union(*(of(ops[i]) for i in sub[0][k] | sub[1][k])) for k in range(len(sub[0]))]
        elif node.op == "call_function" and node.target is while_loop_op:
            _, bg, carried, extra = node.args[:4]
            body = _graph_deps(getattr(gm, bg.target), None)
            n = len(carried)
            cur = [of(c) for c in carried]
            changed = True
            while changed:
                new = [set(cur[k]).union(*((cur[i] if i < n else of(extra[i - n])) for i in body[k]))
                       for k in range(n)]
                changed, cur = new != cur, new
            deps[node] = cur
        elif node.op == "call_function" and isinstance(deps.get(node.args[0] if node.args else None), list):
            deps[node] = deps[node.args[0]][node.args[1]]  # getitem of a control-flow result
        elif node.op == "output":
            return [of(a) for a in _as_list(node.args[0])]
        else:
            deps[node] = of(list(node.args) + list(node.kwargs.values()))
    return []


def _nodes_in(a):
    found = []
    torch.fx.node.map_arg(a, lambda n: found.append(n) or n)
    return found


def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _fits(shape, want):
    """Whether `shape` is one the program shape `want` declares (-1: any size)."""
    return len(shape) == len(want) and all(w == -1 or d == w for d, w in zip(shape, want))


def _first_line(e):
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


class TranslatedLayer(Layer):
    """A Layer loaded by paddle.jit.load: runs the saved program on its own Parameters.

    `program` is the torch.export ExportedProgram: the inference program jit.save traced (in eval mode,
    whatever the Layer's mode was).  `train()` / `eval()` set the flag only: real Paddle's TranslatedLayer runs
    the saved program's is_test ops in both modes, so it computes the same in each (docs/jit.md).  Inputs of a
    shape the torch program was not traced for run Paddle's own program (`_run_paddle_program`).
    """

    def __init__(self, artifact):
        super().__init__()
        from ..nn.layer.layers import _create_parameter  # noqa: F401 - Parameter machinery is loaded

        self.__dict__["_artifact"] = artifact
        self.__dict__["_module"] = artifact.module
        for i, (t, w) in enumerate(zip(artifact.weights, artifact.manifest["weights"])):
            p = self.create_parameter(list(t.shape), dtype=_normalize.wrap(t).dtype)
            with torch.no_grad():
                p._t.copy_(t)
            p.stop_gradient = not w.get("trainable", True)
            p.name = f"{w.get('paddle_name', w.get('name'))}_0"
            p.__dict__["_grad_from_program"] = True  # its gradients report stop_gradient=True, as Paddle's
            self.add_parameter(f"param_{i}", p)
        self.eval()

    @property
    def program(self):
        return self.__dict__["_artifact"].program

    def _input_spec(self):
        from ..static.input import InputSpec

        return [InputSpec(i["shape"], i["dtype"], i["name"]) for i in self.__dict__["_artifact"].manifest["inputs"]]

    def _output_spec(self):
        return self.__dict__["_artifact"].manifest["outputs"]

    def forward(self, *inputs):
        """The program's outputs as Paddle returns them: one Tensor, or a flat list (dicts by sorted key)."""
        manifest = self.__dict__["_artifact"].manifest
        specs = manifest["inputs"]
        if len(inputs) < len(specs):  # Paddle's error types: ValueError for too few, IndexError for too many
            raise ValueError(f"The saved model takes {len(specs)} inputs ({[s['name'] for s in specs]}), but "
                             f"received {len(inputs)}.")
        if len(inputs) > len(specs):
            raise IndexError(f"The saved model takes {len(specs)} inputs ({[s['name'] for s in specs]}), but "
                             f"received {len(inputs)}.")
        args = [_normalize.to_torch(v) for v in inputs]
        from .._core import dtype as _dtypes

        traced_for = True  # the torch program takes these shapes (its static dims, its rank)
        for a, s in zip(args, specs):
            if _dtypes.dtype_name(a.dtype) != s["dtype"]:
                raise ValueError(f"The saved model's input '{s['name']}' has dtype {s['dtype']}, but received "
                                 f"{_dtypes.dtype_name(a.dtype)}.")
            want = s["program_shape"]
            if not _fits(a.shape, want):
                traced_for = False
                shape_error = (f"The saved model's input '{s['name']}' has shape {want} (-1: any size), but "
                               f"received {list(a.shape)}.")
        weights = [p._t for p in self.__dict__["_parameters"].values()]
        if traced_for:
            out = self.__dict__["_module"](weights, args)
        else:  # Paddle runs its program on any shape its ops take: so does this Layer, on Paddle's program
            out = self._run_paddle_program(weights, args, shape_error)
        if manifest.get("_v1_structure"):
            from ..inference import _flatten_values

            out = _flatten_values(out)
        outs = [_normalize.wrap(t) for t in out]
        self._set_stop_gradient(outs, weights + args)
        return outs[0] if len(outs) == 1 else outs

    def _run_paddle_program(self, weights, args, shape_error):
        """Paddle's own program (path.json, read by static/model_format: each op computes as Paddle's does, on
        the shapes it is given) on this Layer's Parameters, for inputs the torch program was not traced for
        (another rank, another size where the InputSpec fixed one).  An op that cannot take the shapes raises
        Paddle's ValueError (InvalidArgument).  Without Paddle's program (a torch_fallback save), the shapes
        are refused."""
        artifact = self.__dict__["_artifact"]
        if artifact.paddle_files is None:
            raise ValueError(shape_error)
        if artifact.paddle_model is None:
            from ..static import model_format

            artifact.paddle_model = model_format.load(artifact.paddle_files)
        model = artifact.paddle_model
        names = [w.get("paddle_name", w.get("name")) for w in artifact.manifest["weights"]]
        tensors = {model.param_attr[n]: t for n, t in zip(names, weights) if n in model.param_attr}
        try:
            return list(torch.func.functional_call(model.graph_module, tensors, tuple(args)))
        except (RuntimeError, IndexError) as e:
            raise ValueError(f"(InvalidArgument) {shape_error} The saved program cannot run on it: "
                             f"{_first_line(e)}") from None

    def _set_stop_gradient(self, outs, leaves):
        """Paddle's flags: an output is stop_gradient=False when the program computes it from a trainable weight
        or from an input whose InputSpec has stop_gradient=False (integer outputs included); torch's
        control-flow operators would mark every output of theirs as requiring grad."""
        if not torch.is_grad_enabled():
            return
        specs = self.__dict__["_artifact"].manifest["inputs"]
        params = list(self.__dict__["_parameters"].values())
        n = len(params)
        for o, deps in zip(outs, self.__dict__["_artifact"].output_deps):
            claims = any(not params[i].stop_gradient if i < n else not specs[i - n].get("stop_gradient", False)
                         for i in deps)
            if claims:
                o.stop_gradient = False
            elif o._t.requires_grad and not any(leaves[i].requires_grad for i in deps):
                o.stop_gradient = True


def load(path, **configs):
    """Read what paddle.jit.save wrote (`path` is the prefix it was given) into a TranslatedLayer."""
    for key in configs:
        if key not in _LOAD_CONFIGS:
            raise ValueError(f"The additional config ({key}) of `paddle.jit.load` is not supported.")
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"paddle.jit.load expects a path prefix (str), but received {type(path).__name__}")
    path = os.fspath(path)
    model_file, params_file = configs.get("model_filename"), configs.get("params_filename")
    in_dir = os.path.isdir(path)
    mf = (os.path.join(path, model_file) if in_dir else model_file) if model_file is not None else None
    pf = (os.path.join(path, params_file) if in_dir else params_file) if params_file is not None else None
    ours = find_artifact(mf if mf is not None else path)
    if ours is None:
        from ..static import model_format

        real = model_format.find_model_files(mf if mf is not None else path, pf)
        if real is not None:
            return ProgramLayer.load(real)
        _check_format(path, "paddle.jit.load")
    return TranslatedLayer(_Artifact(ours, None, pf))


# ===================================================================== real Paddle inference programs
class ProgramLayer(TranslatedLayer):
    """paddle.jit.load of a real Paddle inference model: its program lowered op by op to a torch.fx
    GraphModule (paddle_on_torch.static.model_format) run on this Layer's Parameters.

    Parameters are `param_0`, `param_1`, ... in the order of the programs' parameter names, sorted
    (Paddle's TranslatedLayer order); a single fetch comes back as a Tensor, several as a list."""

    def __init__(self, model):
        Layer.__init__(self)
        self.__dict__["_model"] = model
        attrs = []
        names = sorted(n for n in model.params if n not in model.program.transient)
        for i, n in enumerate(names):
            t = model.params[n]
            if t.is_floating_point() or t.is_complex():
                p = self.create_parameter(list(t.shape), dtype=_normalize.wrap(t).dtype)
                with torch.no_grad():
                    p._t.copy_(t)
                p.name = n
                p.stop_gradient = n in model.program.frozen
                p.__dict__["_grad_from_program"] = True  # its gradients report stop_gradient=True, as Paddle's
                self.add_parameter(f"param_{i}", p)
            else:  # integer tables (index buffers saved as parameters) cannot require gradients
                self.register_buffer(f"param_{i}", _normalize.wrap(t.clone()))
            attrs.append((f"param_{i}", model.param_attr[n]))
        self.__dict__["_attrs"] = attrs
        self.eval()

    @classmethod
    def load(cls, files):
        from ..static import model_format

        return cls(model_format.load(files))

    @property
    def program(self):
        """The loaded model (paddle_on_torch.static.model_format.InferenceModel): graph_module, names, specs."""
        return self.__dict__["_model"]

    def _input_spec(self):
        from ..static.input import InputSpec

        return [InputSpec(s.shape, s.dtype, s.name) for s in self.__dict__["_model"].feed_specs]

    def _output_spec(self):
        return list(self.__dict__["_model"].fetch_names)

    def forward(self, *inputs):
        model = self.__dict__["_model"]
        specs = model.feed_specs
        if len(inputs) != len(specs):
            raise ValueError(f"The loaded model takes {len(specs)} inputs ({[s.name for s in specs]}), but "
                             f"received {len(inputs)}.")
        args = [_normalize.to_torch(v) for v in inputs]
        tables = {**self.__dict__["_parameters"], **self.__dict__["_buffers"]}
        weights = {attr: tables[name]._t for name, attr in self.__dict__["_attrs"]}
        try:  # as Paddle: any shape its ops take (the feed shapes are not checked), else their ValueError
            out = torch.func.functional_call(model.graph_module, weights, tuple(args))
        except (RuntimeError, IndexError) as e:
            if all(_fits(a.shape, s.shape) for a, s in zip(args, specs)):
                raise
            raise ValueError(f"(InvalidArgument) The loaded model's inputs have shapes {[s.shape for s in specs]} "
                             f"(-1: any size), the program cannot run on {[list(a.shape) for a in args]}: "
                             f"{_first_line(e)}") from None
        outs = [_normalize.wrap(o) for o in out]
        return outs[0] if len(outs) == 1 else outs


