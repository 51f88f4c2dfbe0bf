"""The files under tests/data are what today's data recorders wrote (tests/golden_file.DATA_RECORDERS): each is
stamped in tests/data/provenance/<recorder>.json by `tools/record.py --data NAME` with its sha256, the hash of the
recorder's script and inputs, and Paddle's version.  A file changed by hand, or by a recorder or inputs changed
since, fails here naming the command that refreshes it (as `tools/record.py --check` lists it)."""
import pytest

from tests import golden_file


@pytest.mark.parametrize("name", sorted(golden_file.DATA_RECORDERS))
def test_recorded_data_is_current(name):
    stale = golden_file.data_staleness(name)
    if stale:
        f, why = next(iter(stale.items()))
        more = f" ({len(stale)} files)" if len(stale) > 1 else ""
        pytest.fail(f"stale recorded data {f}: {why}{more}; refresh it with "
                    f"`{golden_file.data_refresh_command(name)}`")


def test_every_data_file_has_a_recorder():
    assert golden_file.unowned_data() == [], "add its recorder to tests/golden_file.DATA_RECORDERS"
