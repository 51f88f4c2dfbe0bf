"""paddle.profiler beyond the golden cases: the step timer's output, export and summary on torch's profiler."""
import re

import pytest


def test_step_info_and_perf_summary(paddle, capsys):
    prof = paddle.profiler.Profiler(timer_only=True)
    prof.start()
    infos = []
    for i in range(14):
        prof.step(num_samples=8)
        if i in (0, 12):
            infos.append(prof.step_info(unit="images"))
    prof.stop()
    assert re.fullmatch(r" batch_cost: \d+\.\d{5} s ips: \d+\.\d{3} images/s", infos[1]), infos
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Perf Summary".center(100, "=")
    assert out[1] == "Time Unit: s, IPS Unit: images/s"
    assert out[2] == "|                 |       avg       |       max       |       min       |"
    assert [line.split("|")[1].strip() for line in out[3:]] == ["batch_cost", "ips"]


def test_no_summary_within_the_skipped_steps(paddle, capsys):
    prof = paddle.profiler.Profiler(timer_only=True)
    prof.start()
    for _ in range(5):
        prof.step()
    assert "steps/s" in prof.step_info()
    prof.stop()
    assert capsys.readouterr().out == ""


def test_export_summary_and_unsupported_formats(paddle, tmp_path, capsys):
    p = paddle.profiler
    prof = p.Profiler(targets=[p.ProfilerTarget.CPU], on_trace_ready=lambda pr: pr.export(str(tmp_path / "a.json")))
    with prof:
        with p.RecordEvent("my_range"):
            paddle.matmul(paddle.ones([4, 4]), paddle.ones([4, 4]))
    prof.export(str(tmp_path / "trace.json"))  # a second export of the same window (torch saves once)
    assert "my_range" in (tmp_path / "trace.json").read_text()
    assert (tmp_path / "a.json").read_text() == (tmp_path / "trace.json").read_text()
    prof.summary(sorted_by=p.SortedKeys.CPUAvg)
    assert "my_range" in capsys.readouterr().out
    with pytest.raises(NotImplementedError, match="protobuf"):
        prof.export(str(tmp_path / "trace.pb"), format="pb")
    with pytest.raises(NotImplementedError, match="load_profiler_result"):
        p.load_profiler_result(str(tmp_path / "trace.pb"))
