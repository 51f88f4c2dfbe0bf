"""Quanter factories: a config holds a factory (class + arguments) and instantiates one quanter per layer."""
import abc
import importlib
import sys
from functools import partial


class ClassWithArguments(metaclass=abc.ABCMeta):
    def __init__(self, *args, **kwargs):
        self._args = args
        self._kwargs = kwargs

    @property
    def args(self):
        return self._args

    @property
    def kwargs(self):
        return self._kwargs

    @abc.abstractmethod
    def _get_class(self):
        pass

    def __str__(self):
        # Paddle joins positional arguments as they are (a non-str one makes str() raise TypeError, as there)
        args_str = ",".join(list(self.args) + [f"{k}={v}" for k, v in self.kwargs.items()])
        return f"{self.__class__.__name__}({args_str})"

    def __repr__(self):
        return self.__str__()


class QuanterFactory(ClassWithArguments):
    """Holds a quanter class and its arguments; `_instance(layer)` makes the quanter for `layer`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.partial_class = None

    def _instance(self, layer):
        if self.partial_class is None:
            self.partial_class = partial(self._get_class(), *self.args, **self.kwargs)
        return self.partial_class(layer)


ObserverFactory = QuanterFactory


def quanter(class_name):
    """Class decorator: declares a factory class named `class_name` for the decorated quanter layer in the
    caller's module (and its __all__), as Paddle's decorator does."""

    def wrapper(target_class):
        def __init__(self, *args, **kwargs):
            QuanterFactory.__init__(self, *args, **kwargs)
            # Paddle re-reads the class from its module here: a class that is not a module attribute (one
            # defined inside a function) raises AttributeError
            getattr(importlib.import_module(target_class.__module__), target_class.__name__)

        def _get_class(self):
            return target_class

        new_class = type(class_name, (QuanterFactory,), {"__init__": __init__, "_get_class": _get_class})
        caller = sys._getframe(1).f_globals
        new_class.__module__ = caller.get("__name__", new_class.__module__)
        caller[class_name] = new_class
        if "__all__" in caller:
            caller["__all__"].append(class_name)
        return target_class

    return wrapper
