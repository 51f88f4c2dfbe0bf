"""paddle.ParamAttr: how a parameter is named, initialised, regularised and trained."""

__all__ = ["ParamAttr"]


class ParamAttr:
    # Paddle type-checks these arguments only in static mode; in dynamic mode anything is stored.
    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None, trainable=True,
                 do_model_average=True, need_clip=True):
        if name == "":
            raise ValueError("name of ParamAttr can not be empty str")
        self.name, self.initializer, self.learning_rate = name, initializer, learning_rate
        self.regularizer, self.trainable, self.do_model_average = regularizer, trainable, do_model_average
        self.need_clip = need_clip

    def _set_default_initializer(self, initializer):
        if initializer is None:
            if self.initializer is None:
                raise ValueError("ParamAttr.initializer is not set")
            return
        if self.initializer is None:
            self.initializer = initializer

    @staticmethod
    def _to_attr(arg):
        """A ParamAttr, a name, an initializer, a regularizer, True/None (defaults) or False (no parameter)."""
        from ..nn.initializer import Initializer

        if arg is None:
            return ParamAttr()
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        if _is_regularizer(arg):
            return ParamAttr(regularizer=arg)
        if isinstance(arg, bool):
            return ParamAttr() if arg else False
        raise TypeError(f"{type(arg)} cast to ParamAttr")

    def _to_kwargs(self, with_initializer=False):
        kwargs = {"name": self.name, "optimize_attr": {"learning_rate": self.learning_rate},
                  "regularizer": self.regularizer, "trainable": self.trainable,
                  "do_model_average": self.do_model_average, "need_clip": self.need_clip}
        if with_initializer:
            kwargs["initializer"] = self.initializer
        return kwargs


def _is_regularizer(obj):
    try:
        from ..regularizer import WeightDecayRegularizer
    except ImportError:  # paddle.regularizer not there yet
        return False
    return isinstance(obj, WeightDecayRegularizer)
