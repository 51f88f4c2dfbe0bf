"""paddle.save / paddle.load round trips: what comes back (Tensor or ndarray, names, containers) and errors."""
import collections
import contextlib
import io
import os
import pathlib
import shutil
import tempfile

import numpy as np

from tests.cases import case


@contextlib.contextmanager
def _tmpdir():
    d = tempfile.mkdtemp(prefix="pot_io_case_")
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _roundtrip(paddle, obj, name="obj.pd", save_kw=None, **load_kw):
    with _tmpdir() as d:
        path = os.path.join(d, name)
        paddle.save(obj, path, **(save_kw or {}))
        return paddle.load(path, **load_kw)


def _named(paddle, values, name, dtype="float32"):
    t = paddle.to_tensor(values, dtype=dtype)
    t.name = name
    return t


def _state(paddle):
    return collections.OrderedDict(weight=_named(paddle, [[0.5, -1.25], [2.0, 3.5]], "fc.w_0"),
                                   bias=_named(paddle, [0.25, -0.5], "fc.b_0"))


def _names(obj):
    """The Tensor names in a loaded object, in order (None for what is not a Tensor)."""
    if isinstance(obj, dict):
        return [[k, _names(v)] for k, v in obj.items()]
    if isinstance(obj, (list, tuple)):
        return [_names(v) for v in obj]
    if hasattr(obj, "stop_gradient"):  # a Tensor: its name (generated names differ in their counter)
        return "generated" if obj.name.startswith("generated_tensor") else obj.name
    return type(obj).__name__


# ---------------------------------------------------------------- state dicts


@case
def state_dict_roundtrip(paddle):
    r = _roundtrip(paddle, _state(paddle), "m.pdparams")
    return r, type(r).__name__, _names(r)


@case
def state_dict_protocols(paddle):
    return [_roundtrip(paddle, _state(paddle), "m.pdparams", {"protocol": p}) for p in (2, 3, 4)]


@case
def state_dict_return_numpy(paddle):
    r = _roundtrip(paddle, _state(paddle), "m.pdparams", return_numpy=True)
    return r, _names(r)


@case
def state_dict_keep_name_table(paddle):
    r = _roundtrip(paddle, _state(paddle), "m.pdparams", keep_name_table=True)
    return list(r), r["StructuredToParameterName@@"]


@case
def state_dict_dtypes(paddle):
    sd = {"f64": paddle.to_tensor([1.5, 2.5], dtype="float64"), "i64": paddle.to_tensor([[1, 2]]),
          "i32": paddle.to_tensor([7], dtype="int32"), "b": paddle.to_tensor([True, False]),
          "c64": paddle.to_tensor([1 + 2j], dtype="complex64"), "f16": paddle.to_tensor([0.5], dtype="float16"),
          "bf16": paddle.to_tensor([1.5, -2.0], dtype="bfloat16"), "u8": paddle.to_tensor([3], dtype="uint8"),
          "scalar": paddle.to_tensor(4.0), "empty": paddle.zeros([0, 3])}
    return _roundtrip(paddle, sd)


@case
def optimizer_like_state_dict(paddle):
    sd = {"fc.w_0_moment1_0": _named(paddle, [0.1, 0.2], "fc.w_0_moment1_0"),
          "fc.w_0_beta1_pow_acc_0": _named(paddle, [0.9], "fc.w_0_beta1_pow_acc_0"),
          "LR_Scheduler": {"last_epoch": 3, "last_lr": 0.05}}
    r = _roundtrip(paddle, sd, "adam.pdopt")
    return r, _names(r)


@case
def nested_dict_without_tensors_is_a_state_dict(paddle):
    return _roundtrip(paddle, {"a": {"b": 1, "c": [1.5, "x"]}}, keep_name_table=True)


@case
def empty_state_dict(paddle):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _roundtrip(paddle, {}), _roundtrip(paddle, {}, keep_name_table=True)


@case
def parameters_keep_their_names(paddle):
    layer = paddle.nn.Layer()
    w = layer.create_parameter([2, 2], default_initializer=paddle.nn.initializer.Constant(0.5))
    w.name = "my_layer.w_0"
    r = _roundtrip(paddle, {"w": w}, "p.pdparams")
    return r["w"], r["w"].name, r["w"].stop_gradient, type(r["w"]).__name__


# ---------------------------------------------------------------- other objects


@case
def lone_tensor(paddle):
    r = _roundtrip(paddle, _named(paddle, [[1.0, 2.0], [3.0, 4.0]], "lone_0"), "t.pdtensor")
    return r, r.name, r.stop_gradient


@case
def lone_tensor_return_numpy(paddle):
    return _roundtrip(paddle, paddle.to_tensor([1, 2, 3]), "t.pdtensor", return_numpy=True)


@case
def tensor_requiring_grad_loads_with_stop_gradient(paddle):
    return _roundtrip(paddle, paddle.to_tensor([1.0, 2.0], stop_gradient=False)).stop_gradient


@case
def nested_containers(paddle):
    obj = [_named(paddle, [1.0, 2.0], "a_0"), np.arange(3),
           {"x": (1, 2.5, "ab", None, True), "t": (_named(paddle, [3], "b_0"),)},
           collections.OrderedDict(k=np.ones([2], "float32")), {1, 2}, 3 + 4j, np.float32(2.5)]
    r = _roundtrip(paddle, obj)
    return r, _names(r), type(r[3]).__name__


@case
def nested_containers_protocol_2_and_3(paddle):
    obj = {"t": [_named(paddle, [1.5], "a_0")], "n": np.arange(4).reshape(2, 2), "s": "text"}
    return [_roundtrip(paddle, obj, save_kw={"protocol": p}) for p in (2, 3)]


@case
def nested_containers_return_numpy(paddle):
    obj = [_named(paddle, [1.0, 2.0], "a_0"), (np.arange(3), {"k": _named(paddle, [5], "b_0")})]
    return _roundtrip(paddle, obj, return_numpy=True)


@case
def arrays_without_tensors_become_tensors(paddle):
    r = _roundtrip(paddle, [np.arange(3), (np.ones([2, 2]),), {"k": np.float32([1.5])}])
    return r, _names(r)


@case
def lone_ndarray(paddle):
    return _roundtrip(paddle, np.arange(6, dtype="int32").reshape(2, 3)), _roundtrip(
        paddle, np.arange(3), return_numpy=True)


@case
def name_ndarray_tuple_is_read_as_a_tensor(paddle):
    r = _roundtrip(paddle, ("my_name", np.arange(3.0)))
    return r, r.name


@case
def python_values(paddle):
    return [_roundtrip(paddle, v) for v in (5, 2.5, "text", None, True, [1, [2, (3,)]], {"a": 1}, {3, 4})]


@case
def bfloat16_tensor(paddle):
    return _roundtrip(paddle, paddle.to_tensor([1.5, 2.0, -3.0], dtype="bfloat16"))


@case
def bytes_io_roundtrip(paddle):
    buf = io.BytesIO()
    paddle.save(_state(paddle), buf)
    buf.seek(0)
    a = paddle.load(buf)
    buf = io.BytesIO()
    paddle.save([paddle.to_tensor([1, 2])], buf, protocol=2)
    buf.seek(0)
    return a, paddle.load(buf)


@case
def binary_format_tensor(paddle):
    t = paddle.to_tensor([[1.5, 2.5, 3.5], [4.0, 5.0, 6.0]])
    return (_roundtrip(paddle, t, "t.bin", {"use_binary_format": True}),
            _roundtrip(paddle, paddle.to_tensor([7, 8, 9]), "i.bin", {"use_binary_format": True}, return_numpy=True))


@case
def save_creates_directories(paddle):
    with _tmpdir() as d:
        path = os.path.join(d, "a", "b", "m.pdparams")
        paddle.save(_state(paddle), path)
        return os.path.isfile(path), sorted(os.listdir(os.path.join(d, "a", "b")))


@case
def save_overwrites(paddle):
    with _tmpdir() as d:
        path = os.path.join(d, "m.pdparams")
        paddle.save({"w": paddle.to_tensor([1.0])}, path)
        paddle.save({"w": paddle.to_tensor([2.0, 3.0])}, path)
        return paddle.load(path), sorted(os.listdir(d))


@case
def pickle_protocol_config(paddle):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _roundtrip(paddle, [paddle.to_tensor([1.0])], save_kw={"pickle_protocol": 2})


# ---------------------------------------------------------------- errors


@case
def error_protocol_too_high(paddle):
    return _roundtrip(paddle, _state(paddle), save_kw={"protocol": 5})


@case
def error_protocol_too_low_nested(paddle):
    return _roundtrip(paddle, [1], save_kw={"protocol": 1})


@case
def error_protocol_not_int(paddle):
    return _roundtrip(paddle, [1], save_kw={"protocol": "2"})


@case
def error_unknown_save_config(paddle):
    return _roundtrip(paddle, [1], save_kw={"foo": 1})


@case
def error_unknown_load_config(paddle):
    return _roundtrip(paddle, [1], foo=1)


@case
def error_use_binary_format_not_bool(paddle):
    return _roundtrip(paddle, paddle.to_tensor([1.0]), save_kw={"use_binary_format": 1})


@case
def error_binary_format_needs_a_tensor(paddle):
    return _roundtrip(paddle, [paddle.to_tensor([1.0])], save_kw={"use_binary_format": True})


@case
def error_save_layer(paddle):
    return _roundtrip(paddle, [paddle.nn.Layer()])


@case
def error_save_bytes(paddle):
    return _roundtrip(paddle, b"abc")


@case
def error_save_frozenset(paddle):
    return _roundtrip(paddle, frozenset([1]))


@case
def error_save_path_object(paddle):
    with _tmpdir() as d:
        paddle.save([1], pathlib.Path(d) / "x.pd")


@case
def error_save_empty_filename(paddle):
    with _tmpdir() as d:
        paddle.save([1], d + os.sep)


@case
def error_save_to_non_path(paddle):
    paddle.save([1], 42)


@case
def error_load_missing_file(paddle):
    with _tmpdir() as d:
        paddle.load(os.path.join(d, "missing.pdparams"))


@case
def error_load_missing_prefix(paddle):
    with _tmpdir() as d:
        paddle.save(_state(paddle), os.path.join(d, "model.pdparams"))
        paddle.load(os.path.join(d, "model"))


@case
def error_load_empty_file(paddle):
    with _tmpdir() as d:
        open(os.path.join(d, "e.pdparams"), "wb").close()
        paddle.load(os.path.join(d, "e.pdparams"))


@case
def error_load_garbage(paddle):
    with _tmpdir() as d:
        with open(os.path.join(d, "g.pdparams"), "wb") as f:
            f.write(b"this is not a paddle file at all" * 3)
        paddle.load(os.path.join(d, "g.pdparams"))


@case
def error_load_truncated(paddle):
    with _tmpdir() as d:
        path = os.path.join(d, "m.pdparams")
        paddle.save(_state(paddle), path, protocol=2)
        data = open(path, "rb").read()
        errors = []
        for n in (1, 10, 50, 100, len(data) // 2):
            with open(path, "wb") as f:
                f.write(data[:n])
            try:
                paddle.load(path)
                errors.append("loaded")
            except Exception as e:  # noqa: BLE001 - the error type is the answer
                errors.append(type(e).__name__)
        return errors


# Paddle 3.3.1 aborts the process when a tensor from MmapStorage.get_slice is freed ("The deleter of the pointer is
# not found"): the recorder keeps them alive to the end (it aborts at exit, after writing the goldens).
_KEEP_ALIVE = []


@case
def mmap_storage_slices(paddle):
    """MmapStorage maps a file copy-on-write; get_slice counts elements from a byte offset (Paddle 3.3.1)."""
    with _tmpdir() as d:
        path = os.path.join(d, "t.pp")
        np.arange(20, dtype="float32").tofile(path)
        storage = paddle.MmapStorage(path, 80)
        whole = storage.get_slice(dtype=paddle.float32, start=0, stop=20).reshape([4, 5])
        part = storage.get_slice(paddle.float32, 4, 8)
        part[0] = 100.0  # seen by later slices, never by the file
        out = (whole, part, storage.get_slice(paddle.int32, 0, 3), storage.get_slice(paddle.float32, 5, 2),
               storage.get_slice(paddle.uint8, 8, 12), np.fromfile(path, dtype="float32")[:3])
        _KEEP_ALIVE.append((storage, out))
        return out


@case
def mmap_storage_errors(paddle):
    with _tmpdir() as d:
        path = os.path.join(d, "t.pp")
        np.zeros(4, dtype="float32").tofile(path)
        out = []
        for args in [(os.path.join(d, "missing.pp"), 8), (path, 1000)]:
            try:
                paddle.MmapStorage(*args)
            except RuntimeError as e:
                out.append(str(e).split(" (at ")[0].replace(d, "<dir>"))
        return out
