"""paddle.jit.layer: Paddle's C++ jit Layer (a saved program run by Paddle's C++ executor): not provided;
paddle.jit.load gives the loaded program as a TranslatedLayer."""
from .. import _report

raise _report.unsupported_module("paddle.jit.layer", ": Paddle's C++ jit executor (use paddle.jit.load)")
