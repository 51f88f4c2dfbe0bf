"""Main module of paddle.distributed.spawn's children: install the `import paddle` hook, then run
the parent's script (not as __main__) so that functions defined in it can be unpickled."""
import os
import runpy

import paddle_on_torch

paddle_on_torch.install()
_path = os.environ.get("PADDLE_ON_TORCH_SPAWN_MAIN")
if _path:
    globals().update({k: v for k, v in runpy.run_path(_path, run_name="__mp_main__").items()
                      if not k.startswith("__")})
