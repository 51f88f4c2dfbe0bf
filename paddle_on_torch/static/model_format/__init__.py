"""Real Paddle inference models on torch: read a program file, lower it op by op to a torch.fx GraphModule.

    model = load("path/inference")            # path/inference.json or .pdmodel, + .pdiparams
    model = load(("net.pdmodel", "net.pdiparams"))
    outs = model.graph_module(*inputs)        # torch tensors in feed order -> tuple in fetch order

Formats (see docs/inference_models.md):
  PIR     `*.json`: Paddle 3.x's serialised PIR program (base_code.magic "pir", versions 1..4);
  legacy  `*.pdmodel`: a ProgramDesc protobuf (Paddle 2.x, and 3.x with FLAGS_enable_pir_api=0),
          decoded by a small wire-format reader (no protobuf dependency);
  params  `*.pdiparams`: the parameters in Paddle's combined DenseTensor layout, sorted by name (or,
          in Paddle 1.x/2.x model directories with `__model__`, one file per parameter).
Loading parses data only: no pickle, no code from the file runs.  A file that is truncated,
foreign or of a newer version raises ModelFormatError (a ValueError) naming the format and version;
a program with ops that have no lowering raises UnsupportedOpsError (a NotImplementedError)
listing every one of them.
"""
import os
from collections import namedtuple

import torch

from .errors import ModelFormatError, UnsupportedOpsError
from .lower import lower, missing_ops
from .ops import TABLE

__all__ = ["load", "read_program", "InferenceModel", "FeedSpec", "ModelFormatError", "UnsupportedOpsError",
           "find_model_files", "supported_ops"]

FeedSpec = namedtuple("FeedSpec", ["name", "shape", "dtype"])
_MAX_PROGRAM_BYTES = 1 << 30


def supported_ops():
    return sorted(TABLE)


def find_model_files(spec, params_file=None):
    """(program file, params file or None) for a prefix, a program file, a directory or a (model, params) pair;
    None when `spec` names no real Paddle program."""
    if isinstance(spec, (tuple, list)):
        if len(spec) != 2:
            raise ValueError("load expects (model_file, params_file)")
        spec, params_file = spec
    spec = os.fspath(spec)
    if os.path.isdir(spec):
        for base in ("inference", "model", "__model__"):
            for ext in (".json", ".pdmodel", ""):
                f = os.path.join(spec, base + ext)
                if os.path.isfile(f):
                    return _with_params(f, params_file)
        cands = sorted(f for f in os.listdir(spec) if f.endswith((".json", ".pdmodel")) and
                       not f.endswith(".pot.json"))
        if len(cands) == 1:
            return _with_params(os.path.join(spec, cands[0]), params_file)
        return None
    if spec.endswith((".json", ".pdmodel")) and not spec.endswith(".pot.json") and os.path.isfile(spec):
        return _with_params(spec, params_file)
    for ext in (".json", ".pdmodel"):
        if os.path.isfile(spec + ext):
            return _with_params(spec + ext, params_file)
    return None


def _with_params(model_file, params_file):
    if params_file is None:
        stem = os.path.splitext(model_file)[0]
        cand = stem + ".pdiparams" if not model_file.endswith("__model__") else os.path.join(
            os.path.dirname(model_file), "__params__")
        params_file = cand if os.path.isfile(cand) else None
    return model_file, params_file


def read_program(model_file):
    """The Program in a .json (PIR) or .pdmodel (ProgramDesc) file."""
    size = os.path.getsize(model_file)
    if size > _MAX_PROGRAM_BYTES:
        raise ModelFormatError(f"{model_file}: {size} bytes is too large for a program file")
    with open(model_file, "rb") as f:
        data = f.read()
    head = data.lstrip()[:1]
    if head == b"{":
        from .program import read_pir_json

        return read_pir_json(data, model_file)
    from .program_desc import read_program_desc

    if model_file.endswith(".json"):
        raise ModelFormatError(f"{model_file}: not a Paddle PIR program (.json): the file is not JSON")
    return read_program_desc(data, model_file)


def _read_params(program, params_file, where):
    types = {}
    for vid, name in program.params.items():
        types.setdefault(name, program.types.get(vid))
    out = {}
    for name in program.transient:  # run-time state the program declares as a parameter: zeros
        dt, shape = types.get(name) or ("float32", [])
        from .builder import torch_dtype

        out[name] = torch.zeros([max(d, 0) for d in shape], dtype=torch_dtype(dt))
    names = sorted(set(program.params.values()) - program.transient)
    if not names:
        return out
    from ...jit.save_load import read_combined_params

    if params_file is None:
        # Paddle 1.x / 2.x model directories: one file per parameter, named by the parameter
        d = os.path.dirname(os.path.abspath(where))
        if not all(os.path.isfile(os.path.join(d, n)) for n in names):
            raise FileNotFoundError(f"{where}: the program has {len(names)} parameters but no params file "
                                    "(.pdiparams, or one file per parameter) was found beside it")
        arrays = []
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                try:
                    one = read_combined_params(f.read(), os.path.join(d, n))
                except ValueError as e:
                    raise ModelFormatError(f"{os.path.join(d, n)}: not a Paddle tensor file: {e}") from None
            if len(one) != 1:
                raise ModelFormatError(f"{os.path.join(d, n)}: holds {len(one)} tensors, expected one")
            arrays += one
        params_file = d
    else:
        with open(params_file, "rb") as f:
            data = f.read()
        try:
            arrays = read_combined_params(data, params_file)
        except ValueError as e:
            raise ModelFormatError(f"{params_file}: not a Paddle combined params file (.pdiparams): {e}") from None
    if len(arrays) != len(names):
        raise ModelFormatError(f"{params_file}: holds {len(arrays)} tensors, the program {where} has "
                               f"{len(names)} parameters")
    for name, a in zip(names, arrays):
        t = a if isinstance(a, torch.Tensor) else torch.from_numpy(a)
        want = types.get(name)
        if isinstance(want, tuple) and want[1] and list(want[1]) != list(t.shape) and -1 not in want[1]:
            raise ModelFormatError(f"{params_file}: parameter '{name}' has shape {list(t.shape)}, the program "
                                   f"declares {want[1]}")
        out[name] = t
    return out


class InferenceModel:
    """A loaded inference model: `graph_module` (feeds in, fetches out), names, specs and parameters."""

    def __init__(self, program, graph_module, params, param_attr, model_file, params_file):
        self.program = program
        self.format, self.version = program.format, program.version
        self.graph_module = graph_module
        self.feed_names = [f[1] for f in program.feeds]
        self.fetch_names = [f[1] for f in program.fetches]
        self.feed_specs = [FeedSpec(n, list(s), d) for _, n, s, d in program.feeds]
        self.params = params  # Paddle parameter name -> torch tensor (the GraphModule's buffers)
        self.param_attr = param_attr  # Paddle parameter name -> GraphModule attribute
        self.model_file, self.params_file = model_file, params_file

    def __call__(self, *inputs):
        with torch.no_grad():
            return self.graph_module(*inputs)

    def __repr__(self):
        return (f"InferenceModel({self.format} v{self.version}, feeds={self.feed_names}, "
                f"fetches={self.fetch_names}, {len(self.params)} parameters)")


def load(path_prefix_or_files, params_file=None):
    """Load a Paddle inference model (PIR .json or ProgramDesc .pdmodel, with .pdiparams) as an InferenceModel."""
    if not isinstance(path_prefix_or_files, (str, os.PathLike, tuple, list)):
        raise TypeError(f"load expects a path prefix, a model file or (model_file, params_file), but received "
                        f"{type(path_prefix_or_files).__name__}")
    found = find_model_files(path_prefix_or_files, params_file)
    if found is None:
        raise FileNotFoundError(f"no Paddle inference model (.json or .pdmodel) at {path_prefix_or_files!r}")
    model_file, params_file = found
    program = read_program(model_file)
    missing = missing_ops(program)
    if missing:
        raise UnsupportedOpsError(missing, model_file)
    params = _read_params(program, params_file, model_file)
    gm, attrs = lower(program, params, model_file)
    return InferenceModel(program, gm, params, attrs, model_file, params_file)
