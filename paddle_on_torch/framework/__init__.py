"""paddle.framework: dtypes, places, random state, grad mode."""
from . import dtype, place  # noqa: F401
from .dtype import get_default_dtype, set_default_dtype  # noqa: F401
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from .random import get_rng_state, seed, set_rng_state  # noqa: F401
from .io import async_save, clear_async_save_task_queue, load, save  # noqa: F401,E402
from .param_attr import ParamAttr  # noqa: F401,E402
