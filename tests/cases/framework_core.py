"""Paddle's type identities and semi-public framework layer: places, dtype objects and their comparisons,
paddle.base.core / base.framework / dygraph tracer / pir / pir_utils / common_ops_import / static.amp, and the
paddle.utils helpers libraries import (map_structure & co., download's cache lookup, dataset.common)."""
import collections
import contextlib
import io
import os
import tarfile
import tempfile
import zipfile

import numpy as np

from tests.cases import case


def _try(f):
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the error type is part of the answer
        return f"{type(e).__name__}"


# ------------------------------------------------------------------------------------------------ places

@case
def place_classes(paddle):
    core = paddle.base.core
    t = paddle.to_tensor([1.0])
    cpu = paddle.CPUPlace()
    p = core.Place()
    out = [isinstance(cpu, paddle.CPUPlace), isinstance(cpu, core.Place), isinstance(t.place, paddle.CPUPlace),
           isinstance(t.place, core.Place), cpu == t.place, t.place == cpu, hash(cpu) == hash(t.place),
           str(cpu), repr(t.place), str(p), issubclass(paddle.CUDAPlace, core.Place),
           issubclass(paddle.CPUPlace, paddle.CUDAPlace), cpu.is_cpu_place(), cpu.is_gpu_place(),
           cpu.is_xpu_place(), cpu.is_custom_place(), cpu.is_cuda_pinned_place(), cpu.is_ipu_place(),
           type(paddle.set_device("cpu")) is paddle.CPUPlace,
           type(paddle.base.framework._current_expected_place()) is paddle.CPUPlace,
           type(paddle.framework._current_expected_place_()) is paddle.CPUPlace, {cpu: 1}.get(t.place)]
    p.set_place(cpu)
    out += [str(p), p == cpu, type(p) is core.Place]
    return out


@case
def place_constructor_errors(paddle):
    return [_try(lambda: paddle.CPUPlace(1)), _try(lambda: paddle.CUDAPlace(0)),
            _try(lambda: paddle.CUDAPinnedPlace()), _try(lambda: paddle.XPUPlace(0)),
            _try(lambda: paddle.XPUPinnedPlace()), _try(lambda: paddle.CustomPlace("npu", 0)),
            _try(lambda: paddle.framework.IPUPlace()), _try(lambda: paddle.device.XPUPlace(0)),
            _try(lambda: paddle.device.IPUPlace())]


@case
def place_as_argument(paddle):
    x = paddle.to_tensor([1.0, 2.0], place=paddle.CPUPlace())
    y = paddle.to_tensor([3.0], place=paddle.base.core.CPUPlace())
    return [x, y, str(x.place), paddle.nn.Linear(2, 2).to(paddle.CPUPlace()).weight.place == paddle.CPUPlace()]


# ------------------------------------------------------------------------------------------------ dtypes

@case
def dtype_objects(paddle):
    core = paddle.base.core
    V, D = core.VarDesc.VarType, core.DataType
    t = paddle.to_tensor([1.0])
    return [paddle.float32 is D.FLOAT32, paddle.dtype is D, paddle.base.libpaddle.DataType is D,
            paddle.float32 == V.FP32, V.FP32 == paddle.float32, D.FLOAT32 == 10, V.FP32 == 5, V.FP32 != 5,
            int(V.FP32), int(paddle.float32), hash(V.FP32), str(V.FP32), repr(V.FP32), str(V.BF16), str(V.RAW),
            str(V.STRING), str(V.DENSE_TENSOR), repr(V.LOD_TENSOR), V.LOD_TENSOR is V.DENSE_TENSOR, V.FP32.name,
            V.FP32.value, repr(paddle.dtype(10)), paddle.dtype(10) == paddle.float32, str(D.UINT16), repr(D.UINT16),
            str(D.PSTRING), str(D.UNDEFINED), repr(D.ALL_DTYPE), t.dtype == V.FP32, t.dtype is paddle.float32,
            str(t.type), t.type == V.DENSE_TENSOR, V.FP32 in [paddle.float32], repr(V(5)), isinstance(V.FP32, int),
            sorted(V.__members__)[:5], sorted(D.__members__)[:5], _try(lambda: paddle.dtype("float32"))]


@case
def vartype_as_dtype_argument(paddle):
    V = paddle.base.core.VarDesc.VarType
    x = paddle.ones([2], dtype=V.FP64)
    return [x, paddle.cast(x, V.FP32), x.astype(V.INT32), paddle.zeros([1], dtype=V.BF16).dtype,
            paddle.to_tensor([1, 2], dtype=V.INT64)]


@case
def amp_level_enum(paddle):
    A = paddle.base.core.AmpLevel
    return [repr(A.O1), str(A.O1), int(A.O2), A.O1 == 1, A.O1 == A.O1, A.O0 == A.O1, sorted(A.__members__)]


@case
def convert_dtype_names(paddle):
    import numpy as np

    from paddle.common_ops_import import convert_dtype

    V = paddle.base.core.VarDesc.VarType
    out = []
    for d in ["float32", paddle.float32, V.FP32, np.float32, np.dtype("float64"), "bfloat16", paddle.bfloat16, V.BF16,
              "uint16", paddle.int64, V.INT8, bool, "complex64", "float8_e4m3fn", paddle.float16]:
        out.append(_try(lambda: convert_dtype(d)))
    out += [_try(lambda: convert_dtype("float")), _try(lambda: convert_dtype(int)),
            _try(lambda: convert_dtype(paddle.pstring))]
    return out


@case
def pir_dtype_tables(paddle):
    import numpy as np

    c = paddle.pir.core
    V = paddle.base.core.VarDesc.VarType
    return [str(c.vartype_to_datatype[V.FP32]), str(c.vartype_to_datatype[V.BF16]),
            repr(c.datatype_to_vartype[paddle.float16]), str(c.convert_np_dtype_to_dtype_("float32")),
            str(c.convert_np_dtype_to_dtype_(np.float64)), str(c.convert_np_dtype_to_dtype_("bfloat16")),
            _try(lambda: c.convert_np_dtype_to_dtype_(paddle.float32)),
            str(paddle.base.framework.convert_np_dtype_to_dtype_("int32")),
            str(paddle.base.framework.convert_np_dtype_to_dtype_(paddle.float64))]


# ------------------------------------------------------------------------------------------------ core

@case
def core_queries(paddle):
    core = paddle.base.core
    out = [core.is_compiled_with_cuda(), core.is_compiled_with_xpu(), core.is_compiled_with_rocm(),
           core.is_compiled_with_ipu(), core.is_compiled_with_custom_device("npu"),
           core.device_memory_stat_current_value("Allocated", 0), core.device_memory_stat_peak_value("Reserved", 0),
           _try(lambda: core.device_memory_stat_current_value("Foo", 0)), core.size_of_dtype(paddle.float32),
           core.size_of_dtype(core.VarDesc.VarType.FP16), core.size_of_dtype(paddle.bfloat16),
           core.size_of_dtype(paddle.int64), core.get_all_custom_device_type(),
           _try(lambda: core.get_custom_device_count("npu")), _try(lambda: core.default_cuda_generator(0)),
           _try(lambda: core.default_xpu_generator(0)),
           _try(lambda: core.default_custom_device_generator(paddle.CPUPlace())),
           hasattr(core, "nvprof_start"), hasattr(core, "nvprof_nvtx_push"), hasattr(core, "get_cuda_device_count"),
           paddle.core is core, paddle.framework.core is core, paddle.Tensor is core.eager.Tensor]
    out.append(core._has_grad())
    with paddle.no_grad():
        out.append(core._has_grad())
    core._set_has_grad(False)
    out.append(paddle.is_grad_enabled())
    core._set_has_grad(True)
    out.append(paddle.is_grad_enabled())
    return out


@case
def core_flag_registry(paddle):
    g = paddle.base.core.globals()
    out = [g["FLAGS_check_nan_inf"], "FLAGS_check_nan_inf" in g, "FLAGS_no_such_flag" in g,
           _try(lambda: g["FLAGS_no_such_flag"]), g.get_default("FLAGS_check_nan_inf"), g.is_public("FLAGS_check_nan_inf")]
    g["FLAGS_check_nan_inf"] = True
    out.append(paddle.get_flags("FLAGS_check_nan_inf"))
    paddle.set_flags({"FLAGS_check_nan_inf": False})
    out.append(g["FLAGS_check_nan_inf"])
    return out


@case
def prim_switches(paddle):
    core = paddle.framework.core

    def state():
        return [core._is_fwd_prim_enabled(), core._is_bwd_prim_enabled(), core._is_eager_prim_enabled(),
                core._is_all_prim_enabled()]

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = [state()]
        core._set_prim_all_enabled(True, True)
        out.append(state())
        core.set_prim_eager_enabled(True, True)
        out.append(state())
        core._set_prim_all_enabled(False)
        out.append(state())
        core._set_prim_forward_enabled(True)
        out.append(state())
        core._set_prim_backward_enabled(True)
        out.append(state())
        out.append(_try(lambda: core._set_prim_all_enabled(1)))
        core._set_prim_all_enabled(False)
        core.set_prim_eager_enabled(False)
        out.append(state())
    return [out, buf.getvalue()]


@case
def default_generators(paddle):
    core = paddle.base.core
    g = core.default_cpu_generator()
    s = paddle.seed(7)
    out = [s is g, g.initial_seed(), paddle.Generator() is g, paddle.Generator("cpu") is g,
           isinstance(g, core.Generator), isinstance(paddle.Generator(), paddle.Generator), g.manual_seed(11) is g,
           g.initial_seed()]
    state = g.get_state()
    a = paddle.rand([3])
    g.set_state(state)
    b = paddle.rand([3])
    out.append(bool((a == b).all()))
    return out


@case
def manual_program_seed(paddle):
    paddle.framework.random._manual_program_seed(123)
    out = [paddle.static.default_main_program().random_seed, paddle.static.default_startup_program().random_seed]
    paddle.framework.random._manual_program_seed(0)
    return out


@case
def dygraph_tracer(paddle):
    fw = paddle.base.framework
    tr = fw._dygraph_tracer()
    out = [tr is paddle.framework._dygraph_tracer(), repr(tr._amp_level), tr._amp_dtype, tr._has_grad,
           tr._use_promote, tr._get_amp_op_list(), tr._amp_level == paddle.core.AmpLevel.O0, str(tr._expected_place),
           isinstance(tr, paddle.base.core.Tracer)]
    with paddle.no_grad():
        out.append(tr._has_grad)
    tr._has_grad = False
    out.append(paddle.is_grad_enabled())
    tr._has_grad = True
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with paddle.amp.auto_cast():  # (no effect on the CPU, in Paddle and here)
            out += [repr(tr._amp_level), tr._amp_dtype]
    paddle.enable_static()
    try:
        out += [fw._dygraph_tracer() is None, str(fw._current_expected_place()), fw.in_dygraph_mode(),
                fw.in_pir_mode(), fw.in_dynamic_or_pir_mode(), paddle.framework.in_dynamic_or_pir_mode(),
                paddle.base.dygraph.enabled()]
    finally:
        paddle.disable_static()
    out += [fw.in_dygraph_mode(), fw.in_pir_mode(), fw.in_dynamic_or_pir_mode(), fw.use_pir_api()]
    return out


# ------------------------------------------------------------------------------------------------ framework helpers

@case
def framework_decorators(paddle):
    fw = paddle.base.framework

    @fw.non_static_only
    def dyn(x):
        return x * 2

    out = [dyn(3), paddle.nn.layer.layers.in_declarative_mode(), paddle.base.dygraph.base.in_to_static_mode()]
    with paddle.framework._no_check_dy2st_diff():
        out.append("inside")
    with fw._stride_in_no_check_dy2st_diff():
        out.append("inside2")
    paddle.enable_static()
    try:
        out.append(_try(lambda: dyn(3)))
        with paddle.base.dygraph.guard():
            out.append(paddle.in_dynamic_mode())
        out.append(paddle.in_dynamic_mode())
    finally:
        paddle.disable_static()
    return out


@case
def recall_errors(paddle):
    r = paddle.framework.recall_error
    return [r.AADIFF_ERROR, r.LOSS_NAN_ERROR, r.LOSS_INF_ERROR, r.SHARDING_PAD_NON_ZERO_ERROR,
            r.check_naninf(paddle.to_tensor([1.0, 2.0])), r.check_naninf(paddle.to_tensor([1.0, float("nan")])),
            r.check_naninf(paddle.to_tensor([float("inf"), float("nan")])),
            r.check_naninf(paddle.to_tensor([float("-inf")]))]


@case
def param_from_tensor(paddle):
    t = paddle.to_tensor([1.0, 2.0])
    p = paddle.base.framework.EagerParamBase.from_tensor(t, name="w_from")
    q = paddle.base.framework.EagerParamBase.from_tensor(t, trainable=False)
    return [p, p.name, p.stop_gradient, p.trainable, p.persistable, isinstance(p, paddle.framework.Parameter),
            type(p) is paddle.framework.io.EagerParamBase, q.stop_gradient, q.trainable]


@case
def framework_io_helpers(paddle):
    import numpy as np

    fio = paddle.framework.io
    obj = {"a": np.ones(2, "float32"), "b": [np.zeros(1, "int64"), "s"], "c": (np.ones(1), 3)}
    conv = fio._parse_every_object(obj, fio._transformed_from_lodtensor, lambda a: a.sum() + 1)
    return [conv, fio._transformed_from_lodtensor(np.ones(1)), fio._transformed_from_lodtensor([1]),
            _try(lambda: fio._to_LodTensor([1.0])),
            _try(lambda: fio._parse_every_object(iter([1]), lambda x: False, lambda x: x))]


@case
def data_feeder_checks(paddle):
    from paddle.common_ops_import import check_dtype, check_type, check_variable_and_dtype

    t = paddle.to_tensor([1.0])
    out = [check_type(t, "x", int, "op"), check_dtype(paddle.float32, "x", ["int64"], "op"),
           check_variable_and_dtype(t, "x", ["int64"], "op"), _try(lambda: check_variable_and_dtype(3, "x", [], "op"))]
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [2], "float32")
            out += [check_variable_and_dtype(x, "x", ["float32", "float64"], "op"),
                    _try(lambda: check_variable_and_dtype(x, "x", ["int64"], "op")),
                    _try(lambda: check_type(t, "x", paddle.pir.Value, "op")),
                    _try(lambda: check_type(3, "x", paddle.pir.Value, "op")),
                    check_type(3, "x", int, "op"), check_dtype(paddle.float32, "x", ["float32"], "op"),
                    _try(lambda: check_dtype(paddle.float32, "x", ["int32"], "op"))]
    finally:
        paddle.disable_static()
    return out


@case
def static_amp_guards(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    with paddle.static.amp.fp16_guard():
        y = x * 2
    with paddle.static.amp.bf16.bf16_guard():
        z = y + 1
    return [y, z]


@case
def pir_guards(paddle):
    from paddle.pir_utils import DygraphPirGuard, IrGuard

    out = [paddle.in_dynamic_mode()]
    with IrGuard():
        out += [paddle.in_dynamic_mode(), paddle.framework.in_pir_mode(),
                isinstance(paddle.static.data("g", [1], "float32"), paddle.pir.Value)]
    out.append(paddle.in_dynamic_mode())
    with DygraphPirGuard():
        out.append(paddle.in_dynamic_mode())
    out += [paddle.pir.Program is paddle.static.Program, isinstance(paddle.to_tensor([1.0]), paddle.pir.Value)]
    return out


@case
def old_ir_guards(paddle):
    """OldIrGuard runs its block in static mode with FLAGS_enable_pir_api off (in_pir_mode() False there); a
    Program built inside runs; DygraphOldIrGuard only turns the flag off; both restore it."""
    from paddle.pir_utils import DygraphOldIrGuard, OldIrGuard

    flag = lambda: paddle.get_flags("FLAGS_enable_pir_api")["FLAGS_enable_pir_api"]  # noqa: E731
    out = []
    with OldIrGuard():
        out += [paddle.in_dynamic_mode(), paddle.framework.in_pir_mode(), flag()]
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [2, 3], "float32")
            y = paddle.nn.functional.relu(x * 2 - 3) + 1
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        out += exe.run(main, feed={"x": np.arange(6, dtype="float32").reshape(2, 3)}, fetch_list=[y])
    out += [paddle.in_dynamic_mode(), flag()]
    with DygraphOldIrGuard():
        out += [paddle.in_dynamic_mode(), flag(), paddle.to_tensor([1.0, 2.0]) * 2]
    out.append(flag())
    return out


# ------------------------------------------------------------------------------------------------ paddle.utils

_Pair = collections.namedtuple("_Pair", ["left", "right"])


@case
def nested_structures(paddle):
    u = paddle.utils
    nest = {"b": [1, (2, 3)], "a": _Pair(4, {"y": 5, "x": 6}), "c": "str"}
    flat = u.flatten(nest)
    packed = u.pack_sequence_as(nest, [v * 10 if isinstance(v, int) else v for v in flat])
    mapped = u.map_structure(lambda a, b: (a, b), [1, [2]], [3, [4]])
    return [flat, packed, list(packed), type(packed["a"]).__name__, mapped, u.flatten(7), u.flatten("ab"),
            u.is_sequence("ab"), u.is_sequence({}), u.is_sequence((1,)), u.to_sequence(3), u.to_sequence([3]),
            u.pack_sequence_as(3, [9]), _try(lambda: u.pack_sequence_as(3, [9, 8])),
            _try(lambda: u.pack_sequence_as([1, 2], [9])), _try(lambda: u.pack_sequence_as([1], 9)),
            u.assert_same_structure([1, (2,)], [3, (4,)]), _try(lambda: u.assert_same_structure([1, 2], [1])),
            _try(lambda: u.assert_same_structure([1, (2,)], [1, [2]])),
            u.assert_same_structure([1, (2,)], [1, [2]], check_types=False),
            _try(lambda: u.assert_same_structure({"a": 1}, {"b": 1})),
            _try(lambda: u.assert_same_structure([1, 2], [1, [2]])),
            u.padding_to_same_structure([1, None, (None, 2)], None, obj=0), u.convert_to_list(3, 2, "stride"),
            u.convert_to_list((1, 2), 2, "stride"), _try(lambda: u.convert_to_list((1, 2, 3), 2, "stride")),
            _try(lambda: u.convert_to_list("ab", 2, "stride")), _try(lambda: u.convert_to_list(1.5, 2, "stride")),
            _try(lambda: u.convert_to_list(paddle.to_tensor([1]), 1, "stride")),
            _try(lambda: u.flatten({1: 1, "a": 2})), u.map_structure(lambda v: v + 1, {"k": [1, 2]}),
            u.layers_utils.hold_mutable_vars([1, [2]]), u.layers_utils.copy_mutable_vars([1, [2]])]


def _make_archives(root):
    os.makedirs(root, exist_ok=True)
    with zipfile.ZipFile(os.path.join(root, "onedir.zip"), "w") as z:
        z.writestr("onedir/a.txt", "a")
        z.writestr("onedir/sub/b.txt", "b")
    with tarfile.open(os.path.join(root, "many.tar.gz"), "w:gz") as t:
        for name, data in (("x.txt", b"x"), ("y.txt", b"yy")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    with open(os.path.join(root, "w.pdparams"), "wb") as f:
        f.write(b"weights")


@case
def download_cache(paddle):
    from paddle.utils import download as d

    out = [d.is_url("https://a/b"), d.is_url("http://a"), d.is_url("ftp://a"), d.is_url("/tmp/x"),
           d.WEIGHTS_HOME.endswith(os.path.join(".cache", "paddle", "hapi", "weights")),
           sorted(d._get_unique_endpoints(["10.0.0.2:6170", "10.0.0.1:6171", "10.0.0.1:6170"]))]
    with tempfile.TemporaryDirectory() as root:
        _make_archives(root)
        got = [d.get_path_from_url("https://example.invalid/p/onedir.zip", root),
               d.get_path_from_url("https://example.invalid/p/many.tar.gz", root),
               d.get_path_from_url("https://example.invalid/p/w.pdparams", root,
                                   md5sum="63f4f1e9b725370f459720575cd5f953"),
               d.get_path_from_url("https://example.invalid/p/onedir.zip", root, decompress=False)]
        out.append([os.path.relpath(p, root) for p in got])
        out.append(sorted(os.listdir(root)))
        out.append(sorted(os.listdir(got[1])))
        out.append(os.path.relpath(d._decompress(os.path.join(root, "onedir.zip")), root))
        out.append(_try(lambda: d._decompress(os.path.join(root, "w.pdparams"))))
    return out


@case
def dataset_common(paddle):
    from paddle.dataset import common

    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "f.bin")
        with open(path, "wb") as f:
            f.write(b"paddle")
        return [common.md5file(path), common.DATA_HOME.endswith(os.path.join(".cache", "paddle", "dataset")),
                common.HOME == common.DATA_HOME]


@case
def sysconfig_include(paddle):
    inc = paddle.sysconfig.get_include()
    return [os.path.basename(inc), os.path.isfile(os.path.join(inc, "paddle", "extension.h"))]
