"""paddle.inference: Config / create_predictor / Predictor over paddle.jit.save artifacts.

A predictor runs either a real Paddle inference model (a PIR `.json` or ProgramDesc `.pdmodel` program
with its `.pdiparams`), lowered op by op to a torch.fx GraphModule by
paddle_on_torch.static.model_format (docs/inference_models.md), or the torch.export program that
paddle_on_torch's own `paddle.jit.save` wrote (`prefix.json` -- our manifest under the name of Paddle's
program -- `prefix.pdiparams` and the torch program `prefix.pt2`, see paddle_on_torch/jit/save_load.py).
Config(model_file, params_file) names either kind by Paddle's file names, and beyond Paddle,
Config(model_dir) (a directory holding one jit.save artifact) and Config(path_prefix).

Config switches are accepted and recorded; the ones with a torch meaning are applied:
  enable_use_gpu / disable_gpu      -> the device the predictor runs on (cuda:<device_id> / cpu)
  set_cpu_math_library_num_threads  -> torch.set_num_threads when the predictor is created
  switch_ir_optim(True)             -> the program is additionally compiled with torch.compile
                                       (inductor; for real Paddle models with freezing: weights as
                                       constants) on the first run; False (default here) runs it
                                       eagerly.  Paddle's default is True; ours is False because
                                       compiling costs tens of seconds on a CPU.  Either way a real
                                       Paddle model's BatchNorms and conv biases are folded into
                                       its convolutions (static/model_format/optimize.py).
  enable_memory_optim, enable_mkldnn / enable_onednn, glog switches ... -> recorded only.
"""
import enum
import os

import numpy as np
import torch

from .. import _report

__all__ = ["Config", "create_predictor", "Predictor", "Tensor", "PrecisionType", "PlaceType", "DataType",
           "get_version", "get_num_bytes_of_data_type", "PredictorPool"]


class PrecisionType(enum.IntEnum):
    Float32 = 0
    Int8 = 1
    Half = 2
    Bfloat16 = 3

    def __str__(self):  # Paddle's pybind enum (AnalysisConfig.Precision) prints as Precision.Int8
        return f"Precision.{self.name}"


class PlaceType(enum.IntEnum):
    UNK = -1
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM = 6


class DataType(enum.IntEnum):
    FLOAT32 = 0
    INT64 = 1
    INT32 = 2
    UINT8 = 3
    INT8 = 4
    FLOAT16 = 5
    BOOL = 6
    FLOAT64 = 7
    BFLOAT16 = 8


_DTYPE_OF = {"float32": DataType.FLOAT32, "int64": DataType.INT64, "int32": DataType.INT32, "uint8": DataType.UINT8,
             "int8": DataType.INT8, "float16": DataType.FLOAT16, "bool": DataType.BOOL, "float64": DataType.FLOAT64,
             "bfloat16": DataType.BFLOAT16}
_NBYTES = {DataType.FLOAT32: 4, DataType.INT64: 8, DataType.INT32: 4, DataType.UINT8: 1, DataType.INT8: 1,
           DataType.FLOAT16: 2, DataType.BOOL: 1, DataType.FLOAT64: 8, DataType.BFLOAT16: 2}


def get_num_bytes_of_data_type(dtype):
    return _NBYTES[DataType(dtype)]


def get_version():
    from ..version import full_version

    return f"version: {full_version}\ncommit: paddle_on_torch\nbranch: torch {torch.__version__}"


class Config:
    """Paddle's AnalysisConfig: where the model is and how to run it."""

    Precision = PrecisionType  # Paddle's Config.Precision is paddle.inference.PrecisionType

    def __init__(self, model=None, params=None):
        self._model_file, self._params_file, self._prefix, self._model_dir = None, None, None, None
        if model is not None and params is not None:
            self.set_model(model, params)
        elif model is not None:
            if not isinstance(model, str):
                raise TypeError(f"Config expects a model path (str), but received {type(model).__name__}")
            if os.path.isdir(model):
                self._model_dir = model
            else:
                self._prefix = model
        self._use_gpu, self._gpu_device_id, self._gpu_memory_mb = False, 0, 0
        self._ir_optim, self._memory_optim = False, False
        self._cpu_threads = 1
        self._switches = {}

    # ---------------------------------------------------------- model location
    def set_model(self, model, params=None):
        if params is None:
            self._model_dir, self._model_file, self._params_file = model, None, None
        else:
            self._model_file, self._params_file = model, params
        self._prefix = None

    def set_prog_file(self, path):
        self._model_file = path

    def set_params_file(self, path):
        self._params_file = path

    def set_model_buffer(self, *args):
        raise _report.unsupported("paddle.inference.Config.set_model_buffer", " (models are read from files)")

    def model_dir(self):
        return self._model_dir or ""

    def prog_file(self):
        if self._model_file:
            return self._model_file
        if self._prefix:
            for ext in (".json", ".pdmodel"):  # Paddle's program names (also our jit.save's manifest)
                if os.path.isfile(self._prefix + ext):
                    return self._prefix + ext
            return self._prefix + ".json"
        return ""

    def params_file(self):
        if self._params_file:
            return self._params_file
        return self._prefix + ".pdiparams" if self._prefix else ""

    def _locate(self):
        """("paddle", (program file, params file)) for a real Paddle inference model, or ("ours", prefix) for
        a paddle_on_torch jit.save artifact; a clear error when the Config names neither."""
        from ..jit.save_load import _check_format, find_artifact
        from ..static import model_format

        target = self._prefix or self._model_file or self._model_dir
        if not target:
            raise ValueError("Config: no model was given (Config(prefix) or Config(model_file, params_file))")
        prefix = find_artifact(target)
        if prefix is not None:
            return "ours", prefix
        if self._model_file:
            if not os.path.isfile(self._model_file):
                raise ValueError(f"Config: the model file {self._model_file} does not exist")
            return "paddle", model_format.find_model_files(self._model_file, self._params_file) or (
                self._model_file, self._params_file)
        found = model_format.find_model_files(target, None if self._model_dir else self._params_file)
        if found is not None:
            return "paddle", found
        _check_format(target, "paddle.inference.create_predictor")  # raises: nothing there
        return "ours", target

    # ---------------------------------------------------------- devices
    def enable_use_gpu(self, memory_pool_init_size_mb=100, device_id=0, precision_mode=None):
        self._use_gpu, self._gpu_memory_mb, self._gpu_device_id = True, memory_pool_init_size_mb, device_id
        if precision_mode not in (None, PrecisionType.Float32):
            self._switches["precision_mode"] = precision_mode

    def disable_gpu(self):
        self._use_gpu = False

    def use_gpu(self):
        return self._use_gpu

    def gpu_device_id(self):
        return self._gpu_device_id

    def memory_pool_init_size_mb(self):
        return self._gpu_memory_mb

    def set_cpu_math_library_num_threads(self, num):
        if not isinstance(num, int) or num < 1:
            raise ValueError(f"set_cpu_math_library_num_threads expects a positive int, but received {num!r}")
        self._cpu_threads = num

    def cpu_math_library_num_threads(self):
        return self._cpu_threads

    # ---------------------------------------------------------- optimisation switches
    def switch_ir_optim(self, x=True):
        self._ir_optim = bool(x)

    def ir_optim(self):
        return self._ir_optim

    def enable_memory_optim(self, x=True):
        self._memory_optim = bool(x)

    def memory_optim_enabled(self):
        return self._memory_optim

    def _record(name):  # noqa: N805 - a factory for switches that are recorded only
        def switch(self, *args, **kwargs):
            self._switches[name] = args or True
        switch.__name__ = name
        switch.__doc__ = f"Paddle's {name}: accepted and recorded (no torch equivalent to apply)."
        return switch

    for _n in ("enable_mkldnn", "disable_mkldnn", "enable_onednn", "disable_onednn", "disable_glog_info",
               "switch_use_feed_fetch_ops", "switch_specify_input_names", "enable_profile", "enable_mkldnn_bfloat16",
               "enable_onednn_bfloat16", "set_mkldnn_cache_capacity", "set_onednn_cache_capacity",
               "disable_mkldnn_fc_passes", "disable_onednn_fc_passes", "enable_new_ir", "enable_new_executor",
               "set_optim_cache_dir", "delete_pass", "enable_low_precision_io", "exp_disable_tensorrt_ops",
               "enable_cinn"):
        locals()[_n] = _record(_n)
    del _n, _record

    def glog_info_disabled(self):
        return "disable_glog_info" in self._switches

    def mkldnn_enabled(self):
        return "enable_mkldnn" in self._switches or "enable_onednn" in self._switches

    def summary(self):
        rows = [("model", self.prog_file() or self.model_dir()), ("params", self.params_file()),
                ("use_gpu", self._use_gpu), ("gpu_device_id", self._gpu_device_id),
                ("cpu_math_library_num_threads", self._cpu_threads), ("ir_optim", self._ir_optim),
                ("memory_optim", self._memory_optim)] + [(k, v) for k, v in self._switches.items()]
        return "\n".join(f"{k}: {v}" for k, v in rows)


class Tensor:
    """A predictor's input or output handle."""

    def __init__(self, predictor, name, is_input):
        self._p, self._name, self._is_input = predictor, name, is_input

    def name(self):
        return self._name

    def reshape(self, shape):
        if not self._is_input:
            raise RuntimeError("reshape is only for input handles")
        self._p._shapes[self._name] = [int(d) for d in shape]

    def copy_from_cpu(self, data):
        if not self._is_input:
            raise RuntimeError("copy_from_cpu is only for input handles")
        if not isinstance(data, np.ndarray):
            raise TypeError(f"In copy_from_cpu, we only support numpy ndarray data type, but received "
                            f"{type(data).__name__}.")
        spec = self._p._spec[self._name]
        want = spec["dtype"]
        if np.dtype(data.dtype).name != want and not (want == "bfloat16" and data.dtype == np.uint16):
            raise TypeError(f"input '{self._name}' expects {want} data, but received {data.dtype}.")
        for d, s in zip(data.shape, spec["shape"]):
            if s != -1 and d != s:
                raise ValueError(f"input '{self._name}' has shape {list(data.shape)}, the model expects "
                                 f"{spec['shape']}.")
        if len(data.shape) != len(spec["shape"]):
            raise ValueError(f"input '{self._name}' has shape {list(data.shape)}, the model expects "
                             f"{spec['shape']}.")
        self._p._inputs[self._name] = torch.from_numpy(np.ascontiguousarray(data).copy())

    def share_external_data(self, data):
        from .. import _normalize

        self._p._inputs[self._name] = _normalize.to_torch(data)

    def copy_to_cpu(self):
        if self._is_input:
            t = self._p._inputs.get(self._name)
            if t is None:
                raise RuntimeError(f"input '{self._name}' has no data")
        else:
            t = self._p._outputs.get(self._name)
            if t is None:
                raise RuntimeError(f"output '{self._name}' has no data: call predictor.run() first")
        t = t.detach().cpu()
        return t.view(torch.uint16).numpy() if t.dtype is torch.bfloat16 else t.numpy().copy()

    def shape(self):
        t = (self._p._inputs if self._is_input else self._p._outputs).get(self._name)
        if t is None:
            return list(self._p._shapes.get(self._name, []))
        return list(t.shape)

    def type(self):
        t = (self._p._inputs if self._is_input else self._p._outputs).get(self._name)
        if t is None and self._is_input:
            return _DTYPE_OF[self._p._spec[self._name]["dtype"]]
        from .._core import dtype as _dtypes

        return _DTYPE_OF[_dtypes.dtype_name(t.dtype)]

    def lod(self):
        return []


def _flatten_values(obj):
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [v for o in obj for v in _flatten_values(o)]
    if isinstance(obj, dict):
        return [v for o in obj.values() for v in _flatten_values(o)]
    return []


class Predictor:
    """Runs a jit.save program: inputs by handle, run(), outputs by handle (or run(list) -> list)."""

    def __init__(self, config):
        from ..jit.save_load import _Artifact

        self._weights = None
        if not isinstance(config, Config):
            raise TypeError(f"create_predictor expects a paddle.inference.Config, but received "
                            f"{type(config).__name__}")
        self._config = config
        kind, where = config._locate()
        if config._use_gpu:
            if not torch.cuda.is_available():
                raise RuntimeError("Config.enable_use_gpu() was called, but torch sees no CUDA device")
            self._device = torch.device("cuda", config._gpu_device_id)
        else:
            self._device = torch.device("cpu")
            torch.set_num_threads(config._cpu_threads)
        if kind == "paddle":  # a real Paddle program, lowered op by op to a torch.fx GraphModule
            from ..static import model_format

            from ..static.model_format.optimize import compile_inference, fold_conv_affine

            self._model = m = model_format.load(where)
            # a predictor's parameters are constants: BatchNorm and conv biases fold into the convolutions
            # (Paddle's conv_bn_fuse_pass), and under ir_optim inductor freezes the weights (oneDNN
            # pre-packing); dynamic=None: the first shape compiles static, another one a dynamic graph
            self._graph = gm = fold_conv_affine(m.graph_module)[0].to(self._device)
            self._weights = None
            self._run_fn = compile_inference(gm, dynamic=None) if config._ir_optim else gm
            self._spec = {s.name: {"name": s.name, "shape": s.shape, "dtype": s.dtype} for s in m.feed_specs}
            self._input_names = list(m.feed_names)
            self._output_names = list(m.fetch_names)
        else:
            params = config._params_file if config._params_file else None
            self._artifact = a = _Artifact(where, None, params)
            self._weights = [w.to(self._device) for w in a.weights]
            self._run_fn = a.module.to(self._device) if self._device.type != "cpu" else a.module
            if config._ir_optim:
                self._run_fn = torch.compile(self._run_fn)
            self._spec = {i["name"]: i for i in a.manifest["inputs"]}
            self._input_names = [i["name"] for i in a.manifest["inputs"]]
            self._output_names = [o["name"] for o in a.manifest["outputs"]]
        self._inputs, self._outputs, self._shapes = {}, {}, {}

    def get_input_names(self):
        return list(self._input_names)

    def get_output_names(self):
        return list(self._output_names)

    def get_input_handle(self, name):
        if name not in self._spec:
            raise ValueError(f"The input name {name!r} is not one of the model's inputs {self._input_names}.")
        return Tensor(self, name, True)

    def get_output_handle(self, name):
        if name not in self._output_names:
            raise ValueError(f"The output name {name!r} is not one of the model's outputs {self._output_names}.")
        return Tensor(self, name, False)

    def run(self, inputs=None):
        if inputs is not None:  # Paddle's run(list of paddle Tensors) -> list of paddle Tensors
            from .. import _normalize

            if len(inputs) != len(self._input_names):
                raise ValueError(f"The model takes {len(self._input_names)} inputs, but received {len(inputs)}.")
            args = [_normalize.to_torch(v).to(self._device) for v in inputs]
            outs = self._call(args)
            return [_normalize.wrap(o) for o in outs]
        missing = [n for n in self._input_names if n not in self._inputs]
        if missing:
            raise RuntimeError(f"inputs {missing} have no data: call copy_from_cpu on their handles first")
        self._call([self._inputs[n].to(self._device) for n in self._input_names])
        return True

    def _call(self, args):
        with torch.no_grad():
            out = self._run_fn(*args) if self._weights is None else self._run_fn(self._weights, args)
        outs = _flatten_values(out)
        self._outputs = dict(zip(self._output_names, outs))
        return outs

    def clone(self):
        return Predictor(self._config)

    def clear_intermediate_tensor(self):
        pass

    def try_shrink_memory(self):
        return 0


def create_predictor(config):
    return Predictor(config)


class PredictorPool:
    def __init__(self, config, size=1):
        self._predictors = [Predictor(config) for _ in range(size)]

    def retrieve(self, idx):
        return self._predictors[idx]


__getattr__ = _report.module_getattr("paddle.inference")
