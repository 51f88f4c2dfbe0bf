"""paddle.ops: Paddle 3.3's torch.ops twin.  `paddle.ops.<namespace>.<name>` is an operator registered with
paddle.library.custom_op (Python functions, kept in PYTHON_OP_REGISTRY), else one a loaded library registered
with torch (TORCH_LIBRARY: torch.ops.<namespace>.<name>, called on the tensors' torch side); `load_library` loads
such a library."""
import contextlib
import ctypes
import importlib
import os
import sys
import types
from functools import cached_property

import torch

from ._normalize import unwrap, wrap_result

PADDLE_OPS_MODULE_NAME = "paddle.ops"


def import_module(module):
    return importlib.import_module(module)


@contextlib.contextmanager
def _global_symbols():
    """dlopen with RTLD_GLOBAL for the block, so that a loaded library's symbols serve the ones loaded after."""
    if not (hasattr(sys, "getdlopenflags") and hasattr(sys, "setdlopenflags")):
        yield
        return
    flags = sys.getdlopenflags()
    sys.setdlopenflags(flags | ctypes.RTLD_GLOBAL)
    try:
        yield
    finally:
        sys.setdlopenflags(flags)


def load_library(path):
    """Load a shared library of operators (its static initialisers register them)."""
    path = os.path.realpath(path)
    with _global_symbols():
        ctypes.CDLL(path)


class PythonOpRegistry:
    """The Python functions paddle.library.custom_op registered, by qualified name ('namespace::name')."""

    def __init__(self):
        self._registry = {}

    def register(self, name, fn):
        if name in self._registry:
            raise ValueError(f"Operator '{name}' is already registered.")
        self._registry[name] = fn

    def has_operator(self, name):
        return name in self._registry

    def get_operator(self, name):
        if name not in self._registry:
            raise ValueError(f"Operator '{name}' is not registered.")
        return self._registry[name]


PYTHON_OP_REGISTRY = PythonOpRegistry()


def _torch_operator(qualname):
    """A torch-registered operator called on paddle Tensors, or one that raises Paddle's error when called."""
    namespace, name = qualname.split("::", 1)
    try:
        op = getattr(getattr(torch.ops, namespace), name)
    except (AttributeError, RuntimeError):
        op = None

    def call(*args, **kwargs):
        if op is None:
            raise RuntimeError(f"(PreconditionNotMet) Error in operator '{qualname}': (NotFound) Operator "
                               f"'{qualname}' not found in the registry")
        return wrap_result(op(*unwrap(args), **unwrap(kwargs)))

    return call


class OverloadedOpFunction:
    """One operator: called directly or through `.default`."""

    def __init__(self, namespace, name):
        self.namespace, self.name = namespace, name

    @cached_property
    def callable_fn(self):
        qualname = f"{self.namespace}::{self.name}"
        if PYTHON_OP_REGISTRY.has_operator(qualname):
            return PYTHON_OP_REGISTRY.get_operator(qualname)
        return _torch_operator(qualname)

    def __getattr__(self, name):
        if name == "default":
            return self.callable_fn
        raise AttributeError(f"'{self.namespace}.{self.name}' has no attribute '{name}'")

    def __call__(self, *args, **kwargs):
        return self.callable_fn(*args, **kwargs)


class OpNameSpace(types.ModuleType):
    def __init__(self, name):
        super().__init__(f"{PADDLE_OPS_MODULE_NAME}.{name}")
        self.name = name

    def __getattr__(self, name):
        if name == "__file__":
            return PADDLE_OPS_MODULE_NAME
        return OverloadedOpFunction(self.name, name)


class RegistryModule(types.ModuleType):
    """paddle.ops / paddle.classes: a namespace object per attribute read (made once), and the library loaders."""
    namespace_type = None

    def __getattr__(self, name):
        namespace = self.namespace_type(name)
        setattr(self, name, namespace)
        return namespace

    def import_module(self, module):
        return import_module(module)

    def load_library(self, path):
        return load_library(path)


class PaddleOpsModule(RegistryModule):
    __file__ = "_ops.py"
    namespace_type = OpNameSpace

    def __init__(self):
        super().__init__(PADDLE_OPS_MODULE_NAME)


ops = PaddleOpsModule()
