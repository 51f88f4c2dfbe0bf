"""paddle.text: Viterbi decoding.  The datasets (Conll05st, Imdb, WMT16, ...) download their data and are
not provided: touching one raises NotImplementedError naming it."""
from .. import _report
from .viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = ["ViterbiDecoder", "viterbi_decode"]

__getattr__ = _report.module_getattr("paddle.text")
