"""paddle.utils.unique_name: the framework's name generator."""
from ..framework.unique_name import generate, guard, switch  # noqa: F401

__all__ = ["generate", "switch", "guard"]
