"""paddle.jit.save / paddle.jit.load / TranslatedLayer over torch.export.

`paddle.jit.save(layer, path, input_spec)` writes three files next to each other:

  path + ".pt2"        the program: a torch.export ExportedProgram (torch.export.save), exported
                       non-strict from the Layer's forward in its current train/eval mode, with
                       the weights lifted to *inputs* (so the archive holds no weights);
                       InputSpec dims that are None/-1 become dynamic (torch.export.Dim.AUTO).
  path + ".pdiparams"  the weights (parameters and persistable buffers) in Paddle's combined
                       format, byte for byte what Paddle's jit.save / save_combine writes: one
                       binary DenseTensor after another (uint32 version 0, uint64 LoD levels 0,
                       uint32 tensor version 0, int32 TensorDesc size, TensorDesc protobuf, raw C
                       order data), in order of the parameters' Paddle names, sorted.  The file
                       carries no names (as in Paddle); the manifest does.
  path + ".pot.json"   the manifest: format name and version, torch/paddle versions, the
                       input specs (name, shape with -1 for dynamic dims, dtype), the output
                       structure, and one entry per tensor of .pdiparams (structured name,
                       Paddle name, shape, dtype, trainable).

`paddle.jit.load(path)` reads those back into a `TranslatedLayer` without the model's Python class:
its parameters are `param_0`, `param_1`, ... in file order (Paddle's own TranslatedLayer names),
real Parameters that the program reads (training through it updates them).

Loading runs no code from the files: the manifest is JSON and the weights are parsed as raw arrays
(no pickle).  The program archive is checked in memory before torch.export.load reads it
(jit/safe_export.py: no pickled payloads or compiled libraries, sample inputs that torch's
weights-only loader accepts, node targets that are torch operators, size expressions that are
arithmetic, no guards code), and its graphs are checked again after loading.
"""
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
from .api import StaticFunction, _to_paddle_tree, _to_torch_tree

__all__ = ["save", "load", "TranslatedLayer"]

FORMAT = "paddle_on_torch.jit"
FORMAT_VERSION = 1
PROGRAM_SUFFIX, PARAMS_SUFFIX, MANIFEST_SUFFIX = ".pt2", ".pdiparams", ".pot.json"
_MAX_MANIFEST_BYTES = 64 << 20

_SAVE_CONFIGS = ("output_spec", "with_hook", "combine_params", "clip_extra", "skip_forward",
                 "input_names_after_prune", "skip_prune_program", "separate_parameters")
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
def _spec_of(value, i):
    from ..static.input import InputSpec

    if isinstance(value, InputSpec):
        return value
    if isinstance(value, _normalize.Tensor):
        return InputSpec(list(value.shape), value.dtype, value.__dict__.get("name") or f"x{i}")
    if isinstance(value, torch.Tensor):
        return InputSpec(list(value.shape), _normalize.wrap(value).dtype, f"x{i}")
    return value  # a non-tensor constant argument


def _example(spec):
    """A concrete example tensor for an InputSpec (dynamic dims get size 2)."""
    from ..framework.dtype import to_torch_dtype

    shape = [2 if d == -1 else d for d in spec.shape]
    dtype = to_torch_dtype(spec.dtype)
    if dtype.is_floating_point or dtype.is_complex:
        g = torch.Generator().manual_seed(0)
        return torch.rand(shape, generator=g).to(dtype)
    return torch.zeros(shape, dtype=dtype)


def _dynamic(spec):
    from torch.export import Dim

    dyn = {i: Dim.AUTO for i, d in enumerate(spec.shape) if d == -1}
    return dyn or None


def _resolve_inputs(layer, fn, input_spec):
    from ..static.input import InputSpec

    if input_spec is None:
        sf = fn if isinstance(fn, StaticFunction) else None
        if sf is not None and sf._input_spec is not None:
            input_spec = sf._input_spec
        elif sf is not None and sf._last_inputs is not None:
            input_spec = [_spec_of(a, i) for i, a in enumerate(sf._last_inputs[0])]
        else:
            raise ValueError("paddle.jit.save needs `input_spec`: the layer's forward was neither decorated "
                             "with to_static(input_spec=...) nor called through to_static before saving.")
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"The input input_spec should be 'list', but received input_spec's type is "
                        f"{type(input_spec)}.")
    specs = []
    for i, s in enumerate(input_spec):
        s = _spec_of(s, i)
        if isinstance(s, (list, tuple, dict)):
            raise NotImplementedError("paddle.jit.save: nested input_spec structures are not supported; pass one "
                                      "InputSpec per positional argument")
        if isinstance(s, InputSpec):
            s = InputSpec(list(s.shape), s.dtype, s.name or f"x{i}", s.stop_gradient)
        specs.append(s)
    return specs


class _Exportable(torch.nn.Module):
    """The Layer's forward as a torch function of (weights, inputs): weights are swapped into the
    Parameters' `_t` for the trace, so they become graph inputs instead of constants."""

    def __init__(self, fn, tensors, consts):
        super().__init__()
        self._fn, self._tensors, self._consts = fn, tensors, consts

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
        return _to_torch_tree(out)


def _structure(obj):
    if isinstance(obj, torch.Tensor):
        return {"tensor": {"shape": [int(d) if isinstance(d, int) else -1 for d in obj.shape],
                           "dtype": _dtype_name(obj)}}
    if isinstance(obj, (list, tuple)):
        return {type(obj).__name__: [_structure(v) for v in obj]}
    if isinstance(obj, dict):
        return {"dict": {str(k): _structure(v) for k, v in obj.items()}}
    return {"constant": repr(obj)}


def _dtype_name(t):
    from ..framework import dtype as _dtypes

    return _dtypes.dtype_name(t.dtype)  # 'float32', 'int64', ...


def save(layer, path, input_spec=None, **configs):
    """Write `path`.pt2 (torch.export program), `path`.pdiparams (Paddle's layout), `path`.pot.json."""
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
    if isinstance(layer, Layer):
        fn_attr = layer.__dict__.get("forward")
        fn = fn_attr if isinstance(fn_attr, StaticFunction) else None
        if fn is None and isinstance(getattr(type(layer), "forward", None), StaticFunction):
            fn = layer.forward
        call = fn._dygraph_function if fn is not None else layer.forward
        owner = layer
    elif isinstance(layer, StaticFunction):
        fn, call, owner = layer, layer._dygraph_function, layer._layer
    elif callable(layer):
        fn, call, owner = None, layer, None
    else:
        raise TypeError("The input of paddle.jit.save should be 'Layer' or 'Function', but received input type "
                        f"is {type(layer)}.")
    specs = _resolve_inputs(owner, fn, input_spec)
    from ..static.input import InputSpec

    tensor_specs = [s for s in specs if isinstance(s, InputSpec)]
    if any(not isinstance(s, InputSpec) for s in specs[len(tensor_specs):]) and \
            any(isinstance(s, InputSpec) for s in specs[len(tensor_specs):]):
        raise NotImplementedError("paddle.jit.save: non-Tensor arguments must come after all Tensor arguments")
    consts = specs[len(tensor_specs):]
    if any(not isinstance(s, InputSpec) for s in specs[:len(tensor_specs)]):
        raise NotImplementedError("paddle.jit.save: non-Tensor arguments must come after all Tensor arguments")

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
    module = _Exportable(call, tensors, consts)
    weights = [t._t.detach() for t in tensors]
    try:
        ep = torch.export.export(module, (weights, examples),
                                 dynamic_shapes=([None] * len(weights), dyn), strict=False)
    except Exception as e:  # noqa: BLE001 - export failures name the construct; keep torch's message
        raise RuntimeError(f"paddle.jit.save could not export {getattr(call, '__qualname__', call)} with "
                           f"torch.export: {type(e).__name__}: {e}") from e
    with torch.no_grad():
        out = module(weights, examples)
    # a dim asked to be dynamic that the trace had to fix (the code used its value: a reshape to a
    # Python int, ...) stays fixed: found by running the program once with other sizes
    if any(-1 in s.shape for s in tensor_specs):
        other = [torch.zeros([3 if d == -1 else d for d in s.shape], dtype=e.dtype) for s, e in zip(tensor_specs, examples)]
        try:
            with torch.no_grad():
                ep.module()(weights, other)
            specialised = False
        except Exception:  # noqa: BLE001 - a failed shape guard, whatever its exception type
            specialised = True
    else:
        specialised = False
    for s, e in zip(tensor_specs, examples):
        fixed = [i for i, d in enumerate(s.shape) if d == -1] if specialised else []
        if fixed:
            val = e
            warnings.warn(f"paddle.jit.save: input '{s.name}' dims {fixed} were declared dynamic (None/-1) but "
                          f"the model's code fixes them; the saved program takes shape {list(val.shape)} only.")
            s.shape = tuple(int(val.shape[i]) if i in fixed else d for i, d in enumerate(s.shape))

    manifest = {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "torch_version": torch.__version__,
        "paddle_version": _paddle_version(),
        "program": os.path.basename(path) + PROGRAM_SUFFIX,
        "params": os.path.basename(path) + PARAMS_SUFFIX,
        "training": bool(getattr(owner, "training", False)),
        "inputs": [{"name": s.name, "shape": list(s.shape), "dtype": _spec_dtype_name(s)} for s in tensor_specs],
        "constants": [repr(c) for c in consts],
        "outputs": _structure(out),
        "weights": [{"name": key, "paddle_name": pname, "shape": list(t._t.shape), "dtype": _dtype_name(t._t),
                     "trainable": not t.stop_gradient} for pname, key, t in entries],
    }
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    _atomic_write(path + PROGRAM_SUFFIX, lambda f: torch.export.save(ep, f))
    _atomic_write(path + PARAMS_SUFFIX, lambda f: [f.write(_tensor_record(t._t)) for t in tensors])
    _atomic_write(path + MANIFEST_SUFFIX, lambda f: f.write(json.dumps(manifest, indent=1).encode()))


def _spec_dtype_name(spec):
    from ..framework import dtype as _dtypes
    from ..framework.dtype import to_torch_dtype

    return _dtypes.dtype_name(to_torch_dtype(spec.dtype))


def _paddle_version():
    try:
        from ..version import full_version

        return full_version
    except ImportError:
        return "3.3.1"


# ===================================================================== load
def _read_manifest(path):
    mpath = path + MANIFEST_SUFFIX
    if os.path.getsize(mpath) > _MAX_MANIFEST_BYTES:
        raise ValueError(f"paddle.jit.load: {mpath} is too large to be a manifest")
    try:
        with open(mpath, "rb") as f:
            m = json.loads(f.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"paddle.jit.load: {mpath} is not a valid manifest ({e})") from None
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        raise ValueError(f"paddle.jit.load: {mpath} is not a paddle_on_torch jit.save manifest")
    if m.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"paddle.jit.load: {mpath} has format version {m.get('format_version')}, this "
                         f"paddle_on_torch reads version {FORMAT_VERSION}")
    for key, typ in (("inputs", list), ("weights", list)):
        if not isinstance(m.get(key), typ):
            raise ValueError(f"paddle.jit.load: {mpath} has no valid '{key}' entry")
    for w in m["weights"]:
        if not (isinstance(w, dict) and isinstance(w.get("shape"), list) and isinstance(w.get("dtype"), str)):
            raise ValueError(f"paddle.jit.load: {mpath} has a malformed weight entry")
    return m


def _check_format(path, api):
    """Our artifact at `path`? (Real Paddle programs are found before this, by model_format.find_model_files.)"""
    if os.path.exists(path + MANIFEST_SUFFIX):
        return
    if os.path.isdir(path):
        raise ValueError(f"The ``path`` ({path}) to load model not exists: it is a directory; give the path "
                         "prefix that paddle.jit.save was given.")
    raise ValueError(f"The ``path`` ({path}) to load model not exists. Please make sure that {path}"
                     f"{MANIFEST_SUFFIX}, {path}{PROGRAM_SUFFIX} and {path}{PARAMS_SUFFIX} exist (written by "
                     "paddle.jit.save).")


class _Artifact:
    """A loaded jit.save artifact: manifest, weight arrays, and the program's callable module."""

    def __init__(self, path, model_file=None, params_file=None):
        self.manifest = m = _read_manifest(path)
        model_file = model_file or path + PROGRAM_SUFFIX
        params_file = params_file or path + PARAMS_SUFFIX
        with open(params_file, "rb") as f:
            arrays = read_combined_params(f.read(), params_file)
        if len(arrays) != len(m["weights"]):
            raise ValueError(f"paddle.jit.load: {params_file} holds {len(arrays)} tensors, the manifest lists "
                             f"{len(m['weights'])}")
        from ..framework import dtype as _dtypes

        self.weights = []
        for a, w in zip(arrays, m["weights"]):
            t = a if isinstance(a, torch.Tensor) else torch.from_numpy(a)
            if list(t.shape) != w["shape"] or _dtypes.dtype_name(t.dtype) != w["dtype"]:
                raise ValueError(f"paddle.jit.load: {params_file}: tensor '{w.get('name')}' is {list(t.shape)} "
                                 f"{_dtypes.dtype_name(t.dtype)}, the manifest says {w['shape']} {w['dtype']}")
            self.weights.append(t)
        from . import safe_export
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


class TranslatedLayer(Layer):
    """A Layer loaded by paddle.jit.load: runs the saved program on its own Parameters.

    `program` is the torch.export ExportedProgram.  The program runs as it was traced (the
    train/eval mode at save time); `train()` / `eval()` set the flag only.
    """

    def __init__(self, artifact):
        super().__init__()
        from ..nn.layer.layers import _create_parameter  # noqa: F401 - Parameter machinery is loaded
        from ..framework.io import _to_tensor

        self.__dict__["_artifact"] = artifact
        self.__dict__["_module"] = artifact.module
        for i, (t, w) in enumerate(zip(artifact.weights, artifact.manifest["weights"])):
            p = self.create_parameter(list(t.shape), dtype=_normalize.wrap(t).dtype)
            with torch.no_grad():
                p._t.copy_(t)
            p.stop_gradient = not w.get("trainable", True)
            p.name = f"{w.get('paddle_name', w.get('name'))}_0"
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
        specs = self.__dict__["_artifact"].manifest["inputs"]
        if len(inputs) != len(specs):
            raise ValueError(f"The saved model takes {len(specs)} inputs ({[s['name'] for s in specs]}), but "
                             f"received {len(inputs)}.")
        args = [_normalize.to_torch(v) for v in inputs]
        for a, s in zip(args, specs):
            if a.dim() != len(s["shape"]) or any(w != -1 and d != w for d, w in zip(a.shape, s["shape"])):
                raise ValueError(f"The saved model's input '{s['name']}' has shape {s['shape']} (-1: any size), "
                                 f"but received {list(a.shape)}.")
        weights = [p._t for p in self.__dict__["_parameters"].values()]
        out = self.__dict__["_module"](weights, args)
        return _to_paddle_tree(out)


def load(path, **configs):
    """Read what paddle.jit.save wrote (`path` is the prefix it was given) into a TranslatedLayer."""
    for key in configs:
        if key not in _LOAD_CONFIGS:
            raise ValueError(f"The additional config ({key}) of `paddle.jit.load` is not supported.")
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"paddle.jit.load expects a path prefix (str), but received {type(path).__name__}")
    path = os.fspath(path)
    model_file, params_file = configs.get("model_filename"), configs.get("params_filename")
    real = _find_paddle_program(path, model_file, params_file)
    if real is not None:
        return ProgramLayer.load(real)
    if model_file is not None:
        model_file = os.path.join(path, model_file) if os.path.isdir(path) else model_file
        prefix = model_file[:-len(PROGRAM_SUFFIX)] if model_file.endswith(PROGRAM_SUFFIX) else model_file
        if params_file is not None and os.path.isdir(path):
            params_file = os.path.join(path, params_file)
        path = prefix
    _check_format(path, "paddle.jit.load")
    return TranslatedLayer(_Artifact(path, None, params_file))


# ===================================================================== real Paddle inference programs
def _find_paddle_program(path, model_file=None, params_file=None):
    """(program file, params file) when `path` (+ the load configs) names a real Paddle inference model
    (PIR .json or ProgramDesc .pdmodel) rather than one of our own artifacts; else None."""
    from ..static import model_format

    if model_file is not None:
        mf = os.path.join(path, model_file) if os.path.isdir(path) else model_file
        pf = os.path.join(path, params_file) if params_file is not None and os.path.isdir(path) else params_file
        if mf.endswith(PROGRAM_SUFFIX) or mf.endswith(MANIFEST_SUFFIX):
            return None
        return model_format.find_model_files(mf, pf)
    if os.path.exists(path + MANIFEST_SUFFIX):
        return None
    return model_format.find_model_files(path, params_file)


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
        for a, s in zip(args, specs):
            if a.dim() != len(s.shape) or any(w != -1 and d != w for d, w in zip(a.shape, s.shape)):
                raise ValueError(f"The loaded model's input '{s.name}' has shape {s.shape} (-1: any size), "
                                 f"but received {list(a.shape)}.")
        tables = {**self.__dict__["_parameters"], **self.__dict__["_buffers"]}
        weights = {attr: tables[name]._t for name, attr in self.__dict__["_attrs"]}
        out = torch.func.functional_call(model.graph_module, weights, tuple(args))
        outs = [_normalize.wrap(o) for o in out]
        return outs[0] if len(outs) == 1 else outs


