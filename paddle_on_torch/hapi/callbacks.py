"""paddle.callbacks: the hooks Model.fit / evaluate / predict call, and the stock callbacks."""
import numbers
import os
import time
import warnings

import numpy as np

from .progressbar import ProgressBar

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler", "EarlyStopping",
           "ReduceLROnPlateau", "WandbCallback"]


def _local_rank():
    from .. import distributed

    return distributed.ParallelEnv().local_rank


def config_callbacks(callbacks=None, model=None, batch_size=None, epochs=None, steps=None, log_freq=2, verbose=2,
                     save_freq=1, save_dir=None, metrics=None, mode="train"):
    """The callback list fit/evaluate/predict run: the user's, plus a ProgBarLogger (when verbose),
    a ModelCheckpoint and a by-step LRScheduler unless the user gave one of each."""
    cbks = callbacks or []
    cbks = list(cbks if isinstance(cbks, (list, tuple)) else [cbks])
    if verbose and not any(isinstance(k, ProgBarLogger) for k in cbks):
        cbks = [ProgBarLogger(log_freq, verbose=verbose)] + cbks
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks = cbks + [ModelCheckpoint(save_freq, save_dir)]
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks = cbks + [LRScheduler()]
    cbk_list = CallbackList(cbks)
    cbk_list.set_model(model)
    metrics = (metrics or []) if mode != "test" else []
    cbk_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps, "verbose": verbose,
                         "metrics": metrics})
    return cbk_list


class CallbackList:
    def __init__(self, callbacks=None):
        assert callbacks is not None
        self.callbacks = list(callbacks)
        self.params = {}
        self.model = None

    def append(self, callback):
        self.callbacks.append(callback)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params):
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model):
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name, *args):
        for c in self.callbacks:
            getattr(c, name)(*args)

    @staticmethod
    def _check_mode(mode):
        assert mode in ("train", "eval", "predict"), "mode should be train, eval or predict"

    def on_begin(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch=None, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch=None, logs=None):
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class: every hook does nothing; `self.model` and `self.params` are set by the Model."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_eval_begin(self, logs=None):
        pass

    def on_eval_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, step, logs=None):
        pass

    def on_train_batch_end(self, step, logs=None):
        pass

    def on_eval_batch_begin(self, step, logs=None):
        pass

    def on_eval_batch_end(self, step, logs=None):
        pass

    def on_predict_batch_begin(self, step, logs=None):
        pass

    def on_predict_batch_end(self, step, logs=None):
        pass


def _new_timer():
    return {"data_time": 0, "batch_time": 0, "count": 0, "samples": 0}


class ProgBarLogger(Callback):
    """Prints "Epoch i/n" and progress lines every `log_freq` steps (verbose 1: a bar, 2: lines,
    3: lines with reader/batch cost and ips)."""

    def __init__(self, log_freq=1, verbose=2):
        self.epochs = None
        self.steps = None
        self.progbar = None
        self.verbose = verbose
        self.log_freq = log_freq
        self.model = None
        self.params = {}

    def _is_print(self):
        return self.verbose and _local_rank() == 0

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._train_timer = _new_timer()
        if self._is_print():
            print("The loss value printed in the log is the current step, and the metric is the average value of "
                  "previous steps.")

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def _updates(self, logs, mode):
        values = [(k, logs[k]) for k in getattr(self, f"{mode}_metrics") if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            cnt = timer["count"] if timer["count"] > 0 else 1.0
            samples = timer["samples"] if timer["samples"] > 0 else 1.0
            values.append(("avg_reader_cost", "%.5f sec" % (timer["data_time"] / cnt)))
            values.append(("avg_batch_cost", "%.5f sec" % (timer["batch_time"] / cnt)))
            values.append(("ips", "%.5f samples/sec" % (samples / (timer["data_time"] + timer["batch_time"]))))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, timer):
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, timer, logs):
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += logs.get("batch_size", 1)

    # Paddle's attribute names per phase (users and subclasses read them): steps in the phase,
    # samples seen (train counts none).
    _STEPS = {"train": "steps", "eval": "eval_steps", "test": "test_steps"}
    _SAMPLES = {"eval": "evaled_samples", "test": "tested_samples"}

    def _phase_begin(self, mode, logs, banner):
        steps = logs.get("steps", None)
        setattr(self, self._STEPS[mode], steps)
        setattr(self, f"{mode}_metrics", logs.get("metrics", []))
        setattr(self, f"{mode}_step", 0)
        setattr(self, self._SAMPLES[mode], 0)
        timer = _new_timer()
        setattr(self, f"_{mode}_timer", timer)
        setattr(self, f"{mode}_progbar", ProgressBar(num=steps, verbose=self.verbose))
        if self._is_print():
            print(banner)
        timer["batch_start_time"] = time.time()

    def _phase_batch_end(self, mode, logs):
        logs = logs or {}
        step = getattr(self, f"{mode}_step") + 1
        setattr(self, f"{mode}_step", step)
        if mode in self._SAMPLES:
            setattr(self, self._SAMPLES[mode], getattr(self, self._SAMPLES[mode]) + logs.get("batch_size", 1))
        timer = getattr(self, f"_{mode}_timer")
        self._batch_end(timer, logs)
        steps = getattr(self, self._STEPS[mode])
        if self._is_print() and step % self.log_freq == 0 and (steps is None or step < steps):
            self._updates(logs, mode)
        timer["batch_start_time"] = time.time()

    def on_train_batch_begin(self, step, logs=None):
        self._batch_begin(self._train_timer)

    def on_train_batch_end(self, step, logs=None):
        self._phase_batch_end("train", logs)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self._is_print() and self.steps is not None:
            self._updates(logs, "train")

    def on_eval_begin(self, logs=None):
        self._phase_begin("eval", logs, "Eval begin...")

    def on_eval_batch_begin(self, step, logs=None):
        self._batch_begin(self._eval_timer)

    def on_eval_batch_end(self, step, logs=None):
        self._phase_batch_end("eval", logs)

    def on_predict_begin(self, logs=None):
        self._phase_begin("test", logs, "Predict begin...")

    def on_predict_batch_begin(self, step, logs=None):
        self._batch_begin(self._test_timer)

    def on_predict_batch_end(self, step, logs=None):
        self._phase_batch_end("test", logs)

    def on_eval_end(self, logs=None):
        logs = logs or {}
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_end(self, logs=None):
        logs = logs or {}
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves the model to `save_dir/<epoch>` every `save_freq` epochs and to `save_dir/final` at the end."""

    def __init__(self, save_freq=1, save_dir=None):
        self.save_freq = save_freq
        self.save_dir = save_dir
        self.model = None
        self.params = {}

    def on_epoch_begin(self, epoch=None, logs=None):
        self.epoch = epoch

    def _is_save(self):
        return self.model and self.save_dir and _local_rank() == 0

    def on_epoch_end(self, epoch, logs=None):
        if self._is_save() and self.epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs=None):
        if self._is_save():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


def _scheduler_of(model):
    from ..optimizer.lr import LRScheduler as _Sched

    opt = getattr(model, "_optimizer", None)
    lr = getattr(opt, "_learning_rate", None) if opt else None
    return lr if isinstance(lr, _Sched) else None


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate scheduler after every batch (by_step) or epoch (by_epoch)."""

    def __init__(self, by_step=True, by_epoch=False):
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step = by_step
        self.by_epoch = by_epoch
        self.model = None
        self.params = {}

    def on_epoch_end(self, epoch, logs=None):
        if self.by_epoch:
            sched = _scheduler_of(self.model)
            if sched is not None:
                sched.step()

    def on_train_batch_end(self, step, logs=None):
        if self.by_step:
            sched = _scheduler_of(self.model)
            if sched is not None:
                sched.step()


def _monitored_value(logs, monitor):
    current = logs[monitor]
    if isinstance(current, (list, tuple)):
        return current[0]
    if isinstance(current, numbers.Number):
        return current
    return None


class EarlyStopping(Callback):
    """Stops training when the monitored eval value has not improved for `patience` evaluations."""

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0, baseline=None,
                 save_best_model=True):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_best_model = save_best_model
        self.save_dir = None
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        if mode == "min":
            self.monitor_op = np.less
        elif mode == "max":
            self.monitor_op = np.greater
        else:
            self.monitor_op = np.greater if "acc" in self.monitor else np.less
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op is np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of EarlyStopping should be loss or metric name.")
            return
        current = _monitored_value(logs, self.monitor)
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    best = os.path.abspath(os.path.join(self.save_dir, "best_model"))
                    print(f"Best checkpoint has been saved at {best}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies a float learning rate by `factor` when the monitored eval value stops improving."""

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto", min_delta=1e-4, cooldown=0,
                 min_lr=0):
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best = 0
        self.mode = mode
        self.monitor_op = None
        self.epoch = 0
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {self.mode} is unknown, fallback to auto mode.")
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.")
            return
        try:
            lr = self.model._optimizer._learning_rate
            if not isinstance(lr, float):
                warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.")
                return
        except Exception as e:  # noqa: BLE001 - Paddle warns and carries on, whatever went wrong
            warnings.warn(f"There are something wrong when get learning_rate from optimizer: {e}.")
            return
        current = _monitored_value(logs, self.monitor)
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = self.model._optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model._optimizer._learning_rate = new_lr
                    if self.verbose > 0 and _local_rank() == 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


def _require(module, what):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"{what} needs the '{module}' package, which is not installed "
                          f"(pip install {module}).") from e


class _WriterCallback(Callback):
    """Shared bookkeeping of VisualDL and WandbCallback: train scalars per step, eval scalars per epoch."""

    def _is_write(self):
        return _local_rank() == 0

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _scalars(self, logs, mode):
        out = {}
        for k in getattr(self, f"{mode}_metrics"):
            if k in logs:
                v = _monitored_value(logs, k)
                if v is not None:
                    out[f"{mode}/{k}"] = v
        return out

    def on_train_batch_end(self, step, logs=None):
        logs = logs or {}
        self.train_step += 1
        if self._is_write():
            self._updates(logs, "train")

    def on_eval_begin(self, logs=None):
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0


class VisualDL(_WriterCallback):
    """Writes train/eval scalars with visualdl.LogWriter (needs the visualdl package)."""

    def __init__(self, log_dir):
        _require("visualdl", "paddle.callbacks.VisualDL")
        self.log_dir = log_dir
        self.epochs = None
        self.steps = None
        self.epoch = 0
        self.model = None
        self.params = {}

    def _updates(self, logs, mode):
        if not self._is_write():
            return
        if not hasattr(self, "writer"):
            self.writer = _require("visualdl", "paddle.callbacks.VisualDL").LogWriter(self.log_dir)
        step = getattr(self, f"{mode}_step") if mode == "train" else self.epoch
        for tag, value in self._scalars(logs, mode).items():
            self.writer.add_scalar(tag=tag, step=step, value=value)

    def on_train_end(self, logs=None):
        if hasattr(self, "writer"):
            self.writer.close()
            del self.writer

    def on_eval_end(self, logs=None):
        if self._is_write():
            self._updates(logs, "eval")
            if not hasattr(self, "_is_fit") and hasattr(self, "writer"):
                self.writer.close()
                del self.writer


class WandbCallback(_WriterCallback):
    """Logs train/eval scalars to Weights & Biases (needs the wandb package)."""

    def __init__(self, project=None, entity=None, name=None, dir=None, mode=None, job_type=None, **kwargs):
        self.wandb = _require("wandb", "paddle.callbacks.WandbCallback")
        self.wandb_args = {"project": project, "name": name, "entity": entity, "dir": dir, "mode": mode,
                           "job_type": job_type, **kwargs}
        self._run = None
        self.model = None
        self.params = {}
        _ = self.run

    @property
    def run(self):
        if self._is_write() and self._run is None:
            if self.wandb.run is not None:
                warnings.warn("There is a wandb run already in progress and newly created instances of "
                              "`WandbCallback` will reuse this run. If this is not desired , call `wandb.finish()` "
                              "before instantiating `WandbCallback`.")
                self._run = self.wandb.run
            else:
                self._run = self.wandb.init(**self.wandb_args)
        return self._run

    def on_train_begin(self, logs=None):
        super().on_train_begin(logs)
        if self._is_write():
            self.run.define_metric("train/step")
            self.run.define_metric("train/*", step_metric="train/step")
            self.run.define_metric("epoch")
            self.run.define_metric("eval/*", step_metric="epoch")

    def _updates(self, logs, mode):
        if not self._is_write():
            return
        head = {"train/step": self.train_step} if mode == "train" else {"epoch": self.epoch}
        self.run.log({**head, **self._scalars(logs, mode)})

    def on_train_end(self, logs=None):
        if self._is_write():
            self.run.finish()

    def on_eval_end(self, logs=None):
        if self._is_write():
            self._updates(logs, "eval")
            if not hasattr(self, "_is_fit"):
                self.run.finish()
