"""The two errors a model file can give: a file that is not (or not yet) readable, and ops we cannot lower."""


class ModelFormatError(ValueError):
    """A program file that is truncated, foreign, malformed or of a newer format version."""


class UnsupportedOpsError(NotImplementedError):
    """The program uses ops that have no torch lowering; `ops` lists every one (a NotImplementedError)."""

    def __init__(self, ops, where):
        from ..._report import record

        self.ops = sorted(ops)
        for op in self.ops:  # each counts for the unsupported-API report
            record(op)
        self._recorded = True
        super().__init__(
            f"{where}: the program uses {len(self.ops)} op type(s) that paddle_on_torch cannot lower to "
                  f"torch: {', '.join(self.ops)}")
