"""paddle.classes: Paddle 3.3's torch.classes twin.  `paddle.classes.<namespace>.<Name>` is a custom class a
loaded library registered with torch (torch.classes), else Paddle's NotFound error."""
import types

import torch

from ._ops import RegistryModule

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


class PaddleClassesModule(RegistryModule):
    __file__ = "_classes.py"
    namespace_type = ClassesNameSpace

    def __init__(self):
        super().__init__(PADDLE_CLASSES_MODULE_NAME)


classes = PaddleClassesModule()
