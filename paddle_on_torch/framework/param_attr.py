"""paddle.ParamAttr: how a parameter is named, initialised, regularised and trained."""

__all__ = ["ParamAttr"]


class ParamAttr:
    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None, trainable=True,
                 do_model_average=True, need_clip=True):
        if learning_rate < 0:
            raise ValueError("The learning_rate of ParamAttr must be non-negative.")
        self.name, self.initializer, self.learning_rate = name, initializer, learning_rate
        self.regularizer, self.trainable, self.do_model_average = regularizer, trainable, do_model_average
        self.need_clip = need_clip

    @staticmethod
    def _to_attr(arg):
        """Paddle accepts a ParamAttr, a name, an initializer, False (no parameter) or None."""
        if arg is None:
            return ParamAttr()
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if arg is False:
            return False
        if callable(arg) or hasattr(arg, "_init"):
            return ParamAttr(initializer=arg)
        raise TypeError(f"{type(arg)} cast to ParamAttr")
