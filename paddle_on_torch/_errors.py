"""torch's errors, re-raised as the error types Paddle gives for the same mistake.

Paddle reports a bad shape, axis or argument as ValueError ("(InvalidArgument)
..."), an out-of-range index as IndexError ("(OutOfRange)") or, in index_select
and embedding, ValueError; a dtype it refuses as TypeError; memory it cannot
allocate as MemoryError ("(ResourceExhausted)"); an integer division by zero as
its own EnforceNotMet.  torch reports most of these as RuntimeError (and a bad
dim as IndexError).  The `@op` wrappers pass torch's exceptions through
`translate` (only when something raised: the call itself pays nothing); the
message keeps torch's words, prefixed with Paddle's error class, minus torch's
C++ locations.
"""
import re

_SHAPE_WORDS = ("must match the size", "shape", "size mismatch", "expanded size", "cannot be multiplied",
                "Expected size", "dimension", "Dimension", "expected", "must be", "invalid", "out of bounds",
                "Sizes of tensors must match", "number of dims", "doesn't match the broadcast shape",
                "need to be at least", "should contain", "should not be zero", "too small", "can't be greater",
                "should be positive")
# torch's words for a size or count that does not fit in 64 bits: Paddle's argument parser reports an integer
# beyond int32 as IndexError "(OutOfRange)"
_OVERFLOW_WORDS = ("calculation overflowed", "multiplication overflow", "cannot be represented as a SymInt")
_ENFORCE = re.compile(r"\[enforce fail at [^\]]*\]\s*(\S+ == \S+\.\s*)?")


class EnforceNotMet(Exception):
    """Paddle's error for a failed check that has no Python error type (paddle.base.core.EnforceNotMet): an
    integer division by zero, for one."""


def integer_division_by_zero():
    return EnforceNotMet("(InvalidArgument) Integer division by zero encountered in (floor/trunc) divide. Please "
                         "check the input value.")


def _clean(msg):
    """torch's first line without its C++ enforce location."""
    return _ENFORCE.sub("", msg).strip()


def translate(e, api=None):
    """The Paddle-typed exception for a torch exception (or None to re-raise it unchanged).

    A NotImplementedError raised inside an API (a case we do not support yet) is counted for the
    unsupported-API report under the API's name.
    """
    if isinstance(e, NotImplementedError) and api is not None and not getattr(e, "_recorded", False):
        from ._report import record

        record(api)
        e._recorded = True
    msg = str(e).split("\n")[0]
    if msg.startswith("("):
        return None  # already worded as Paddle words it (raised by our own code)
    if type(e) is NotImplementedError and "not implemented for" in msg:
        return RuntimeError(f"(NotFound) {msg}")  # torch lacks a kernel for this dtype: Paddle's NotFound
    if isinstance(e, MemoryError) or "can't allocate memory" in msg or "out of memory" in msg:
        return MemoryError(f"(ResourceExhausted) {_clean(msg)}")
    if isinstance(e, IndexError):
        if "Dimension out of range" in msg:
            return ValueError(f"(InvalidArgument) {msg}")
        if msg == "index out of range in self":  # index_select / embedding: Paddle's InvalidArgument
            return ValueError("(InvalidArgument) an index is out of range of the indexed axis (expected >= -size "
                              "and < size).")
        if "Expected reduction dim" in msg:  # a reduction over an axis of size 0
            return ValueError(f"(InvalidArgument) Cannot perform reduction along an axis that has a size of 0 "
                              f"({msg.split(': ', 1)[-1]})")
        return None
    if type(e) is RuntimeError:
        if msg == "ZeroDivisionError":
            return integer_division_by_zero()
        if "is out of bounds for dimension" in msg:  # gather / scatter family: Paddle's OutOfRange
            return IndexError(f"(OutOfRange) {msg}")
        if any(w in msg for w in _OVERFLOW_WORDS):
            return IndexError("(OutOfRange) a size or count is too large: the sizes overflow 64-bit integers")
        if "Expected reduction dim" in msg:
            return ValueError(f"(InvalidArgument) Cannot perform reduction along an axis that has a size of 0 "
                              f"({msg.split(': ', 1)[-1]})")
        if "mixed dtype" in msg or " type (" in msg and "should be the same" in msg:
            # operands of two dtypes (a float64 input to a float32 layer): Paddle's kernel reads one as the other's
            # type, its InvalidArgument ValueError ("The type of data we are trying to retrieve ...")
            return ValueError(f"(InvalidArgument) {msg}")
        if "not implemented for" in msg or "dtype" in msg.lower() and "expected" in msg.lower():
            return TypeError(f"(InvalidType) {msg}")
        if any(w in msg for w in _SHAPE_WORDS):
            return ValueError(f"(InvalidArgument) {_clean(msg)}")
    return None
