"""paddle.framework's exported names, the torch-style autocast state functions, paddle.utils.deprecated and
paddle.utils.try_import."""
import warnings

from tests.cases import case


@case
def framework_names(paddle):
    pf = paddle.framework
    w = paddle.nn.Linear(2, 2).weight
    out = [isinstance(w, pf.Parameter), pf.is_parameter(w), pf.is_parameter(paddle.ones([1])), pf.use_pir_api(),
           pf.in_pir_mode(), pf.in_dynamic_or_pir_mode(), pf.in_dynamic_mode(), str(pf.CPUPlace()),
           str(pf.convert_np_dtype_to_dtype_("float")), str(pf.convert_np_dtype_to_dtype_("int32")),
           pf.get_flags("FLAGS_check_nan_inf")]

    @pf.dygraph_only
    def only_dynamic(x):
        return x + 1

    @pf.dygraph_not_support
    def only_static(x):
        return x

    out.append(only_dynamic(1))
    try:
        only_static(1)
    except AssertionError as e:
        out.append(str(e))
    return out


@case
def autocast_state(paddle):
    out = [paddle.is_autocast_enabled(), paddle.get_autocast_dtype(), paddle.get_autocast_cpu_dtype(),
           paddle.get_autocast_gpu_dtype()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (on the CPU, Paddle says auto_cast has no effect)
        with paddle.autocast("cpu", dtype="bfloat16"):
            out += [paddle.is_autocast_enabled(), paddle.get_autocast_dtype(),
                    str((paddle.ones([2, 2]) @ paddle.ones([2, 2])).dtype)]
    return out


@case
def try_import_messages(paddle):
    out = [paddle.utils.try_import("math").__name__]
    for name, msg in [("no_such_module_xyz", None), ("no_such_pkg_xyz.sub", None), ("cv2_missing_xyz", "custom")]:
        try:
            paddle.utils.try_import(name, msg)
        except ImportError as e:
            out.append(str(e))
    return out


@case
def deprecated_decorator(paddle):
    out = []
    for kw in [dict(), dict(since="2.0.0", update_to="paddle.zeros", reason="old", level=1),
               dict(since="9.0", level=1), dict(level=2)]:
        def f(x):
            """Adds one."""
            return x + 1

        g = paddle.utils.deprecated(**kw)(f)
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            try:
                r = g(1)
            except RuntimeError as e:
                r = f"RuntimeError: {e}"
        out.append([g.__doc__, r, [(w.category.__name__, str(w.message)) for w in rec]])
    for bad in [dict(level=3), dict(update_to="numpy.zeros")]:
        try:
            paddle.utils.deprecated(**bad)(lambda: 0)
        except AssertionError as e:
            out.append(str(e))
    return out
