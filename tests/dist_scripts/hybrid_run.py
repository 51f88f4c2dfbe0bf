"""`torchrun ... -m paddle_on_torch hybrid_run.py SCRIPT [STEPS]`: run SCRIPT (unchanged) after
paddle.seed(2024) and np.random.seed(2024) (paddle.seed leaves numpy alone, as Paddle's does), printing
`loss STEP VALUE` at every `loss.backward()` on the ranks that hold the loss, and stopping after STEPS
steps (all of them when not given); then `param NAME SUM ABSSUM` for each parameter of the script's
`model` on the ranks of its mesh.  hybrid_reference.py prints the same from one process."""
import runpy
import sys

import numpy as np
import paddle
import paddle.distributed as dist

paddle.seed(2024)
np.random.seed(2024)  # the seed script's dataset draws from numpy's global state
script = sys.argv[1]
steps = int(sys.argv[2]) if len(sys.argv) > 2 else None
sys.argv = sys.argv[1:2]
rank = dist.get_rank()


class _Stop(Exception):
    pass


_backward = paddle.Tensor.backward
_step = [0]


def backward(self, *args, **kwargs):
    if steps is not None and _step[0] >= steps:
        raise _Stop
    if self.is_dist():
        if self.process_mesh.contains(rank):
            print("loss", _step[0], repr(float(self)), flush=True)
    else:
        print("loss", _step[0], repr(float(self)), flush=True)
    _step[0] += 1
    return _backward(self, *args, **kwargs)


paddle.Tensor.backward = backward
scope = {}
try:
    scope = runpy.run_path(script, run_name="__main__")
except _Stop:
    import inspect

    for frame_info in inspect.trace():  # the script's globals, from the frame that raised through it
        if frame_info.frame.f_code.co_filename == script:
            scope = frame_info.frame.f_globals
            break
paddle.Tensor.backward = _backward
for name, p in scope["model"].named_parameters():
    if p.is_dist():
        if not p.process_mesh.contains(rank):
            continue
        p = dist.unshard_dtensor(p)
    v = p.numpy().astype(np.float64)
    print("param", name, repr(v.sum()), repr(np.abs(v).sum()), flush=True)
