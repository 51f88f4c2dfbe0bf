"""The prim switches.  Paddle makes them static-graph only: in dynamic mode (the only mode
paddle_on_torch has until static graphs land) they raise Paddle's AssertionError."""
__all__ = ["enable_prim", "disable_prim", "prim_enabled", "static_only"]

_prim = {"enabled": False}


def static_only(name):
    """Paddle's @static_only check, as a call at the top of the function."""
    from ... import in_dynamic_mode

    if in_dynamic_mode():
        raise AssertionError(f"In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and '{name}()' is only "
                             "supported in static graph mode. So if you want to use this api, please call "
                             "'paddle.enable_static()' before this api to enter static graph mode.")


def prim_enabled():
    static_only("prim_enabled")
    return _prim["enabled"]


def enable_prim():
    static_only("enable_prim")
    _prim["enabled"] = True


def disable_prim():
    static_only("disable_prim")
    _prim["enabled"] = False
