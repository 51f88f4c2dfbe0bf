"""paddle.distributed's sharded checkpoints in a world of one: load_merged_state_dict and flex_checkpoint's
merge_sharded_state_dict (the safetensors conversion), divide_positions.  The checkpoint files themselves differ
(the shim writes torch DCP's): what is compared is what a user reads back."""
import contextlib
import json
import os
import shutil
import tempfile

from tests.cases import case


@contextlib.contextmanager
def _checkpoint(paddle):
    """A world-of-one checkpoint of a nested state dict in a temporary folder (removed afterwards)."""
    where = tempfile.mkdtemp(prefix="pot_dist_ckpt_")
    try:
        _save(paddle, where)
        yield where
    finally:
        shutil.rmtree(where, ignore_errors=True)


def _save(paddle, where):
    sd = {"model": {"w": paddle.arange(6, dtype="float32").reshape([2, 3]), "b": paddle.to_tensor([1.0, 2.0])},
          "opt": {"w_moment1_0": paddle.ones([3], dtype="float64")}}
    paddle.distributed.save_state_dict(sd, os.path.join(where, "ckpt"))


def _merged(paddle, **kw):
    from safetensors.numpy import load_file
    from paddle.distributed.flex_checkpoint.dcp.load_state_dict import merge_sharded_state_dict

    with _checkpoint(paddle) as where:
        out = os.path.join(where, "out")
        merge_sharded_state_dict(os.path.join(where, "ckpt"), out, **kw)
        names = sorted(os.listdir(out))
        index = [n for n in names if n.endswith(".index.json")]
        with open(os.path.join(out, index[0])) as f:
            idx = json.load(f)
        tensors = {n: dict(sorted(load_file(os.path.join(out, n)).items()))
                   for n in names if n.endswith(".safetensors")}
    return [names, idx["metadata"], sorted(idx["weight_map"].items()),
            {n: {k: [str(v.dtype), v.tolist()] for k, v in t.items()} for n, t in tensors.items()}]


@case
def load_merged_state_dict_prefix(paddle):
    with _checkpoint(paddle) as where:
        m = paddle.distributed.load_merged_state_dict(os.path.join(where, "ckpt"), prefix="model")
    return [sorted(m), m["w"], m["b"], m["w"].is_dist()]


@case
def load_merged_state_dict_all(paddle):
    with _checkpoint(paddle) as where:
        m = paddle.distributed.load_merged_state_dict(os.path.join(where, "ckpt"))
    return [sorted(m), m["opt.w_moment1_0"], m["model.w"]]


@case
def merge_sharded_state_dict_to_safetensors(paddle):
    return _merged(paddle)


@case
def merge_sharded_state_dict_prefix_and_skip(paddle):
    return _merged(paddle, prefix="model", safetensor_prefix="llama", skip_postfix_list=["moment1_0"])


@case
def merge_sharded_state_dict_prefix_must_cover(paddle):
    return _merged(paddle, prefix="model")  # opt.* is neither skipped nor under the prefix: AssertionError


@case
def divide_positions(paddle):
    from paddle.distributed.flex_checkpoint.dcp.load_state_dict import divide_positions as d

    return [d(5, 2), d(3, 3), d(7, 3)]


@case
def divide_positions_too_few(paddle):
    from paddle.distributed.flex_checkpoint.dcp.load_state_dict import divide_positions as d

    return d(2, 3)


@case
def divide_positions_zero(paddle):
    from paddle.distributed.flex_checkpoint.dcp.load_state_dict import divide_positions as d

    return d(3, 0)
