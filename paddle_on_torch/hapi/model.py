"""paddle.Model (hapi): fit / evaluate / predict loops, per-batch steps, checkpoints, summary.

Dynamic graph only (paddle_on_torch has no static graph).  The loops, the callback calls and
what they print follow Paddle 3.3.1's hapi/model.py.
"""
import inspect
import os
import warnings

import numpy as np

from .. import _report
from .callbacks import EarlyStopping, config_callbacks
from .model_summary import summary

__all__ = ["Model"]

# Paddle's Model._run_one_epoch has `logs={}` as a default argument, so one dict is shared by every
# fit/evaluate call in the process (eval logs keep the train keys, a run over no batches returns the
# previous values).  Kept for the same results.
_SHARED_LOGS = {}


class _InputSpec:
    """What Model records for an input when none was given: name, shape and dtype (InputSpec-like)."""

    def __init__(self, shape=None, dtype="float32", name=None):
        from .._core.dtype import convert_dtype

        self.shape = tuple(-1 if d is None else d for d in shape) if shape is not None else None
        self.dtype = convert_dtype(dtype)
        self.name = name

    def __repr__(self):
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, stop_gradient=False)"


def _is_spec(obj):
    return hasattr(obj, "shape") and hasattr(obj, "name") and hasattr(obj, "dtype") and not _is_tensor(obj)


def _is_tensor(obj):
    from ..tensor.tensor import Tensor

    return isinstance(obj, Tensor)


def to_list(value):
    if value is None:
        return value
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def to_numpy(var):
    assert _is_tensor(var), "not a variable"
    return np.array(var)


def _flatten(data):
    """paddle.utils.flatten: the leaves of nested lists/tuples/dicts (dicts by sorted key)."""
    if isinstance(data, (list, tuple)):
        return [leaf for item in data for leaf in _flatten(item)]
    if isinstance(data, dict):
        return [leaf for k in sorted(data) for leaf in _flatten(data[k])]
    return [data]


def _update_input_info(inputs):
    if _is_spec(inputs):
        return [list(inputs.shape)], [inputs.dtype]
    if isinstance(inputs, (list, tuple)):
        return [list(x.shape) for x in inputs], [x.dtype for x in inputs]
    if isinstance(inputs, dict):
        return [list(v.shape) for v in inputs.values()], [v.dtype for v in inputs.values()]
    return None


def _forward_arg_names(network):
    return inspect.getfullargspec(network.forward).args[1:]


class _DynamicAdapter:
    """Runs the network eagerly (Paddle's DynamicGraphAdapter, single process)."""

    def __init__(self, model):
        from .. import distributed

        self.model = model
        env = distributed.ParallelEnv()
        if env.nranks > 1:
            raise _report.unsupported("paddle.Model", " under a multi-process launch (nranks > 1); wrap the "
                                                      "network in paddle.DataParallel and write the loop, or run "
                                                      "one process")
        self._merge_count = {"eval_total": 0, "test_total": 0, "eval_batch": 0, "test_batch": 0}
        self._input_info = None
        self._amp_level = "O0"
        self._amp_configs = {}
        self._amp_custom_lists = {}
        self._use_fp16_guard = True

    def _to_tensors(self, items):
        from .. import to_tensor

        return [to_tensor(x) for x in items]

    def _metric_updates(self, outputs, labels):
        results = []
        for metric in self.model._metrics:
            outs = metric.compute(*(to_list(outputs) + labels))
            results.append(metric.update(*[to_numpy(m) for m in to_list(outs)]))
        return results

    def train_batch(self, inputs, labels=None, update=True):
        import paddle_on_torch as paddle

        assert self.model._optimizer, "model not ready, please call `model.prepare()` first"
        net = self.model.network
        net.train()
        self.model.mode = "train"
        inputs = to_list(inputs)
        self._input_info = _update_input_info(inputs)
        labels = self._to_tensors(to_list(labels or []))
        if self._amp_level != "O0" and self.model._scaler is None:
            self.model._scaler = paddle.amp.GradScaler(**self._amp_configs)
        with paddle.amp.auto_cast(enable=self._amp_level != "O0", **self._amp_custom_lists, level=self._amp_level):
            outputs = net(*self._to_tensors(inputs))
        losses = to_list(self.model._loss(*(to_list(outputs) + labels)))
        final_loss = paddle.add_n(losses)
        if self._amp_level != "O0":
            scaled = self.model._scaler.scale(final_loss)
            scaled.backward()
            if update:
                self.model._scaler.minimize(self.model._optimizer, scaled)
                net.clear_gradients()
        else:
            final_loss.backward()
            if update:
                self.model._optimizer.minimize(final_loss)
                net.clear_gradients()
        metrics = self._metric_updates(outputs, labels)
        losses = [to_numpy(v) for v in losses]
        return (losses, metrics) if metrics else losses

    def eval_batch(self, inputs, labels=None):
        net = self.model.network
        net.eval()
        self.model.mode = "eval"
        inputs = to_list(inputs)
        self._input_info = _update_input_info(inputs)
        labels = self._to_tensors(to_list(labels or []))
        outputs = net(*self._to_tensors(inputs))
        losses = None
        if self.model._loss:
            losses = to_list(self.model._loss(*(to_list(outputs) + labels)))
        metrics = self._metric_updates(outputs, labels)
        if self.model._loss and metrics:
            return [to_numpy(v) for v in losses], metrics
        if self.model._loss:
            return [to_numpy(v) for v in losses]
        return metrics

    def predict_batch(self, inputs):
        net = self.model.network
        net.eval()
        self.model.mode = "test"
        inputs = self._to_tensors(to_list(inputs))
        self._input_info = _update_input_info(inputs)
        return [to_numpy(o) for o in to_list(net(*inputs))]

    def parameters(self, *args, **kwargs):
        return self.model.network.parameters(*args, **kwargs)

    def save(self, path):
        from ..framework.io import save

        save(self.model.network.state_dict(), path + ".pdparams")
        opt = self.model._optimizer
        if opt is not None:
            state = opt.state_dict()
            if state:
                save(state, path + ".pdopt")
        scaler = getattr(self.model, "_scaler", None)
        if scaler is not None:
            state = scaler.state_dict()
            if state:
                save(state, path + ".pdscaler")

    def load(self, param_state_pairs, optim_state, scaler_state=None):
        for param, state in param_state_pairs:
            param.set_value(state)
        scaler = getattr(self.model, "_scaler", None)
        if scaler is not None and scaler_state:
            scaler.load_state_dict(scaler_state)
        opt = self.model._optimizer
        if not opt or not optim_state:
            return
        converted = dict(optim_state)
        if "@LR_DECAY_COUNTER@" in converted:  # static-graph checkpoints count from 0
            converted["global_step"] = np.array(converted.pop("@LR_DECAY_COUNTER@")) + 1
        opt.set_state_dict(converted)

    def prepare(self):
        import paddle_on_torch as paddle

        if self._amp_level == "O2" and self.model.mode == "train" and paddle.is_compiled_with_cuda():
            self.model.network, self.model._optimizer = paddle.amp.decorate(
                models=self.model.network, optimizers=self.model._optimizer, level="O2")
        if self._amp_level != "O0":
            self.model._scaler = None


class Model:
    """Wraps a Layer with training, evaluation and prediction loops (paddle.Model)."""

    def __init__(self, network, inputs=None, labels=None):
        self.mode = "train"
        self.network = network
        self._inputs = None
        self._labels = None
        self._loss = None
        self._loss_weights = None
        self._optimizer = None
        self._metrics = []
        self._scaler = None
        self._input_info = None
        self._is_shape_inferred = False
        self._test_dataloader = None
        self._place = None
        self._accumulate = 1
        self.stop_training = False
        if inputs:
            self._input_info = _update_input_info(inputs)
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)
        self._adapter = _DynamicAdapter(self)

    # ------------------------------------------------------------ one batch
    def train_batch(self, inputs, labels=None, update=True):
        out = self._adapter.train_batch(inputs, labels, update)
        if self._input_info is None:
            self._update_inputs()
        return out

    def eval_batch(self, inputs, labels=None):
        from ..framework.grad_mode import no_grad

        with no_grad():
            out = self._adapter.eval_batch(inputs, labels)
        if self._input_info is None:
            self._update_inputs()
        return out

    def predict_batch(self, inputs):
        from ..framework.grad_mode import no_grad

        with no_grad():
            out = self._adapter.predict_batch(inputs)
        if self._input_info is None:
            self._update_inputs()
        return out

    # ------------------------------------------------------------ checkpoints
    def save(self, path, training=True):
        from .. import distributed

        if distributed.ParallelEnv().local_rank != 0:
            return
        if training:
            self._adapter.save(path)
            return
        if self._input_info is None:
            raise RuntimeError("Saving inference model needs 'inputs' or running before saving. Please specify "
                               "'inputs' in Model initialization or input training data and perform a training "
                               "for shape derivation.")
        raise _report.unsupported("paddle.Model.save(training=False)", " (it needs paddle.jit.save)")

    def load(self, path, skip_mismatch=False, reset_optimizer=False):
        from ..framework.io import load as _load

        root, ext = os.path.splitext(path)
        assert ext in ("", ".pdparams", ".pdopt", ".pdmodel"), f"Unknown postfix {ext} from weights"
        path = root

        def read(file):
            return _load(file, return_numpy=True) if os.path.exists(file) else None

        param_state = read(path + ".pdparams")
        assert param_state, "Failed to load parameters, please check path."
        matched = []
        for key, param in self.network.state_dict().items():
            state = param_state.get(key, None)
            try:
                if state is None:
                    raise ValueError(f"{key} is not found in the providing file.")
                if list(state.shape) != list(param.shape):
                    raise ValueError(f"{key} receives a shape {list(state.shape)}, but the expected shape is "
                                     f"{list(param.shape)}.")
            except ValueError as err:
                if not skip_mismatch:
                    raise
                warnings.warn(f"Skip loading for {key}. " + str(err))
                reset_optimizer = True
                continue
            matched.append((param, state))
        optim_state = None if reset_optimizer else read(path + ".pdopt")
        scaler_state = None
        if self._scaler is not None and os.path.exists(path + ".pdscaler"):
            scaler_state = _load(path + ".pdscaler")
        return self._adapter.load(matched, optim_state, scaler_state)

    def parameters(self, *args, **kwargs):
        return self._adapter.parameters()

    # ------------------------------------------------------------ prepare
    def _prepare_amp(self, amp_configs):
        ad = self._adapter
        ad._amp_custom_lists = {}
        ad._amp_configs = {}

        def check_pure_fp16():
            clip = getattr(self._optimizer, "_grad_clip", None)
            if ad._amp_level == "O2" and clip:
                from ..nn import ClipGradByGlobalNorm, ClipGradByNorm

                assert isinstance(clip, (ClipGradByGlobalNorm, ClipGradByNorm)), \
                    "Only ClipGradByNorm and ClipGradByGlobalNorm are supported in amp training with level=O2 " \
                    "currently."

        if not amp_configs:
            ad._amp_level = "O0"
            return
        if isinstance(amp_configs, str):
            if amp_configs not in ("O0", "O1", "O2"):
                raise ValueError("The level of amp_configs should be 'O0', 'O1' or 'O2'.")
            ad._amp_level = amp_configs
            check_pure_fp16()
            return
        if "level" not in amp_configs:
            ad._amp_level = "O1"
        elif amp_configs["level"] not in ("O0", "O1", "O2"):
            raise ValueError("amp_configs['level'] should be 'O0', 'O1' or 'O2'.")
        else:
            ad._amp_level = amp_configs["level"]
        keys = set(amp_configs) - {"level"}
        if not keys or ad._amp_level == "O0":
            return
        if "use_pure_fp16" in amp_configs:
            raise ValueError("'use_pure_fp16' is an invalid parameter, the level of mixed precision training only "
                             "depends on 'O1' or 'O2'.")
        check_pure_fp16()
        for name in ("custom_white_list", "custom_black_list", "custom_black_varnames"):
            if name in keys:
                ad._amp_custom_lists[name] = amp_configs[name]
                keys.discard(name)
        accepted = {"init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                    "decr_every_n_nan_or_inf", "use_dynamic_loss_scaling", "use_fp16_guard"}
        if keys - accepted:
            raise ValueError("Except for 'level', the keys of 'amp_configs' must be accepted by mixed precision "
                             f"APIs, but {tuple(keys - accepted)} could not be recognized.")
        if "use_fp16_guard" in keys:
            raise ValueError("'use_fp16_guard' is supported in static graph mode only.")
        for key in keys:
            ad._amp_configs[key] = amp_configs[key]

    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        from ..device import get_device
        from ..metric import Metric
        from ..nn import Layer

        self._place = get_device()
        self._optimizer = optimizer
        if loss is not None and not isinstance(loss, Layer) and not callable(loss):
            raise TypeError("'loss' must be sub classes of `paddle.nn.Layer` or any callable function.")
        self._loss = loss
        for metric in to_list(metrics or []):
            assert isinstance(metric, Metric), f"{metric.__class__.__name__} is not sub class of Metric"
        self._metrics = to_list(metrics or [])
        self._prepare_amp(amp_configs)
        self._adapter.prepare()

    # ------------------------------------------------------------ loops
    def _loader(self, data, batch_size, shuffle=False, drop_last=False, num_workers=0):
        from ..io import DataLoader, Dataset, DistributedBatchSampler

        if data is not None and isinstance(data, Dataset):
            sampler = DistributedBatchSampler(data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler, num_workers=num_workers, return_list=True)
        return data

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1, log_freq=10, save_dir=None,
            save_freq=1, verbose=2, drop_last=False, shuffle=True, num_workers=0, callbacks=None,
            accumulate_grad_batches=1, num_iters=None):
        assert train_data is not None, "train_data must be given!"
        if isinstance(batch_size, (tuple, list)) and all(isinstance(x, int) for x in batch_size):
            assert len(batch_size) == 2, "batch_size length error, expected train_batch_size and eval_batch_size."
            train_bs, eval_bs = batch_size
        elif isinstance(batch_size, int):
            train_bs = eval_bs = batch_size
        else:
            raise TypeError(f"batch_size should be an int or a list of two ints, but got {batch_size!r}")
        train_loader = self._loader(train_data, train_bs, shuffle, drop_last, num_workers)
        eval_loader = self._loader(eval_data, eval_bs, num_workers=num_workers)
        do_eval = eval_loader is not None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        steps = self._len_data_loader(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        cbks = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps, log_freq=log_freq,
                                save_freq=save_freq, save_dir=save_dir, verbose=verbose,
                                metrics=self._metrics_name())
        if any(isinstance(k, EarlyStopping) for k in cbks) and not do_eval:
            warnings.warn("EarlyStopping needs validation data.")
        cbks.on_begin("train")
        logs = None
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if do_eval and epoch % eval_freq == 0:
                cbks.on_begin("eval", {"steps": self._len_data_loader(eval_loader),
                                       "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0, callbacks=None,
                 num_iters=None):
        eval_loader = self._loader(eval_data, batch_size, num_workers=num_workers)
        self._test_dataloader = eval_loader
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        eval_steps = self._len_data_loader(eval_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(eval_steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            eval_steps = min(num_iters, eval_steps)
            self.num_iters = eval_steps
        cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(eval_loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name()}

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1, callbacks=None):
        test_loader = self._loader(test_data, batch_size, num_workers=num_workers)
        self._test_dataloader = test_loader
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": self._len_data_loader(test_loader)})
        logs, outputs = self._run_one_epoch(test_loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader, callbacks, mode, logs=_SHARED_LOGS):
        outputs = []
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            batch_size = data[0].shape()[0] if callable(data[0].shape) else data[0].shape[0]
            callbacks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                n_in = len(self._inputs)
                args = [data[:n_in], data[n_in:]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == len(data_loader))
                outs = getattr(self, mode + "_batch")(*args)
                if self._metrics and self._loss:
                    values = [[float(v) for v in outs[0]]]
                elif self._loss:
                    values = [[float(v) for v in outs]]
                else:
                    values = []
                for metric in self._metrics:
                    values.extend(to_list(metric.accumulate()))
                names = self._metrics_name()
                assert len(names) == len(values)
                logs.update(zip(names, values))
            else:
                outputs.append(self.predict_batch(data[:len(self._inputs)] if self._inputs is not None else data))
            logs["step"] = step
            merged = self._adapter._merge_count.get(mode + "_batch", 0)
            logs["batch_size"] = batch_size if mode == "train" or merged <= 0 else merged
            callbacks.on_batch_end(mode, step, logs)
            if getattr(self, "num_iters", None) is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    del self.num_iters
                    break
        self._reset_metrics()
        if mode == "predict":
            return logs, outputs
        return logs

    # ------------------------------------------------------------ summary and specs
    def summary(self, input_size=None, dtype=None):
        assert input_size is not None or self._inputs is not None, "'input_size' or 'self._input' must be set"
        return summary(self.network, input_size if input_size is not None else self._inputs, dtypes=dtype)

    def _verify_spec(self, specs, shapes=None, dtypes=None, is_input=False):
        if specs is None:
            if is_input:
                names = _forward_arg_names(self.network)
                if shapes is not None and dtypes is not None:
                    out = [_InputSpec(name=n, dtype=dtypes[i], shape=shapes[i]) for i, n in enumerate(names)]
                else:
                    out = [_InputSpec(name=n, shape=[None]) for n in names]
            else:
                out = to_list(specs)
        elif isinstance(specs, dict):
            assert is_input is False
            out = [specs[n] for n in inspect.getfullargspec(self.network.forward).args if n != "self"]
        else:
            out = to_list(specs)
        if out is not None:
            for i, spec in enumerate(out):
                assert _is_spec(spec), f"inputs and labels must be InputSpec, but got {type(spec).__name__}"
                if spec.name is None:
                    raise ValueError(f"Requires Input[{i}].name != None, but receive `None` with {spec}.")
        return out

    def _reset_metrics(self):
        for metric in self._metrics:
            metric.reset()

    def _metrics_name(self):
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(to_list(m.name()))
        return names

    def _len_data_loader(self, data_loader):
        try:
            return len(data_loader)
        except Exception:  # noqa: BLE001 - an iterable without a length
            return None

    def _update_inputs(self):
        self._input_info = self._adapter._input_info
        if self._input_info is not None and len(self._input_info) == 2:
            self._inputs = self._verify_spec(None, self._input_info[0], self._input_info[1], True)
            self._is_shape_inferred = True
