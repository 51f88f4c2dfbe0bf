"""paddle.incubate.LookAhead and ModelAverage: optimizer wrappers that keep extra copies of the weights."""
import contextlib

import torch


class LookAhead:
    """After the inner step t (from 1): at t == 1 slow = param; when t % k == 0,
    param = slow = alpha * param + (1 - alpha) * slow (Paddle's rule, for trainable params with a gradient)."""

    def __init__(self, inner_optimizer, alpha=0.5, k=5, name=None):
        assert inner_optimizer is not None, "inner optimizer can not be None"
        assert 0.0 <= alpha <= 1.0, "alpha should be larger or equal to 0.0, and less or equal than 1.0"
        assert isinstance(k, int) and k > 0, "k should be a positive integer"
        self.inner_optimizer, self.alpha, self.k = inner_optimizer, alpha, k
        self.type = "lookahead"
        self._parameter_list = inner_optimizer._parameter_list
        self._slow = {}
        self._global_step = 0

    def _params(self):
        for p in self._parameter_list or []:
            if isinstance(p, dict):
                yield from p["params"]
            else:
                yield p

    @torch.no_grad()
    def _lookahead(self):
        self._global_step += 1
        t = self._global_step
        for p in self._params():
            if not p.trainable or p.grad is None:
                continue
            w = p._t
            slow = self._slow.setdefault(id(p), torch.zeros_like(w))
            if t == 1:
                slow.copy_(w)
            if t % self.k == 0:
                new = self.alpha * w + (1.0 - self.alpha) * slow
                w.copy_(new)
                slow.copy_(new)

    def step(self):
        self.inner_optimizer.step()
        self._lookahead()

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        result = self.inner_optimizer.minimize(loss, startup_program=startup_program, parameters=parameters,
                                               no_grad_set=no_grad_set)
        self._lookahead()
        return result

    def clear_grad(self, set_to_zero=True):
        self.inner_optimizer.clear_grad(set_to_zero)

    clear_gradients = clear_grad

    def get_lr(self):
        return self.alpha  # Paddle builds LookAhead as an optimizer whose learning rate is alpha


class ModelAverage:
    """Running average of parameters over a sliding window (Paddle's average_accumulates rule): each step adds
    the parameter to sum_1 (moved into sum_2 every 16384 updates); once the window holds at least
    min_average_window and min(max_average_window, int(num_updates * average_window_rate)) steps, sum_3 =
    sum_1 + sum_2 and the window restarts.  apply() swaps in (sum_1 + sum_2 + sum_3) / (count + old count)."""

    _K_MAX = 16384  # Paddle moves sum_1 into sum_2 this often, against float precision loss

    def __init__(self, average_window_rate, parameters=None, min_average_window=10000, max_average_window=10000,
                 name=None):
        self.average_window = average_window_rate
        self.min_average_window, self.max_average_window = min_average_window, max_average_window
        self.type = "average_accumulates"
        self._parameter_list = list(parameters) if parameters is not None else []
        self._acc = {}

    def _state(self, p):
        if id(p) not in self._acc:
            z = torch.zeros_like(p._t)
            self._acc[id(p)] = {"sum_1": z, "sum_2": z.clone(), "sum_3": z.clone(), "restore": z.clone(),
                                "num_accumulates": 0, "old_num_accumulates": 0, "num_updates": 0}
        return self._acc[id(p)]

    @torch.no_grad()
    def step(self):
        if self.min_average_window > self.max_average_window:
            raise ValueError(f"(InvalidArgument) The min_average_window > max_average_window is not right, "
                             f"min_average_window is {self.min_average_window}, max_average_window is "
                             f"{self.max_average_window}.")
        for p in self._parameter_list:
            s = self._state(p)
            if not p.trainable or p.grad is None:
                continue
            s["num_updates"] += 1
            s["num_accumulates"] += 1
            s["sum_1"] += p._t
            if s["num_updates"] % self._K_MAX == 0:
                s["sum_2"] += s["sum_1"]
                s["sum_1"].zero_()
            window = min(self.max_average_window, int(s["num_updates"] * self.average_window))
            if s["num_accumulates"] >= self.min_average_window and s["num_accumulates"] >= window:
                s["sum_3"].copy_(s["sum_1"] + s["sum_2"])
                s["sum_1"].zero_()
                s["sum_2"].zero_()
                s["old_num_accumulates"], s["num_accumulates"] = s["num_accumulates"], 0

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        self.step()

    @contextlib.contextmanager
    def apply(self, executor=None, need_restore=True):
        with torch.no_grad():
            for p in self._parameter_list:
                s = self._state(p)
                s["restore"].copy_(p._t)
                total = (s["sum_1"] + s["sum_2"] + s["sum_3"]).float()
                p._t.copy_(total / float(s["num_accumulates"] + s["old_num_accumulates"]))
        try:
            yield
        finally:
            if need_restore:
                self.restore()

    @torch.no_grad()
    def restore(self, executor=None):
        for p in self._parameter_list:
            p._t.copy_(self._state(p)["restore"])
