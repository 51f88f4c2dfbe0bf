"""paddle.incubate.LookAhead: slow weights pulled toward the inner optimizer's fast weights every k steps."""
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
