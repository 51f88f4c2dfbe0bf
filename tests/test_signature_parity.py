"""Signature parity with real Paddle 3.3.1 (issue 28): every public callable Paddle has (tests/golden/signatures.json,
recorded by tools/record_signatures.py: signatures, the keyword aliases Paddle's decorators and C++ parsers take,
Layers' constructors and forward, Tensor methods) is here, takes every keyword and alias Paddle takes, binds its
positional parameters in Paddle's order and has Paddle's defaults; tests/signature_allowlist.py lists, with a reason
each, what stays out.  `python -m tests.signature_parity` prints the report."""
import pytest

from tests import signature_parity
from tests.signature_allowlist import ALLOW

pytestmark = pytest.mark.slow  # (probes about 2,000 callables: ten seconds and more)


@pytest.fixture(scope="module")
def found():
    return signature_parity.gaps()


def test_no_gaps_beyond_the_allowlist(found):
    unexpected = [g for g in found if not signature_parity.allowed(g, ALLOW)]
    assert not unexpected, f"{len(unexpected)} signature gaps (python -m tests.signature_parity):\n" + \
        "\n".join(unexpected[:80])


def test_every_allowlist_entry_is_still_needed(found):
    stale = [p for p in ALLOW if not any(signature_parity.allowed(g, [p]) for g in found)]
    assert not stale, f"allow-list entries that match no gap any more (remove them): {stale}"
