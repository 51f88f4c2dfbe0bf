"""Classes Paddle's libraries import by name that paddle_on_torch does not implement.

Each stays a class (isinstance checks against it work and answer False for our objects); making one
raises UnsupportedAPIError, a NotImplementedError naming the Paddle API.
"""
from .. import _report


def unsupported_class(api, detail=""):
    def __init__(self, *args, **kwargs):
        raise _report.unsupported(api, detail)

    name = api.rsplit(".", 1)[-1]
    return type(name, (), {"__init__": __init__, "__module__": api.rsplit(".", 1)[0],
                           "__doc__": f"{api}: not supported by paddle_on_torch (raises NotImplementedError)."})
