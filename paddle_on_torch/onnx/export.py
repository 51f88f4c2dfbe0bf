"""paddle.onnx.export(layer, path, input_spec=None, opset_version=9, **configs) on torch.onnx.

Paddle hands the Layer to paddle2onnx, which saves it with paddle.jit.save and converts the saved program.  Here the
Layer's forward is traced as paddle.jit.save traces it (torch.export, non-strict; InputSpec dims that are None or -1
stay dynamic) and translated by torch.onnx's dynamo exporter (onnxscript).  The weights become the model's
initializers, named by the Layer's state_dict keys ('fc.weight'); the inputs are named after the InputSpecs and the
outputs fetch_name_0, fetch_name_1, ... as paddle2onnx names them.  One file
is written, atomically: path + '.onnx', with the weights inside (beside it, as path + '.onnx.data', only past
protobuf's 2 GB limit).

Opsets: torch's exporter implements opset 18 and newer.  A lower request (Paddle's default is 9) is raised to 18 the
way paddle2onnx's `enable_auto_update_opset=True` (its default) raises an opset too low for a model's operators; with
`enable_auto_update_opset=False` torch's version converter is asked for the requested opset, and a model it cannot
bring down raises ValueError.

Configs: paddle.jit.save's (the same meanings and limits as there) and paddle2onnx's: enable_onnx_checker (run
onnx.checker on the result; default True), enable_optimization (torch.onnx's graph optimisation; default True),
enable_verbose (torch.onnx's progress output), enable_auto_update_opset (above) and enable_dist_prim_all (accepted:
torch's exporter always lowers to primitive operators).  Other keys are ignored with a warning, as paddle2onnx
drops them.

Needs the `onnx` extra (onnx and onnxscript; onnxruntime to run the result).
"""
import os
import tempfile
import warnings

import torch

from ..jit import save_load as _save

__all__ = ["export"]

MIN_TORCH_OPSET = 18  # the oldest opset torch.onnx's dynamo exporter has implementations for
_PROTOBUF_LIMIT = 2 ** 31 - 2 ** 24  # weights past this (with room for the graph) go to external data
_ONNX_CONFIGS = {"enable_onnx_checker": True, "enable_optimization": True, "enable_verbose": False,
                 "enable_auto_update_opset": True, "enable_dist_prim_all": False}


def _require_exporter():
    try:
        import onnx  # noqa: F401
        import onnxscript  # noqa: F401
    except ImportError as e:
        raise ImportError(f"paddle.onnx.export needs onnx and onnxscript ({e.name} is missing): "
                          "pip install 'paddle_on_torch[onnx]'") from None
    return onnx


class _WithWeights(torch.nn.Module):
    """The Layer's forward as a torch module owning the Layer's weights (the same Parameter and buffer tensors,
    registered under the state_dict keys), so that torch.export lifts them as parameters and buffers, which become
    the ONNX model's initializers.  Each call reads them back from the module: export swaps in its own values."""

    def __init__(self, exportable, keys, tensors):
        super().__init__()
        self.__dict__["_inner"] = exportable  # a plain attribute: not a submodule
        try:
            if any(not self._fits(k) for k in keys):
                raise ValueError("not a module path")
            self._register(keys, tensors, flat=False)
        except (KeyError, ValueError):  # a key that cannot be a module path (or clashes with one): w0, w1, ...
            self._parameters.clear(), self._buffers.clear(), self._modules.clear()
            self._register(keys, tensors, flat=True)

    def _register(self, keys, tensors, flat):
        self._slots = []
        for i, (key, t) in enumerate(zip(keys, tensors)):
            owner, leaf = (self, f"w{i}") if flat else self._holder(key)
            if isinstance(t._t, torch.nn.Parameter):
                owner.register_parameter(leaf, t._t)
            else:
                owner.register_buffer(leaf, t._t)
            self._slots.append((owner, leaf))

    @staticmethod
    def _fits(key):
        return all(part.isidentifier() or part.isdigit() for part in key.split("."))

    def _holder(self, key):
        *path, leaf = key.split(".")
        owner = self
        for part in path:
            if part not in owner._modules:
                owner.add_module(part, torch.nn.Module())  # KeyError where `part` names an attribute already
            owner = owner._modules[part]
        if hasattr(owner, leaf):  # a torch.nn.Module attribute ('training', 'forward', ...) or a submodule
            raise KeyError(leaf)
        return owner, leaf

    def forward(self, *inputs):
        return self._inner.forward([getattr(owner, leaf) for owner, leaf in self._slots], list(inputs))


def _entries(owner):
    """(state_dict keys, Paddle tensors): each tensor once (tied weights keep their first name)."""
    keys, tensors, seen = [], [], set()
    if owner is not None:
        for key, t in owner.state_dict().items():
            if id(t._t) not in seen:
                seen.add(id(t._t))
                keys.append(key)
                tensors.append(t)
    return keys, tensors


def _split_configs(configs):
    jit_configs, onnx_configs = {}, dict(_ONNX_CONFIGS)
    for key, value in configs.items():
        if key in _save._SAVE_CONFIGS:
            jit_configs[key] = value
        elif key in _ONNX_CONFIGS:
            onnx_configs[key] = value
        else:
            warnings.warn(f"paddle.onnx.export: the config {key!r} is not one paddle.jit.save or paddle2onnx knows; "
                          "it is ignored", stacklevel=3)
    if jit_configs.get("output_spec") is not None or jit_configs.get("input_names_after_prune") is not None:
        from .._report import unsupported

        raise unsupported("paddle.onnx.export", " with output_spec / input_names_after_prune (program pruning)")
    if jit_configs.get("skip_forward"):
        from .._report import unsupported

        raise unsupported("paddle.onnx.export", " with skip_forward=True")
    return onnx_configs


def _opset(opset_version, auto_update):
    if isinstance(opset_version, bool) or not isinstance(opset_version, int):
        raise TypeError(f"opset_version must be an int, but received {type(opset_version).__name__}")
    if opset_version < MIN_TORCH_OPSET and auto_update:
        return MIN_TORCH_OPSET
    return opset_version


class _quiet_registration:
    """Silence the exporter's start-up log of the torchvision operators it skips (torchvision is not ours)."""

    def __enter__(self):
        import logging

        self._logger = logging.getLogger("torch.onnx._internal.exporter._registration")
        self._level = self._logger.level
        self._logger.setLevel(logging.ERROR)

    def __exit__(self, *exc):
        self._logger.setLevel(self._level)


def _paddle_output_names(model_proto, onnx):
    """Name the outputs fetch_name_0, fetch_name_1, ... as paddle2onnx does (an Identity each: names inside the
    graph, subgraphs included, stay as they are)."""
    for i, value in enumerate(model_proto.graph.output):
        new = f"fetch_name_{i}"
        if value.name != new:
            model_proto.graph.node.append(onnx.helper.make_node("Identity", [value.name], [new]))
            value.name = new


def _specialised_inputs(model_proto, specs):
    """{input name: dims} of the dims declared dynamic that the exported graph fixed (the code used their value)."""
    fixed = {}
    for spec, value in zip(specs, model_proto.graph.input):
        if getattr(spec, "_pot_from_call", False):  # specs of the last to_static call: dims free where possible
            continue
        dims = value.type.tensor_type.shape.dim
        bad = [i for i, d in enumerate(spec.shape) if d == -1 and i < len(dims) and dims[i].HasField("dim_value")]
        if bad:
            fixed[spec.name] = bad
    return fixed


def _write(path, model_proto, external, onnx):
    """Write path (and path.data with external data) atomically: saved in a temporary folder beside it, renamed."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    if not external:
        data = model_proto.SerializeToString()
        _save._atomic_write(path, lambda f: f.write(data))
        return
    base = os.path.basename(path)
    with tempfile.TemporaryDirectory(prefix=".tmp-onnx-", dir=folder) as tmp:
        onnx.save_model(model_proto, os.path.join(tmp, base), save_as_external_data=True,
                        all_tensors_to_one_file=True, location=base + ".data")
        for name in sorted(os.listdir(tmp), key=lambda n: n == base):  # the model file last
            os.replace(os.path.join(tmp, name), os.path.join(folder, name))


def export(layer, path, input_spec=None, opset_version=9, **configs):
    """Write the Layer (or to_static function) as an ONNX model to `path` + '.onnx'."""
    onnx = _require_exporter()
    if not isinstance(path, str) or os.path.basename(path) == "":
        raise ValueError("The input path MUST be format of dirname/file_prefix [dirname\\file_prefix in Windows "
                         f"system], but the file_prefix is empty in received path: {path}")
    options = _split_configs(configs)
    opset = _opset(opset_version, options["enable_auto_update_opset"])
    fn, call, owner = _save._target(layer, "paddle.onnx.export")
    specs, consts = _save._split_specs(_save._resolve_inputs(owner, fn, input_spec, call), "paddle.onnx.export")
    keys, tensors = _entries(owner)
    from ..jit.dy2static import convert_call

    # as paddle.jit.save (which paddle2onnx calls): control flow on Tensors converted, the outputs flat
    module = _WithWeights(_save._Exportable(convert_call(call), tensors, consts, flat=True), keys, tensors)
    examples = tuple(_save._example(s) for s in specs)
    dynamic = tuple(_save._dynamic(s) for s in specs)
    name = getattr(call, "__qualname__", type(layer).__name__)
    try:
        with warnings.catch_warnings(), _quiet_registration():
            warnings.filterwarnings("ignore", message=".*training mode.*")
            warnings.filterwarnings("ignore", category=FutureWarning)  # torch's own deprecations, not the user's
            program = torch.onnx.export(
                module.eval(), examples, dynamo=True, opset_version=opset,
                dynamic_shapes=(dynamic,) if any(dynamic) else None, input_names=[s.name for s in specs], optimize=bool(options["enable_optimization"]),
                verbose=bool(options["enable_verbose"]), external_data=False)
    except Exception as e:  # noqa: BLE001 - keep torch's message: it names the construct
        raise RuntimeError(f"paddle.onnx.export could not export {name}: {type(e).__name__}: {e}") from e
    proto = program.model_proto  # a fresh serialisation of the exporter's model on each access: take it once
    got = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), None)
    if got != opset:
        raise ValueError(f"paddle.onnx.export: the model cannot be expressed in ONNX opset {opset_version} (torch's "
                         f"exporter produced opset {got}); pass opset_version>={MIN_TORCH_OPSET} or "
                         "enable_auto_update_opset=True")
    for input_name, dims in _specialised_inputs(proto, specs).items():
        warnings.warn(f"paddle.onnx.export: input '{input_name}' dims {dims} were declared dynamic (None/-1) but the "
                      "model's code fixes them; the ONNX model takes that size only.", stacklevel=2)
    _paddle_output_names(proto, onnx)
    external = sum(t._t.numel() * t._t.element_size() for t in tensors) > _PROTOBUF_LIMIT
    if options["enable_onnx_checker"] and not external:
        try:
            onnx.checker.check_model(proto)
        except onnx.checker.ValidationError as e:
            raise RuntimeError(f"paddle.onnx.export: the exported model fails onnx.checker: {e}") from None
    _write(path + ".onnx", proto, external, onnx)
