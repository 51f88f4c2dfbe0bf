"""torch's errors, re-raised as the error types Paddle gives for the same mistake.

Paddle reports a bad shape, axis or argument as ValueError ("(InvalidArgument)
..."), an out-of-range index as IndexError and a dtype it refuses as
TypeError.  torch reports most of these as RuntimeError (and a bad dim as
IndexError).  The `@op` wrappers pass torch's exceptions through `translate`;
the message keeps torch's words, prefixed with Paddle's error class.
"""

_SHAPE_WORDS = ("must match the size", "shape", "size mismatch", "expanded size", "cannot be multiplied",
                "Expected size", "dimension", "Dimension", "expected", "must be", "invalid", "out of bounds",
                "Sizes of tensors must match", "number of dims", "doesn't match the broadcast shape")


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
    if isinstance(e, IndexError) and "Dimension out of range" in msg:
        return ValueError(f"(InvalidArgument) {msg}")
    if type(e) is RuntimeError:
        if "not implemented for" in msg or "dtype" in msg.lower() and "expected" in msg.lower():
            return TypeError(f"(InvalidType) {msg}")
        if any(w in msg for w in _SHAPE_WORDS):
            return ValueError(f"(InvalidArgument) {msg}")
    return None
