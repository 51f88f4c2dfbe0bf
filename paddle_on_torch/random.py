"""paddle.random: Paddle 3.3's torch.random twin.  It holds one function (Paddle's other random APIs are at
paddle.* and paddle.tensor.random, here as there)."""
__all__ = ["initial_seed"]


def initial_seed() -> int:
    """The initial seed of the default CPU generator, an int (what paddle.seed set last, else the one drawn at
    start-up)."""
    from .base import core

    return core.default_cpu_generator().initial_seed()
