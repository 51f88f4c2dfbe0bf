"""The namespace converted code calls (`_pot_jst.<name>`): the run-time operators and convert_call."""
from .convert import convert_call  # noqa: F401
from .operators import (And, Not, Or, UndefinedVar, convert_assert, convert_ifelse, convert_ifexp,  # noqa: F401
                        convert_len, convert_while, for_sequence, range_args, range_cond, seq_item)
