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


def test_stamps_say_what_changed(tmp_path, monkeypatch):
    """The provenance mechanism on a recorder of its own: a fresh stamp is current; then an edited file, an edited
    recorder and a deleted file are each reported, and a re-stamp makes it current again."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "tools" / "record_toy.py").write_text("print('toy')\n")
    (tmp_path / "out" / "a.bin").write_bytes(b"a")
    (tmp_path / "out" / "b.bin").write_bytes(b"b")
    monkeypatch.setattr(golden_file, "ROOT", str(tmp_path))
    monkeypatch.setattr(golden_file, "PROVENANCE_DIR", str(tmp_path / "provenance"))
    monkeypatch.setattr(golden_file, "DATA_RECORDERS", {"toy": golden_file.DataRecorder(
        ["out"], script="tools/record_toy.py")})
    assert golden_file.data_staleness("toy") == {"*": "no provenance (tests/data/provenance/toy.json)"}
    golden_file.stamp_data("toy", ["out/a.bin", "out/b.bin"], {"paddlepaddle": golden_file.PADDLE_VERSION})
    assert golden_file.data_staleness("toy") == {}
    (tmp_path / "out" / "a.bin").write_bytes(b"A")
    (tmp_path / "out" / "b.bin").unlink()
    (tmp_path / "out" / "c.bin").write_bytes(b"c")
    assert golden_file.data_staleness("toy") == {"out/a.bin": "changed after it was recorded",
                                                 "out/b.bin": "recorded but missing",
                                                 "out/c.bin": "written without provenance (not by tools/record.py "
                                                              "--data)"}
    golden_file.stamp_data("toy", ["out/a.bin", "out/c.bin"], {"paddlepaddle": golden_file.PADDLE_VERSION})
    assert golden_file.data_staleness("toy") == {}  # b.bin's stamp went with it
    (tmp_path / "tools" / "record_toy.py").write_text("print('toy 2')\n")
    assert set(golden_file.data_staleness("toy").values()) == {
        "the recorder or its inputs changed after it was recorded"}

