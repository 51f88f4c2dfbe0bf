"""paddle.pir_utils: guards that switch between Paddle's PIR and its legacy program IR.

Static mode here has one IR (torch.fx graphs standing in for PIR programs), and Paddle 3.3's default is PIR, so
the PIR guards do what Paddle's do under its default flags: IrGuard runs the block in static mode (from dynamic
mode), DygraphPirGuard changes nothing.  The legacy-IR guards do what Paddle's do with the flag: OldIrGuard runs
the block in static mode with FLAGS_enable_pir_api off (in_pir_mode() False), DygraphOldIrGuard turns the flag
off; programs built inside are the same programs (the Paddle 2.x static APIs that Paddle 3.3 runs only on its
legacy IR run here as they do on PIR: tests/cases/static_legacy.py).
"""
from . import _report

__all__ = ["IrGuard", "OldIrGuard", "DygraphPirGuard", "DygraphOldIrGuard"]


def _legacy(api):
    return _report.unsupported(f"paddle.pir_utils.{api}", ": paddle_on_torch has no legacy (ProgramDesc) IR; "
                                                          "static mode builds PIR-style programs only")


class IrGuard:
    """Run the block under PIR static mode (entering static mode when called in dynamic mode)."""

    def __enter__(self):
        from .base import framework

        self.in_dygraph_outside = framework.in_dygraph_mode()
        if self.in_dygraph_outside:
            from . import enable_static

            enable_static()

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self.in_dygraph_outside:
            from . import disable_static

            disable_static()


class DygraphPirGuard:
    """Make sure PIR is the static IR inside the block: it always is here."""

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_val, exc_tb):
        return None


class DygraphOldIrGuard:
    """FLAGS_enable_pir_api off inside the block (restored after)."""

    def __enter__(self):
        from .framework import flags

        self.old_flag = flags.get_flags("FLAGS_enable_pir_api")["FLAGS_enable_pir_api"]
        if self.old_flag:
            flags.set_flags({"FLAGS_enable_pir_api": False})

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self.old_flag:
            from .framework import flags

            flags.set_flags({"FLAGS_enable_pir_api": True})


class OldIrGuard(DygraphOldIrGuard):
    """Run the block in static mode (entering it from dynamic mode) with FLAGS_enable_pir_api off."""

    def __enter__(self):
        from .base import framework

        self.in_dygraph_outside = framework.in_dygraph_mode()
        if self.in_dygraph_outside:
            from . import enable_static

            enable_static()
        super().__enter__()

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self.in_dygraph_outside:
            from . import disable_static

            disable_static()
        super().__exit__(exc_type, exc_val, exc_tb)


def bind_datatype():
    """Make paddle.float32 and its kin Paddle's DataType values (what they always are here)."""


def bind_vartype():
    raise _legacy("bind_vartype")


def _switch_to_pir_():
    """Paddle's switch to PIR programs (static mode here always builds them)."""


def _switch_to_old_ir_():
    """Paddle's switch to legacy programs: static mode here builds its one kind (the flag says which is asked)."""


__getattr__ = _report.module_getattr("paddle.pir_utils")
