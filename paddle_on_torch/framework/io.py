"""paddle.save / paddle.load: Paddle's pickle formats, read with a restricted unpickler.

Files are interchangeable with Paddle 3.3.1 both ways:

* a state dict (a dict whose values are all Tensors, or dicts holding no Tensors) is written
  as a plain dict of numpy arrays plus a `StructuredToParameterName@@` table mapping each key
  to its tensor's name (`.pdparams`, `.pdopt`);
* anything else (a lone Tensor, nested lists/tuples/dicts, numpy arrays, Python scalars) is
  pickled as it is, each Tensor as the tuple `(name, ndarray)`;
* with pickle protocol 2 or 3 an array over 1 GiB is split into `key@@.0`, `key@@.1`, ...
  described by an `UnpackBigParamInfor@@` entry (pickle cannot frame larger objects there);
* `use_binary_format=True` writes one Tensor in Paddle's binary DenseTensor format;
* `safetensors=True` reads and writes safetensors files.

Loading never runs code from the file: pickles go through the one restricted unpickler
(framework/safe_pickle.py), which resolves only the few globals these files reference (numpy's
array/scalar reconstruction, `numpy.dtype`, `collections.OrderedDict`, basic builtins,
`copyreg._reconstructor`, a latin-1-only `_codecs.encode`) and refuses every other global, so a
crafted pickle raises instead of executing; a saved static Program is data-only JSON
(static/program_file.py).  Saving to a path is atomic: the
bytes go to a temporary file in the same directory, which then replaces the target.
"""
import collections
import hashlib
import io
import os
import pickle
import re
import socket
import struct
import sys
import threading
import warnings

import numpy as np
import torch

from .. import _report
from . import safe_pickle
from .safe_pickle import UnsafePickleError  # noqa: F401  (paddle.framework.io.UnsafePickleError)

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue"]

_NAME_TABLE = "StructuredToParameterName@@"
_UNPACK_INFO = "UnpackBigParamInfor@@"
# Pickle protocols 2 and 3 cannot frame an object of 4 GiB or more; Paddle splits any array
# larger than this many bytes into slices (a module constant so tests can lower it).
_MAX_PICKLE_BYTES = 2**30 - 1


def _tensor_cls():
    from ..tensor.tensor import Tensor

    return Tensor


def _layer_cls():
    try:
        from ..nn.layer.layers import Layer
    except ImportError:  # pragma: no cover - nn is part of the package
        return ()
    return Layer


def _to_numpy(t):
    """A Tensor's values as a C-contiguous numpy array on the CPU (bfloat16 as raw uint16, as Paddle)."""
    a = t.numpy()
    return a if a.flags.c_contiguous else a.copy(order="C")  # (np.ascontiguousarray would make 0-D arrays 1-D)


def _to_tensor(array, name=None):
    from ..tensor.creation import to_tensor

    t = to_tensor(array)
    if name is not None:
        t.name = name
    return t


# ===================================================================== arguments

_SAVE_CONFIGS = ("use_binary_format", "pickle_protocol", "safetensors")
_LOAD_CONFIGS = ("model_filename", "params_filename", "keep_name_table", "return_numpy", "safetensors")


def _check_configs(configs, supported, api):
    for key in configs:
        if key not in supported:
            raise ValueError(f"The additional config ({key}) of `paddle.{api}` is not supported.")


def _check_protocol(protocol):
    if not isinstance(protocol, int):
        raise ValueError(f"The 'protocol' MUST be `int`, but received {type(protocol)}")
    if protocol < 2 or protocol > 4:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")


def _is_buffer(path):
    return isinstance(path, io.BytesIO)


def _prepare_file_path(path):
    if os.path.basename(path) == "":
        raise ValueError("The input path MUST be format of dirname/filename [dirname\\filename in Windows system], "
                         "but received filename is empty string.")
    dirname = os.path.dirname(path)
    if dirname and not os.path.exists(dirname):
        os.makedirs(dirname, exist_ok=True)


# a temporary file's name says which host and process writes it: `.<name>.<host>.<pid>.<random>.tmp`
_HOST = hashlib.sha1(socket.gethostname().encode()).hexdigest()[:8]


def _process_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (EPERM: it exists, as another user)
        return True
    return True


def _remove_stale_temporaries(directory, base):
    """Remove the temporary files that saves to this path left when their process was killed mid-write
    (a process of this host that no longer runs); a save still in progress keeps its file."""
    if os.name != "posix":  # (os.kill(pid, 0) is a liveness test on POSIX only)
        return
    stale = re.compile(rf"\.{re.escape(base)}\.(?:([0-9a-f]{{8}})\.)?(\d+)\.[0-9a-f]{{8}}\.tmp")
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        m = stale.fullmatch(name) if name.startswith(f".{base}.") else None
        if m is None or m.group(1) not in (None, _HOST) or _process_alive(int(m.group(2))):
            continue
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass


class _AtomicWriter:
    """A file opened for writing next to `path`; on success it replaces `path`, on error it vanishes.

    A process killed while writing cannot remove its temporary file: the next save to the same path does."""

    def __init__(self, path):
        self.path = path
        directory = os.path.dirname(os.path.abspath(path))
        base = os.path.basename(path)
        _remove_stale_temporaries(directory, base)
        for _ in range(100):
            tmp = os.path.join(directory, f".{base}.{_HOST}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
            try:
                # mode 0o666 so the final file gets the same umask-derived permissions as open(path, 'wb')
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            except FileExistsError:
                continue
            break
        else:  # pragma: no cover
            raise FileExistsError(f"could not create a temporary file next to {path}")
        self.tmp = tmp
        self.file = os.fdopen(fd, "wb")

    def __enter__(self):
        return self.file

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None:
                self.file.flush()
                os.fsync(self.file.fileno())
            self.file.close()
            if exc_type is None:
                os.replace(self.tmp, self.path)
        finally:
            if os.path.exists(self.tmp):
                os.unlink(self.tmp)
        return False


def _open_for_writing(path):
    if _is_buffer(path):
        return _BufferWriter(path)
    return _AtomicWriter(path)


class _BufferWriter:
    def __init__(self, buf):
        self.buf = buf

    def __enter__(self):
        return self.buf

    def __exit__(self, *exc):
        self.buf.flush()
        return False


# ===================================================================== save


def _is_state_dict(obj):
    """Paddle's test: a dict whose values are Tensors, or dicts whose values hold no Tensor or Layer."""
    if not isinstance(obj, dict):
        return False
    Tensor, Layer = _tensor_cls(), _layer_cls()

    def paddle_object(v):
        return isinstance(v, (Tensor, Layer))

    for value in obj.values():
        if isinstance(value, dict):
            for v in value.values():
                if _contains(v, paddle_object):
                    return False
        elif not isinstance(value, Tensor):
            return False
    return True


def _contains(obj, condition):
    if condition(obj):
        return True
    if type(obj) in (dict, collections.OrderedDict):
        return any(_contains(v, condition) for v in obj.values())
    if type(obj) in (list, tuple):
        return any(_contains(v, condition) for v in obj)
    return False


def _check_savable(obj):
    """Paddle walks the object before pickling: containers it knows, no other iterables."""
    Tensor = _tensor_cls()
    t = type(obj)
    if t in (dict, collections.OrderedDict):
        for v in obj.values():
            _check_savable(v)
    elif t in (list, tuple, set):
        for v in obj:
            _check_savable(v)
    elif (isinstance(obj, collections.abc.Iterable) and not isinstance(obj, (str, np.ndarray, Tensor))
          and not isinstance(obj, _layer_cls())):
        raise NotImplementedError("The iterable objects supported are tuple, list, dict, OrderedDict, string. "
                                  f"But received {type(obj)}.")


class _Pickler(pickle.Pickler):
    """Pickles a Tensor (or Parameter) as Paddle does: the tuple (name, ndarray); refuses Layers."""

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self._Tensor, self._Layer = _tensor_cls(), _layer_cls()

    def reducer_override(self, obj):
        if isinstance(obj, self._Tensor):
            return tuple, ((obj.name, _to_numpy(obj)),)
        if self._Layer and isinstance(obj, self._Layer):
            raise ValueError("paddle do not support saving `paddle.nn.Layer` object.")
        return NotImplemented


def _split_big_arrays(saved, protocol):
    """Paddle's splitting of arrays too big for pickle protocols 2 and 3 (`key@@.i` + an info entry)."""
    if not 1 < protocol < 4:
        return saved
    info, parts = {}, {}
    for key, value in saved.items():
        if isinstance(value, np.ndarray):
            limit = int(_MAX_PICKLE_BYTES / value.dtype.itemsize)
            n = int(np.prod(value.shape))
            if n > limit:
                flat = value.flatten()
                names = [f"{key}@@.{i}" for i in range(-(-n // limit))]
                info[key] = {"OriginShape": value.shape, "slices": names}
                for i, part in enumerate(names):
                    parts[part] = flat[i * limit:(i + 1) * limit]
    if info:
        for key, value in info.items():
            saved.pop(key)
            for part in value["slices"]:
                saved[part] = parts[part]
        saved[_UNPACK_INFO] = info
    return saved


def _save_state_dict(obj, f, protocol):
    if len(obj) == 0:
        warnings.warn("The input state dict is empty, no need to save.")
    _check_protocol(protocol)
    Tensor = _tensor_cls()
    saved, names = {}, {}
    for key, value in obj.items():
        if isinstance(value, Tensor):
            saved[key] = _to_numpy(value)
            names[key] = value.name
        else:
            saved[key] = value
    saved[_NAME_TABLE] = names
    saved = _split_big_arrays(saved, protocol)
    pickle.dump(saved, f, protocol=protocol)


def _save_object(obj, f, protocol):
    _check_protocol(protocol)
    _check_savable(obj)
    _Pickler(f, protocol).dump(obj)


def save(obj, path, protocol=4, **configs):
    """paddle.save: write `obj` (a state dict, Tensor, or nested containers of them) to a file or BytesIO."""
    if isinstance(path, str):
        _prepare_file_path(path)
    elif not _is_buffer(path):
        raise ValueError(f"only supports saving objects to file and `BytesIO`, but got {type(path)}")
    _check_configs(configs, _SAVE_CONFIGS, "save")
    use_binary = configs.get("use_binary_format", False)
    if not isinstance(use_binary, bool):
        raise TypeError(f"Type of `use_binary_format` should be bool, but received {type(use_binary)}.")
    if use_binary:
        _save_binary(obj, path)
        return
    if configs.get("pickle_protocol") is not None:
        protocol = configs["pickle_protocol"]
        warnings.warn("'pickle_protocol' is a deprecated argument. Please use 'protocol' instead.")
    static_program = sys.modules.get("paddle_on_torch.static.program")  # (loaded once static mode has been used)
    if static_program is not None and isinstance(obj, static_program.Program):
        from ..static.io import program_to_bytes

        with _open_for_writing(path) as f:
            f.write(program_to_bytes(obj))
        return
    if _is_state_dict(obj):
        if configs.get("safetensors", False):
            _save_safetensors(obj, path)
            return
        if not isinstance(obj, dict):  # pragma: no cover - _is_state_dict implies a dict
            raise NotImplementedError("Now only supports save state_dict of Layer or Optimizer, "
                                      f"expect dict, but received {type(obj)}.")
        _check_protocol(protocol)
        with _open_for_writing(path) as f:
            _save_state_dict(obj, f, protocol)
    else:
        _check_protocol(protocol)
        _check_savable(obj)
        with _open_for_writing(path) as f:
            _save_object(obj, f, protocol)


# ===================================================================== async_save

async_save_queue = []


def clear_async_save_task_queue():
    """Wait until every async_save task has finished."""
    while async_save_queue:
        task = async_save_queue.pop()
        if task and task.is_alive():
            task.join()


def _snapshot(obj):
    """A CPU copy of each Tensor (names kept), so the values saved are those at the call."""
    from .._normalize import wrap

    if isinstance(obj, dict):
        cls = type(obj) if type(obj) is collections.OrderedDict else dict
        return cls((k, _snapshot(v)) for k, v in obj.items())
    if isinstance(obj, _tensor_cls()):
        t = wrap(obj._t.detach().to("cpu", copy=True))
        t.name = obj.name
        return t
    return obj


def async_save(obj, path, protocol=4, sync_other_task=False, **configs):
    """paddle.framework.async_save: save a state dict or Tensor in a background thread.

    The Tensors are copied to the CPU before this returns, so later in-place updates do not leak
    into the file; `clear_async_save_task_queue()` waits for the writes.
    """
    if configs:
        warnings.warn("configs are not supported in async mode, will be overridden by default settings.")
    if not isinstance(obj, (dict, _tensor_cls())):
        raise TypeError(f"currently async_save does not support this type: {type(obj)}")
    obj = _snapshot(obj)
    if sync_other_task:
        clear_async_save_task_queue()
    t = threading.Thread(target=save, args=(obj, path, protocol))
    t.start()
    async_save_queue.append(t)


# ===================================================================== restricted unpickling
# (one unpickler for every loader: framework/safe_pickle.py)


def _unpickle(f):
    # paddle.save(paddle.get_rng_state()) files hold GeneratorStates, by Paddle's class name or ours: data too
    # (four numbers and the engine's words as character codes, parsed as integers)
    from .random import GeneratorState

    allowed = dict(safe_pickle.DATA)
    allowed[("paddle.base.libpaddle", "GeneratorState")] = GeneratorState
    allowed[("paddle_on_torch.framework.random", "GeneratorState")] = GeneratorState
    return safe_pickle.load(f, allowed, what="paddle.load", types=(GeneratorState,))


# ===================================================================== load


def _pack_big_arrays(obj):
    if isinstance(obj, dict) and _UNPACK_INFO in obj:
        removes = []
        for key, value in obj[_UNPACK_INFO].items():
            obj[key] = np.concatenate([obj[p] for p in value["slices"]]).reshape(value["OriginShape"])
            removes += value["slices"]
        for key in removes:
            obj.pop(key)
        obj.pop(_UNPACK_INFO)
    return obj


def _is_named_array(obj):  # how a Tensor is pickled: (name, ndarray)
    return isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], np.ndarray)


def _convert(obj, condition, convert):
    """Paddle's walk over a loaded object: convert what matches, rebuild tuples and sets."""
    if condition(obj):
        return convert(obj)
    t = type(obj)
    if t in (dict, collections.OrderedDict):
        for k in list(obj.keys()):
            obj[k] = _convert(obj[k], condition, convert)
        return obj
    if t is list:
        for i in range(len(obj)):
            obj[i] = _convert(obj[i], condition, convert)
        return obj
    if t is tuple:
        return tuple(_convert(list(obj), condition, convert))
    if t is set:
        return set(_convert(list(obj), condition, convert))
    if isinstance(obj, collections.abc.Iterable) and not isinstance(obj, (str, np.ndarray, _tensor_cls())):
        raise NotImplementedError("The iterable objects supported are tuple, list, dict, OrderedDict, string. "
                                  f"But received {type(obj)}.")
    return obj


_parse_every_object = _convert  # Paddle's name (PaddleNLP imports it)


def _transformed_from_lodtensor(obj):
    """Paddle 2.1 saved a DenseTensor as a bare ndarray: such values load as Tensors."""
    return isinstance(obj, np.ndarray)


def _to_LodTensor(ndarray):  # noqa: N802 - Paddle's name
    """An ndarray as a tensor on the current place.  Paddle makes a DenseTensor (the storage under a Tensor);
    here the storage is a torch tensor, so the result is a Tensor."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"Type of `ndarray` should be numpy.ndarray, but received {type(ndarray)}.")
    return _to_tensor(ndarray)


def __getattr__(name):
    if name == "EagerParamBase":  # (paddle.framework.io imports it from paddle.base.framework)
        from ..nn.layer.layers import EagerParamBase

        return EagerParamBase
    from .. import _report

    return _report.module_getattr("paddle.framework.io")(name)


def _parse_loaded(obj, return_numpy):
    if _contains(obj, _is_named_array):  # Tensors were saved: only they become Tensors
        return _convert(obj, _is_named_array, lambda v: v[1] if return_numpy else _to_tensor(v[1], v[0]))
    # no Tensors inside (a Paddle 2.0 file, or arrays saved as such): every array becomes a Tensor
    return _convert(obj, lambda v: isinstance(v, np.ndarray), lambda v: v if return_numpy else _to_tensor(v))


def load(path, **configs):
    """paddle.load: read what paddle.save wrote (by Paddle or by paddle_on_torch)."""
    if _is_buffer(path) or (isinstance(path, (str, os.PathLike)) and os.path.isfile(path)):
        _check_configs(configs, _LOAD_CONFIGS, "load")
        return_numpy = configs.get("return_numpy", False)
        keep_name_table = configs.get("keep_name_table", None)
        if configs.get("safetensors", False):
            return _load_safetensors(path, return_numpy)
        return _load_file(path, return_numpy, keep_name_table)
    _check_configs(configs, _LOAD_CONFIGS, "load")
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"paddle.load expects a file path or a BytesIO, but received {type(path)}")
    path = os.fspath(path)
    if os.path.isdir(path) or os.path.exists(path + ".pdmodel") or os.path.exists(path + ".json"):
        from .._report import unsupported

        raise unsupported("paddle.load", " for inference-model or save_params directories "
                          "(paddle.jit.save / save_inference_model formats)")
    msg = f"The ``path`` ({path}) to load model not exists."
    if os.path.exists(path + ".pdparams") or os.path.exists(path + ".pdopt"):
        msg += ("please specify the full file name, not just the file name prefix. For example, it should be "
                "written as `paddle.load('model.pdparams')` instead of `paddle.load('model')`.")
    raise ValueError(msg)


def _read_all(path):
    if _is_buffer(path):
        return path.read()
    with open(path, "rb") as f:
        return f.read()


def _load_file(path, return_numpy, keep_name_table):
    data = _read_all(path)
    where = path if isinstance(path, (str, os.PathLike)) else "<BytesIO>"
    if _is_binary_dense_tensor(data):
        array = _load_binary(data, where)
        return array if return_numpy else _to_tensor(array)
    if data[:1] == b"{":  # a static Program saved by paddle.save
        from ..static.io import is_program_file, program_from_bytes

        if is_program_file(data):
            return program_from_bytes(data)
    try:
        result = _unpickle(io.BytesIO(data))
    except UnsafePickleError:
        raise
    except EOFError:
        # Paddle lets pickle's EOFError through for an empty or cut-off file; keep its type
        raise EOFError(f"`paddle.load` can not parse the file:{where}: it is empty or truncated "
                       "(ran out of input)") from None
    except Exception as e:  # noqa: BLE001 - any failure to parse is the file's fault
        raise ValueError(f"`paddle.load` can not parse the file:{where}. ({type(e).__name__}: {e})") from None
    if isinstance(result, dict):
        result = _pack_big_arrays(result)
        if _NAME_TABLE in result:  # a state dict written by paddle.save
            for key, name in result[_NAME_TABLE].items():
                if isinstance(result.get(key), np.ndarray):
                    result[key] = result[key] if return_numpy else _to_tensor(result[key], name)
            if not keep_name_table:
                del result[_NAME_TABLE]
            return result
    return _parse_loaded(result, return_numpy)


# ===================================================================== safetensors


def _save_safetensors(obj, path):
    from safetensors.torch import save

    if len(obj) == 0:
        warnings.warn("The input state dict is empty, no need to save.")
    Tensor = _tensor_cls()
    tensors = {}
    for k, v in obj.items():
        if not isinstance(v, Tensor):
            # (Paddle then writes a pickle under the name it was given, which its safetensors load cannot read)
            raise _report.unsupported("paddle.save", f" with safetensors=True for a dict whose '{k}' is a "
                                                     f"{type(v).__name__} (safetensors files hold Tensors only)")
        tensors[k] = v._t.detach().cpu().contiguous()
    if _is_buffer(path):
        path.write(save(tensors))
        return
    with _AtomicWriter(path) as f:
        f.write(save(tensors))


def _load_safetensors(path, return_numpy):
    from safetensors.torch import load

    tensors = dict(sorted(load(_read_all(path)).items()))  # Paddle returns the keys sorted
    if return_numpy:
        out = {}
        for k, t in tensors.items():
            out[k] = t.view(torch.uint16).numpy() if t.dtype is torch.bfloat16 else t.numpy()
        return _pack_big_arrays(out)
    from .._normalize import wrap
    from .._core.place import current_torch_device

    device = current_torch_device()
    return {k: wrap(t.to(device)) for k, t in tensors.items()}


# ===================================================================== binary DenseTensor format
# Paddle's C++ serialisation of one DenseTensor (use_binary_format=True):
#   uint32 version (0) | uint64 lod levels, each: uint64 byte size + size_t offsets |
#   uint32 tensor version (0) | int32 desc size | TensorDesc protobuf | raw data (C order)
# TensorDesc: field 1 (varint) data type enum, field 2 (repeated int64) dims.

_PROTO_DTYPES = {0: np.bool_, 1: np.int16, 2: np.int32, 3: np.int64, 4: np.float16, 5: np.float32,
                 6: np.float64, 20: np.uint8, 21: np.int8, 22: np.uint16, 23: np.complex64, 24: np.complex128}
_PROTO_BY_NUMPY = {np.dtype(v): k for k, v in _PROTO_DTYPES.items() if k != 22}
_PROTO_BFLOAT16 = 22


def _varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _read_varint(buf, pos):
    shift = result = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def dense_tensor_bytes(t):
    """One DenseTensor in Paddle's binary layout (version, LoD, TensorDesc protobuf, raw data)."""
    t = t.detach().cpu().contiguous()
    if t.dtype is torch.bfloat16:
        code, array = _PROTO_BFLOAT16, t.view(torch.uint16).numpy()
    else:
        array = t.numpy()
        if array.dtype not in _PROTO_BY_NUMPY:
            raise TypeError(f"Paddle's binary tensor format does not support dtype {array.dtype}")
        code = _PROTO_BY_NUMPY[array.dtype]
    desc = b"\x08" + _varint(code) + b"".join(b"\x10" + _varint(d) for d in array.shape)
    return struct.pack("<IQ", 0, 0) + struct.pack("<Ii", 0, len(desc)) + desc + array.tobytes(order="C")


def read_dense_tensor(data, pos=0):
    """Parse one DenseTensor at `pos`: (numpy array, Paddle dtype code, position after it).

    Raises ValueError (or struct.error) on anything malformed; bfloat16 comes back as uint16."""
    (version,) = struct.unpack_from("<I", data, pos)
    if version != 0:
        raise ValueError(f"unsupported tensor version {version}")
    (levels,) = struct.unpack_from("<Q", data, pos + 4)
    pos += 12
    for _ in range(levels):  # LoD levels: skipped
        (size,) = struct.unpack_from("<Q", data, pos)
        pos += 8 + size
    tversion, desc_size = struct.unpack_from("<Ii", data, pos)
    pos += 8
    if tversion != 0 or desc_size < 0 or pos + desc_size > len(data):
        raise ValueError("bad tensor header")
    desc, pos = data[pos:pos + desc_size], pos + desc_size
    code, dims, p = None, [], 0
    while p < len(desc):
        key, p = _read_varint(desc, p)
        field, wire = key >> 3, key & 7
        if field == 1 and wire == 0:
            code, p = _read_varint(desc, p)
        elif field == 2 and wire == 0:
            d, p = _read_varint(desc, p)
            dims.append(d - (1 << 64) if d >= 1 << 63 else d)
        elif field == 2 and wire == 2:  # packed dims
            n, p = _read_varint(desc, p)
            end = p + n
            while p < end:
                d, p = _read_varint(desc, p)
                dims.append(d - (1 << 64) if d >= 1 << 63 else d)
        else:
            raise ValueError(f"unexpected field {field} in TensorDesc")
    if code not in _PROTO_DTYPES:
        raise ValueError(f"unsupported data type {code}")
    if any(d < 0 for d in dims):
        raise ValueError(f"negative dimension in {dims}")
    dtype = np.dtype(_PROTO_DTYPES[code])
    count = int(np.prod(dims)) if dims else 1
    nbytes = count * dtype.itemsize
    if pos + nbytes > len(data):
        raise ValueError("the data is shorter than the tensor's shape")
    return np.frombuffer(data, dtype, count, pos).reshape(dims).copy(), code, pos + nbytes


def _save_binary(obj, path):
    Tensor = _tensor_cls()
    if not isinstance(obj, Tensor):
        raise NotImplementedError(f"When use_binary_format = True, `paddle.save`  expected Tensor, but received "
                                  f"{type(obj)}.")
    try:
        data = dense_tensor_bytes(obj._t)
    except TypeError:
        raise TypeError(f"use_binary_format does not support dtype {obj.dtype}") from None
    with _open_for_writing(path) as f:
        f.write(data)


def _is_binary_dense_tensor(data):
    # pickles start with \x80 (protocol >= 2); Paddle's binary format starts with a uint32 version 0
    return len(data) >= 16 and data[:4] == b"\0\0\0\0"


def _load_binary(data, where):
    try:
        return read_dense_tensor(data)[0]
    except (struct.error, ValueError) as e:
        raise ValueError(f"`paddle.load` can not parse the file:{where}. ({e})") from None
