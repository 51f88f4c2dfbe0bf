"""paddle.jit.dy2static.program_translator: ProgramTranslator, Paddle's process-wide handle on the to_static
switch (libraries read `ProgramTranslator().enable_to_static` to save and restore it)."""
__all__ = ["ProgramTranslator"]


class ProgramTranslator:
    """One instance per process (every ProgramTranslator() is it).  `enable_to_static` is the switch that
    paddle.jit.enable_to_static sets; `enable(flag)` sets it too."""

    _instance = None

    def __new__(cls, *args, **kwargs):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    @classmethod
    def get_instance(cls):
        return cls()

    @classmethod
    def reset(cls):
        """Paddle forgets its cached programs; here there is no cache to drop, and the switch turns back on."""
        cls().enable(True)

    @property
    def enable_to_static(self):
        from ..api import _state

        return _state["enabled"]

    @enable_to_static.setter
    def enable_to_static(self, flag):
        self.enable(flag)

    def enable(self, enable_to_static):
        """Set the switch (Paddle checks the type only in static mode: in eager mode any value is stored)."""
        from ..api import _state

        _state["enabled"] = enable_to_static
