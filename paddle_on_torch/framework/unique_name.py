"""Paddle's name generator (paddle.utils.unique_name): `linear_0`, `linear_0.w_0`, `create_parameter_1.b_0`, ...

Also the checker Paddle's dygraph mode uses to refuse two parameters of one name; `guard()` gives
a fresh generator and a fresh checker, as in Paddle.
"""
import collections
import contextlib

__all__ = ["generate", "switch", "guard"]


class UniqueNameGenerator:
    def __init__(self, prefix=None):
        self.ids = collections.defaultdict(int)
        self.prefix = prefix or ""

    def __call__(self, key):
        return self.generate(key)

    def generate(self, key):
        n = self.ids[key]
        self.ids[key] += 1
        return f"{self.prefix}{key}_{n}"


class DygraphParameterNameChecker:
    """`checker(name)` is True when the name was used before (and records it otherwise)."""

    def __init__(self):
        self._name_set = set()

    def __call__(self, name):
        if name in self._name_set:
            return True
        self._name_set.add(name)
        return False


generator = UniqueNameGenerator()
dygraph_parameter_name_checker = DygraphParameterNameChecker()


def generate(key):
    return generator(key)


def switch(new_generator=None, new_para_name_checker=None):
    """Install a generator (and checker); returns the previous pair."""
    global generator, dygraph_parameter_name_checker
    old = generator, dygraph_parameter_name_checker
    generator = UniqueNameGenerator() if new_generator is None else new_generator
    dygraph_parameter_name_checker = (DygraphParameterNameChecker() if new_para_name_checker is None
                                      else new_para_name_checker)
    return old


@contextlib.contextmanager
def guard(new_generator=None):
    """Names generated inside start afresh (a str or bytes argument becomes the names' prefix)."""
    if isinstance(new_generator, bytes):
        new_generator = new_generator.decode()
    if isinstance(new_generator, str):
        new_generator = UniqueNameGenerator(new_generator)
    old_generator, old_checker = switch(new_generator)
    try:
        yield
    finally:
        switch(old_generator, old_checker)


# Paddle runs dynamic mode inside a guard(): entered when paddle is imported and by disable_static(), left by
# enable_static().  So static mode keeps one generator of its own for the whole process, and every return to
# dynamic mode starts the names afresh (linear_0 again).  This is the generator pair outside that guard.
_outside_dygraph = switch()


def enter_dygraph():
    """disable_static(): a fresh generator for dynamic mode; the static one waits in _outside_dygraph."""
    global _outside_dygraph
    _outside_dygraph = switch()


def leave_dygraph():
    """enable_static(): back to the generator that was active when dynamic mode was entered."""
    switch(*_outside_dygraph)
