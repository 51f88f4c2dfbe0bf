"""What stays out of signature parity with Paddle 3.3.1 (tests/signature_parity.py), each with its reason.
Patterns are fnmatch patterns over the gap strings (`missing paddle.x`, `keyword paddle.x: k`, ...)."""

ALLOW = {
}
