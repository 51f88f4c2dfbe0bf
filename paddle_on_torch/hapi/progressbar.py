"""The progress line hapi's ProgBarLogger prints ("step 3/10 - loss: 0.1234 - 5ms/step")."""
import os
import shutil
import sys
import time

import numpy as np

__all__ = []


def _fmt_number(v):
    return f" {v:.4f}" if abs(v) > 1e-3 else f" {v:.4e}"


def _fmt_values(values, arrays_as_numbers):
    out = ""
    for k, val in values:
        out += f" - {k}:"
        for v in (val if isinstance(val, list) else [val]):
            if isinstance(v, (float, np.float32, np.float64)):
                out += _fmt_number(v)
            elif (arrays_as_numbers and isinstance(v, np.ndarray) and v.size == 1
                  and v.dtype in (np.float32, np.float64)):
                out += _fmt_number(v.item())
            else:
                out += f" {v}"
    return out


class ProgressBar:
    """verbose=1: one bar redrawn in place; verbose=2 (or 3): one line per update."""

    def __init__(self, num=None, width=30, verbose=1, start=True, file=sys.stdout, name="step"):
        if isinstance(num, int) and num <= 0:
            raise TypeError("num should be None or integer (> 0)")
        self._num = num
        columns = shutil.get_terminal_size().columns
        columns = columns if columns > 0 else 80
        self._width = min(width, min(int(columns * 0.6), columns - 50))
        self._total_width = 0
        self._verbose = verbose
        self.file = file
        self._values = {}
        self._values_order = []
        if start:
            self._start = time.time()
        self._last_update = 0
        self.name = name
        # Paddle's test is true on every POSIX system ('posix' is always in sys.modules there)
        self._dynamic_display = ((hasattr(file, "isatty") and file.isatty()) or "ipykernel" in sys.modules
                                 or "posix" in sys.modules or "PYCHARM_HOSTED" in os.environ)

    def start(self):
        self.file.flush()
        self._start = time.time()

    def _per_unit(self, current_num, now):
        per = (now - self._start) / current_num if current_num else 0
        if per >= 1 or per == 0:
            return per, f" - {per:.0f}s/{self.name}"
        if per >= 1e-3:
            return per, f" - {per * 1e3:.0f}ms/{self.name}"
        return per, f" - {per * 1e6:.0f}us/{self.name}"

    def update(self, current_num, values=()):
        now = time.time()
        values = list(values)
        per, fps = self._per_unit(current_num, now)
        out = sys.stdout  # Paddle writes to sys.stdout whatever `file` is
        if self._verbose == 1:
            prev_total_width = self._total_width
            out.write(("\b" * prev_total_width + "\r") if self._dynamic_display else "\n")
            if self._num is not None:
                digits = len(str(self._num))
                bar = f"{self.name} {current_num:{digits}d}/{self._num} ["
                prog_width = int(self._width * (float(current_num) / self._num))
                if prog_width > 0:
                    bar += "=" * (prog_width - 1) + (">" if current_num < self._num else "=")
                bar += "." * (self._width - prog_width) + "]"
            else:
                bar = f"{self.name} {current_num:3}"
            self._total_width = len(bar)
            out.write(bar)
            info = _fmt_values(values, False)
            if self._num is not None and current_num < self._num:
                eta = int(per * (self._num - current_num))
                if eta > 3600:
                    eta_s = f"{eta // 3600}:{(eta % 3600) // 60:02}:{eta % 60:02}"
                elif eta > 60:
                    eta_s = f"{eta // 60}:{eta % 60:02}"
                else:
                    eta_s = f"{eta}s"
                info += f" - ETA: {eta_s}"
            info += fps
            self._total_width += len(info)
            if prev_total_width > self._total_width:
                info += " " * (prev_total_width - self._total_width)
            if self._num is None or current_num >= self._num:
                info += "\n"
            out.write(info)
            out.flush()
            self._last_update = now
        elif self._verbose in (2, 3):
            if self._num:
                digits = len(str(self._num))
                count = f"{self.name} {current_num:{digits}d}/{self._num}"
            else:
                count = f"{self.name} {current_num:3}"
            out.write(count + _fmt_values(values, True) + fps + "\n")
            out.flush()
