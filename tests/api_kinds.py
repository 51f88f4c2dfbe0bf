"""What kind of object each Paddle API name is, and what isinstance answers for Paddle's classes.

Used on both sides, like tests/golden.py: tools/record_api_kinds.py runs `describe` under real Paddle and writes
tests/golden/api_kinds.json; tests/test_api_kinds.py runs it under paddle_on_torch and compares.  It never
imports paddle itself: the `paddle` module is passed in.

The names are every name of Paddle's API table (paddle_on_torch/_paddle_api.json) and SEMI_PUBLIC below: the
names of paddle.base / paddle.framework / core / pir / common_ops_import / paddle.utils that PaddleNLP,
PaddleFormers, PaddleScience, PaddleClas, PaddleDetection, PaddleOCR, PaddleSeg, PaddleSpeech and PaddleX use
(found by scanning their sources), plus the type names issue 17 lists.
"""
import importlib
import inspect
import os

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden", "api_kinds.json")

SEMI_PUBLIC = [
    # paddle.base and its core (also reached as paddle.framework.core and paddle.core)
    "paddle.base", "paddle.base.core", "paddle.framework.core", "paddle.core", "paddle.base.libpaddle",
    "paddle.base.core.eager", "paddle.base.core.eager.Tensor", "paddle.framework.core.eager.Tensor",
    "paddle.core.eager.Tensor", "paddle.base.core.eager.PyLayer", "paddle.base.core.eager._run_custom_op",
    "paddle.base.core.eager.register_saved_tensors_hooks", "paddle.base.core.eager.reset_saved_tensors_hooks",
    "paddle.base.core.eager.ops", "paddle.base.core.eager.ops.legacy", "paddle.base.core.eager.ops.matmul",
    "paddle.base.core.Place", "paddle.base.core.CPUPlace", "paddle.base.core.CUDAPlace",
    "paddle.base.core.CUDAPinnedPlace", "paddle.base.core.XPUPlace", "paddle.base.core.XPUPinnedPlace",
    "paddle.base.core.CustomPlace", "paddle.base.core.IPUPlace", "paddle.core.CPUPlace",
    "paddle.base.CPUPlace", "paddle.base.CUDAPlace", "paddle.framework.IPUPlace",
    "paddle.base.core.VarDesc", "paddle.base.core.VarDesc.VarType", "paddle.base.core.VarDesc.VarType.FP32",
    "paddle.base.core.VarDesc.VarType.FP16", "paddle.base.core.VarDesc.VarType.BF16",
    "paddle.base.core.VarDesc.VarType.FP64", "paddle.base.core.VarDesc.VarType.INT64",
    "paddle.base.core.VarDesc.VarType.BOOL", "paddle.base.core.VarDesc.VarType.DENSE_TENSOR",
    "paddle.base.core.VarDesc.VarType.LOD_TENSOR", "paddle.base.core.VarDesc.VarType.SELECTED_ROWS",
    "paddle.base.core.VarDesc.VarType.RAW", "paddle.base.core.VarDesc.VarType.STRING",
    "paddle.base.core.VarDesc.VarType.STRINGS", "paddle.base.core.VarDesc.VarType.VOCAB",
    "paddle.base.core.DataType", "paddle.base.core.DataType.FLOAT32", "paddle.base.core.DataType.BFLOAT16",
    "paddle.base.core.DataType.FLOAT16", "paddle.base.libpaddle.DataType", "paddle.base.libpaddle.DataType.FLOAT32",
    "paddle.base.core.AmpLevel", "paddle.base.core.AmpLevel.O0", "paddle.base.core.AmpLevel.O1",
    "paddle.base.core.AmpLevel.O2", "paddle.base.core.Generator", "paddle.base.core.Size",
    "paddle.base.core.globals", "paddle.base.core.default_cpu_generator", "paddle.base.core.default_cuda_generator",
    "paddle.base.core.default_xpu_generator", "paddle.base.core.default_custom_device_generator",
    "paddle.base.core.is_compiled_with_cuda", "paddle.base.core.is_compiled_with_xpu",
    "paddle.base.core.is_compiled_with_rocm", "paddle.base.core.is_compiled_with_custom_device",
    "paddle.base.core.is_compiled_with_distribute", "paddle.base.core.is_compiled_with_ipu",
    "paddle.base.core.get_custom_device_count", "paddle.base.core.get_all_custom_device_type",
    "paddle.base.core.get_all_device_type", "paddle.base.core.get_available_device",
    "paddle.base.core.device_memory_stat_current_value", "paddle.base.core.device_memory_stat_peak_value",
    "paddle.base.core.size_of_dtype", "paddle.base.core._has_grad", "paddle.base.core._set_has_grad",
    "paddle.base.core.set_num_threads", "paddle.base.core.Tracer",
    "paddle.framework.core.set_prim_eager_enabled", "paddle.framework.core._set_prim_all_enabled",
    "paddle.base.core._is_fwd_prim_enabled", "paddle.base.core._is_bwd_prim_enabled",
    "paddle.base.core._is_eager_prim_enabled", "paddle.base.core._is_all_prim_enabled",
    "paddle.base.core._set_prim_forward_enabled", "paddle.base.core._set_prim_backward_enabled",
    # Paddle's CPU build has no nvprof_* / get_cuda_device_count (they exist where CUDA does)
    "paddle.framework.core.nvprof_start", "paddle.framework.core.nvprof_stop", "paddle.framework.core.nvprof_nvtx_push",
    "paddle.framework.core.nvprof_nvtx_pop", "paddle.framework.core.nvprof_enable_record_event",
    "paddle.base.core.get_cuda_device_count", "paddle.base.core.set_cuda_current_device_id",
    # paddle.base
    "paddle.base.framework", "paddle.base.dygraph", "paddle.base.dygraph.guard", "paddle.base.dygraph.base",
    "paddle.base.dygraph.base.in_declarative_mode", "paddle.base.dygraph.base.in_to_static_mode",
    "paddle.base.dygraph.base.no_grad_", "paddle.base.dygraph.tracer", "paddle.base.dygraph.tracer.Tracer",
    "paddle.base.data_feeder", "paddle.base.data_feeder.convert_dtype", "paddle.base.data_feeder.check_type",
    "paddle.base.data_feeder.check_dtype", "paddle.base.data_feeder.check_variable_and_dtype",
    "paddle.base.layer_helper", "paddle.base.layer_helper.LayerHelper", "paddle.base.Variable",
    "paddle.base.ParamAttr", "paddle.base.in_dygraph_mode", "paddle.base.unique_name", "paddle.base.device_guard",
    # paddle.base.framework
    "paddle.base.framework.Variable", "paddle.base.framework.Parameter", "paddle.base.framework.EagerParamBase",
    "paddle.base.framework.EagerParamBase.from_tensor", "paddle.base.framework.Block",
    "paddle.base.framework._current_expected_place", "paddle.base.framework._current_expected_place_",
    "paddle.base.framework._dygraph_tracer", "paddle.base.framework._stride_in_no_check_dy2st_diff",
    "paddle.base.framework.default_main_program", "paddle.base.framework.default_startup_program",
    "paddle.base.framework.get_flags", "paddle.base.framework.set_flags", "paddle.base.framework.in_dygraph_mode",
    "paddle.base.framework.in_dynamic_or_pir_mode", "paddle.base.framework.in_pir_mode",
    "paddle.base.framework.non_static_only", "paddle.base.framework.static_only", "paddle.base.framework.use_pir_api",
    "paddle.base.framework.convert_np_dtype_to_dtype_", "paddle.base.framework.Program",
    "paddle.base.framework.program_guard", "paddle.base.framework.name_scope",
    # paddle.framework
    "paddle.framework._current_expected_place", "paddle.framework._current_expected_place_",
    "paddle.framework._dygraph_tracer", "paddle.framework._no_check_dy2st_diff", "paddle.framework.base.no_grad",
    "paddle.framework.io", "paddle.framework.io.EagerParamBase", "paddle.framework.io.EagerParamBase.to",
    "paddle.framework.io._parse_every_object", "paddle.framework.io._to_LodTensor",
    "paddle.framework.io._transformed_from_lodtensor", "paddle.framework.recall_error",
    "paddle.framework.recall_error.LOSS_NAN_ERROR", "paddle.framework.recall_error.LOSS_INF_ERROR",
    "paddle.framework.recall_error.AADIFF_ERROR", "paddle.framework.recall_error.check_naninf",
    "paddle.framework.random", "paddle.framework.Variable", "paddle.framework.random._manual_program_seed",
    # paddle.pir, paddle.pir_utils
    "paddle.pir", "paddle.pir.Value", "paddle.pir.Block", "paddle.pir.Program", "paddle.pir.core",
    "paddle.pir.core.convert_np_dtype_to_dtype_", "paddle.pir.core.vartype_to_datatype",
    "paddle.pir.core.datatype_to_vartype", "paddle.base.libpaddle.pir", "paddle.pir_utils",
    "paddle.pir_utils.IrGuard", "paddle.pir_utils.OldIrGuard", "paddle.pir_utils.DygraphPirGuard",
    "paddle.pir_utils.DygraphOldIrGuard",
    # paddle.common_ops_import
    "paddle.common_ops_import", "paddle.common_ops_import.LayerHelper", "paddle.common_ops_import.convert_dtype",
    "paddle.common_ops_import.convert_np_dtype_to_dtype_", "paddle.common_ops_import.Variable",
    "paddle.common_ops_import.check_dtype", "paddle.common_ops_import.check_type",
    "paddle.common_ops_import.check_variable_and_dtype", "paddle.common_ops_import.in_dygraph_mode",
    "paddle.common_ops_import.default_main_program", "paddle.common_ops_import.VarDesc",
    # paddle.static.amp, paddle.nn.layer.layers
    "paddle.static.amp", "paddle.static.amp.fp16_guard", "paddle.static.amp.bf16", "paddle.static.amp.bf16.bf16_guard",
    "paddle.nn.layer.layers.in_declarative_mode", "paddle.nn.layer.layers.Layer",
    # paddle.utils and paddle.dataset.common
    "paddle.utils.map_structure", "paddle.utils.flatten", "paddle.utils.pack_sequence_as", "paddle.utils.is_sequence",
    "paddle.utils.assert_same_structure", "paddle.utils.to_sequence", "paddle.utils.padding_to_same_structure",
    "paddle.utils.convert_to_list", "paddle.utils.layers_utils", "paddle.utils.download",
    "paddle.utils.download.is_url", "paddle.utils.download.get_path_from_url",
    "paddle.utils.download.get_weights_path_from_url", "paddle.utils.download._decompress",
    "paddle.utils.download._get_unique_endpoints", "paddle.utils.download.WEIGHTS_HOME", "paddle.utils.unique_name",
    "paddle.utils.unique_name.generate", "paddle.utils.unique_name.guard", "paddle.utils.dlpack",
    "paddle.utils.dlpack.from_dlpack", "paddle.utils.cpp_extension", "paddle.utils.cpp_extension.CppExtension",
    "paddle.utils.cpp_extension.CUDAExtension", "paddle.utils.cpp_extension.setup", "paddle.utils.try_import",
    "paddle.utils.cpp_extension.extension_utils", "paddle.utils.cpp_extension.load_op_meta_info_and_register_op",
    "paddle.utils.cpp_extension.extension_utils.load_op_meta_info_and_register_op", "paddle.base.libpaddle.pir.ops",
    "paddle.dataset", "paddle.dataset.common", "paddle.dataset.common.md5file", "paddle.dataset.common.DATA_HOME",
    "paddle.dataset.common.download",
    # paddle.distributed's two Strategy classes, and the auto-parallel internals PaddleNLP / PaddleFormers reach
    "paddle.distributed.fleet.auto.Strategy", "paddle.distributed.auto_parallel.Strategy",
    "paddle.distributed.auto_parallel.api.Strategy", "paddle.distributed.auto_parallel.strategy.Strategy",
    "paddle.distributed.auto_parallel.strategy.BaseConfig", "paddle.distributed.auto_parallel.api.split_mesh",
    "paddle.distributed.auto_parallel.api.moe_global_mesh_tensor",
    "paddle.distributed.auto_parallel.api.moe_sub_mesh_tensors", "paddle.distributed.auto_parallel.interface.recompute",
    "paddle.distributed.enable_auto_dp", "paddle.distributed.auto_parallel.intermediate",
    "paddle.distributed.auto_parallel.intermediate.parallelize",
    "paddle.distributed.auto_parallel.intermediate.parallelize.parallelize",
    "paddle.distributed.auto_parallel.intermediate.tensor_parallel",
    "paddle.distributed.auto_parallel.intermediate.tensor_parallel.ColWiseParallel",
]

# typical objects: isinstance(object, cls) is recorded for every class of the table
SAMPLES = {
    "tensor": lambda p: p.to_tensor([1.0]),
    "int64 tensor": lambda p: p.to_tensor([1]),
    "parameter": lambda p: p.nn.Linear(2, 2).weight,
    "create_parameter": lambda p: p.create_parameter([2], "float32"),
    "layer": lambda p: p.nn.Linear(2, 2),
    "CPUPlace()": lambda p: p.CPUPlace(),
    "tensor.place": lambda p: p.to_tensor([1.0]).place,
    "set_device('cpu')": lambda p: p.set_device("cpu"),
    "_current_expected_place()": lambda p: p.base.framework._current_expected_place(),
    "paddle.float32": lambda p: p.float32,
    "VarType.FP32": lambda p: p.base.core.VarDesc.VarType.FP32,
    "tensor.shape": lambda p: p.to_tensor([1.0]).shape,
    "ParamAttr()": lambda p: p.ParamAttr(),
    "SGD": lambda p: p.optimizer.SGD(parameters=p.nn.Linear(2, 2).parameters()),
    "StepDecay": lambda p: p.optimizer.lr.StepDecay(0.1, 2),
    "Generator()": lambda p: p.Generator(),
    "InputSpec": lambda p: p.static.InputSpec([2]),
    "TensorDataset": lambda p: p.io.TensorDataset([p.to_tensor([1.0])]),
    "Program()": lambda p: p.static.Program(),
    "ndarray": lambda p: np.zeros(1),
    "int": lambda p: 1,
    "str": lambda p: "float32",
}

# objects of static mode, checked while static mode is on (isinstance of Variable / Value depends on the mode)
STATIC_SAMPLES = {
    "static data": lambda p: p.static.data("x", [2], "float32"),
    "static parameter": lambda p: p.static.create_parameter([2], "float32"),
    "static op result": lambda p: p.static.data("y", [2], "float32") + 1,
}

# classes an instance is checked against
REFERENCE_CLASSES = ["paddle.dtype", "paddle.base.core.VarDesc.VarType", "paddle.Tensor", "paddle.base.core.Place",
                     "paddle.nn.Layer", "paddle.base.core.AmpLevel"]


class Missing(Exception):
    """The name does not exist (AttributeError / ModuleNotFoundError on the way)."""


def resolve(paddle, dotted):
    """The object a dotted paddle name names, attribute by attribute, importing submodules as `import` would."""
    parts = dotted.split(".")
    assert parts[0] == "paddle"
    obj = paddle
    for i in range(1, len(parts)):
        try:
            obj = getattr(obj, parts[i])
        except NotImplementedError:
            raise
        except AttributeError as e:
            if inspect.ismodule(obj):
                try:
                    obj = importlib.import_module(".".join(parts[:i + 1]))
                    continue
                except ModuleNotFoundError:
                    pass
            raise Missing(f"{dotted}: {type(e).__name__}: {e}") from None
    return obj


def kind(obj):
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes, tuple, list, dict, set, frozenset)):
        return "other"
    return "instance"


def _build(paddle, samples):
    out = {}
    for name, make in samples.items():
        try:
            out[name] = make(paddle)
        except Exception:  # noqa: BLE001 - a sample one side cannot make is left out of the comparison
            out[name] = None
    return out


def _isinstance_names(cls, objs):
    hits = []
    for name, o in objs.items():
        if o is None:
            continue
        try:
            if isinstance(o, cls):
                hits.append(name)
        except Exception:  # noqa: BLE001
            hits.append(f"{name}: error")
    return sorted(hits)


def all_names(api_table):
    names = [f"{ns}.{n}" for ns, table in api_table["namespaces"].items() for n in table]
    return names + [n for n in SEMI_PUBLIC if n not in set(names)]


def describe(paddle, names):
    """{name: entry} for every name, with the samples built on this side (None where one could not be made)."""
    objs = _build(paddle, SAMPLES)
    refs = {}
    for r in REFERENCE_CLASSES:
        try:
            refs[r] = resolve(paddle, r)
        except Exception:  # noqa: BLE001
            pass
    entries, resolved = {}, {}
    for name in names:
        try:
            obj = resolve(paddle, name)
        except NotImplementedError as e:
            entries[name] = {"kind": "unsupported", "error": str(e)[:200]}
            continue
        except Missing:
            entries[name] = {"kind": "missing"}
            continue
        except Exception as e:  # noqa: BLE001 - resolving raised something else: record it
            entries[name] = {"kind": "error", "error": f"{type(e).__name__}: {str(e)[:200]}"}
            continue
        k = kind(obj)
        entry = {"kind": k}
        if k == "class":
            entry["isinstance"] = _isinstance_names(obj, objs)
        elif k == "instance":
            entry["instance_of"] = sorted(r for r, c in refs.items() if isinstance(obj, c))
        entries[name] = entry
        resolved[name] = obj
    # isinstance in static mode, for the classes whose answers depend on it
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            sobjs = _build(paddle, STATIC_SAMPLES)
            for name, obj in resolved.items():
                if entries[name]["kind"] == "class":
                    entries[name]["static_isinstance"] = _isinstance_names(obj, sobjs)
    finally:
        paddle.disable_static()
    # names that are one object (classes and modules only)
    groups = {}
    for name, obj in resolved.items():
        if entries[name]["kind"] in ("class", "module"):
            groups.setdefault(id(obj), []).append(name)
    identity = sorted(sorted(g) for g in groups.values() if len(g) > 1)
    return {"entries": entries, "identity": identity,
            "samples": sorted(n for n, o in objs.items() if o is not None)}


def load_golden():
    from tests import golden_file

    return golden_file.answers("api_kinds")
