"""Paddle 3.3.1's public API names (recorded by tools/dump_api.py), loaded once."""
import functools
import json
import os


@functools.lru_cache(maxsize=None)
def paddle_api():
    with open(os.path.join(os.path.dirname(__file__), "_paddle_api.json")) as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def paddle_semipublic():
    """The names of Paddle's semi-public modules (paddle.base.core, paddle.base.framework, paddle.pir, ...), recorded by
    tools/record_api_kinds.py: libraries reach them, the API table does not list them."""
    with open(os.path.join(os.path.dirname(__file__), "_paddle_semipublic.json")) as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def paddle_names(namespace):
    """{name: kind} of a Paddle namespace such as 'paddle.nn.functional' ({} if unknown): its public names, and for
    the namespaces libraries reach past them (paddle.utils, paddle.base.core, ...) the others too."""
    public = paddle_api()["namespaces"].get(namespace, {})
    semi = paddle_semipublic().get(namespace)
    return public if semi is None else {**semi, **public}


@functools.lru_cache(maxsize=None)
def _paddle_aliases():
    with open(os.path.join(os.path.dirname(__file__), "_paddle_aliases.json")) as f:
        return json.load(f)


def paddle_aliases(*apis):
    """{alias: parameter} of the keywords Paddle 3.3.1 accepts for these APIs beside their parameters (`input`
    for `x`, `dim` for `axis`, `mat2` for `y`, ...; `"out": "out"` where it takes `out=`), recorded from real
    Paddle by tools/record_signatures.py: the one table the op generator and the Layers read."""
    table = _paddle_aliases()
    out = {}
    for api in apis:
        out.update(table.get(api, ()))
    return out
