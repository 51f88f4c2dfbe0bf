"""Paddle 3.3.1's public API names (recorded by tools/dump_api.py), loaded once."""
import functools
import json
import os


@functools.lru_cache(maxsize=None)
def paddle_api():
    with open(os.path.join(os.path.dirname(__file__), "_paddle_api.json")) as f:
        return json.load(f)


def paddle_names(namespace):
    """{name: kind} of a Paddle namespace such as 'paddle.nn.functional' ({} if unknown)."""
    return paddle_api()["namespaces"].get(namespace, {})
