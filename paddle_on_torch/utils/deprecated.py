"""paddle.utils.deprecated: mark an API deprecated (a note in its docstring; with level 1 a warning per call
once the running version reached `since`, with level 2 a RuntimeError)."""
import functools
import inspect
import sys
import warnings

__all__ = ["deprecated", "VisibleDeprecationWarning"]


class VisibleDeprecationWarning(UserWarning):
    """Shown by default, unlike DeprecationWarning."""


def _version(v):
    parts = [int(p) for p in v.split(".") if p.isdigit()]
    return parts + [0] * (4 - len(parts))


def deprecated(update_to="", since="", reason="", level=0):
    def decorator(func):
        assert isinstance(update_to, str), 'type of "update_to" must be str.'
        assert isinstance(since, str), 'type of "since" must be str.'
        assert isinstance(reason, str), 'type of "reason" must be str.'
        assert isinstance(level, int) and 0 <= level < 3, (
            f'type of "level" must be int and must be one of 0, 1, 2. But received: {level}.')
        since_, update_to_, reason_ = since.strip(), update_to.strip(), reason.strip()
        msg = f'API "{func.__module__}.{func.__name__}" is deprecated'
        if since_:
            msg += f" since {since_}"
        msg += ", and will be removed in future versions."
        if update_to_:
            assert update_to_.startswith("paddle."), (
                f'Argument update_to must start with "paddle.", your value is "{update_to}"')
            msg += f' Please use "{update_to_}" instead.'
        if reason_:
            msg += f"\n    Reason: {reason_}"
        if func.__doc__:
            func.__doc__ = "\n\nWarning:\n    " + msg + "\n\n" + inspect.cleandoc(func.__doc__)
        if level == 0:
            return func

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if level == 2:
                raise RuntimeError(f'API "{func.__module__}.{func.__name__}" has been deprecated.')
            from ..version import full_version

            if not since_ or _version(full_version) >= _version(since):
                text = f"\nWarning:\n{msg} " if sys.platform.lower() == "win32" else f"\033[93m\nWarning:\n{msg} \033[0m"
                warnings.warn(text, category=VisibleDeprecationWarning, stacklevel=2)
            return func(*args, **kwargs)

        return wrapper

    return decorator
