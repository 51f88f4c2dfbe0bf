"""paddle.classes: Paddle 3.3's torch.classes twin.  `paddle.classes.<namespace>.<Name>` is a custom class a
loaded library registered with torch (torch.classes), else Paddle's NotFound error."""
import types

import torch

from ._ops import import_module, load_library

PADDLE_CLASSES_MODULE_NAME = "paddle.classes"


class ClassesNameSpace(types.ModuleType):
    def __init__(self, name):
        super().__init__(f"{PADDLE_CLASSES_MODULE_NAME}.{name}")
        self.name = name

    def __getattr__(self, name):
        if name == "__file__":
            return PADDLE_CLASSES_MODULE_NAME
        try:
            return getattr(getattr(torch.classes, self.name), name)
        except (AttributeError, RuntimeError):
            raise RuntimeError(f"(NotFound) Class '{self.name}::{name}' not found in the registry") from None


class PaddleClassesModule(types.ModuleType):
    __file__ = "_classes.py"

    def __init__(self):
        super().__init__(PADDLE_CLASSES_MODULE_NAME)

    def __getattr__(self, name):
        namespace = ClassesNameSpace(name)
        setattr(self, name, namespace)
        return namespace

    def import_module(self, module):
        return import_module(module)

    def load_library(self, path):
        return load_library(path)


classes = PaddleClassesModule()
