"""paddle.distribution.Independent and TransformedDistribution."""
import typing

from . import transform as _transform
from .distribution import Distribution, _sum_rightmost

__all__ = ["Independent", "TransformedDistribution"]


class Independent(Distribution):
    """Reinterpret the rightmost `reinterpreted_batch_rank` batch axes of `base` as event axes."""

    def __init__(self, base, reinterpreted_batch_rank):
        if not isinstance(base, Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}")
        if not 0 < reinterpreted_batch_rank <= len(base.batch_shape):
            raise ValueError(f"Expected 0 < reinterpreted_batch_rank <= {len(base.batch_shape)}, but got "
                             f"{reinterpreted_batch_rank}")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        shape = tuple(base.batch_shape) + tuple(base.event_shape)
        split = len(base.batch_shape) - reinterpreted_batch_rank
        super().__init__(batch_shape=shape[:split], event_shape=shape[split:])

    @property
    def mean(self):
        return self._base.mean

    @property
    def variance(self):
        return self._base.variance

    def sample(self, shape=()):
        return self._base.sample(shape)

    def log_prob(self, value):
        return _sum_rightmost(self._base.log_prob(value), self._reinterpreted_batch_rank)

    def prob(self, value):
        return self.log_prob(value).exp()

    def entropy(self):
        return _sum_rightmost(self._base.entropy(), self._reinterpreted_batch_rank)


class TransformedDistribution(Distribution):
    """`base` pushed through `transforms` (applied in order)."""

    def __init__(self, base, transforms):
        if not isinstance(base, Distribution):
            raise TypeError(f"Expected type of 'base' is Distribution, but got {type(base)}.")
        if not isinstance(transforms, typing.Sequence):
            raise TypeError("Expected type of 'transforms' is Sequence[Transform] or Chain, but got "
                            f"{type(transforms)}.")
        if not all(isinstance(t, _transform.Transform) for t in transforms):
            raise TypeError("All element of transforms must be Transform type.")
        self._base = base
        self._transforms = transforms
        if not transforms:
            super().__init__(base.batch_shape, base.event_shape)
            return
        chain = _transform.ChainTransform(transforms)
        base_shape = tuple(base.batch_shape) + tuple(base.event_shape)
        dom_rank = chain._domain.event_rank
        if len(base_shape) < dom_rank:
            raise ValueError(f"'base' needs to have shape with size at least {dom_rank}, bug got {len(base_shape)}.")
        if dom_rank > len(base.event_shape):
            base = Independent(base, dom_rank - len(base.event_shape))
        shape = chain.forward_shape(tuple(base.batch_shape) + tuple(base.event_shape))
        event_rank = chain._codomain.event_rank + max(len(base.event_shape) - dom_rank, 0)
        super().__init__(shape[:len(shape) - event_rank], shape[len(shape) - event_rank:])

    def sample(self, shape=()):
        x = self._base.sample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def rsample(self, shape=()):
        x = self._base.rsample(shape)
        for t in self._transforms:
            x = t.forward(x)
        return x

    def log_prob(self, value):
        result = 0.0
        y = value
        rank = len(self.event_shape)
        for t in reversed(self._transforms):
            x = t.inverse(y)
            rank += t._domain.event_rank - t._codomain.event_rank
            result = result - _sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            y = x
        return result + _sum_rightmost(self._base.log_prob(y), rank - len(self._base.event_shape))
