"""paddle.hub: paddle.hapi.hub's functions (models from a repository's hubconf.py, state dicts by URL)."""
from .hapi.hub import help, list, load, load_state_dict_from_url  # noqa: F401

__all__ = ["list", "help", "load", "load_state_dict_from_url"]
