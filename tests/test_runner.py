"""The unchanged-script runner, the import hook and the unsupported-API report."""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, "..", "shared", "seed_examples")


def run(args, tmp_path, env=None, script=None):
    if script is not None:
        path = tmp_path / "script.py"
        path.write_text(textwrap.dedent(script))
        args = [str(path) if a == "SCRIPT" else a for a in args]
    e = dict(os.environ, PYTHONPATH=ROOT, **(env or {}))
    return subprocess.run([sys.executable, "-m", "paddle_on_torch", *args], capture_output=True, text=True,
                          env=e, cwd=tmp_path, timeout=120)


def test_script_runs_as_main_with_argv(tmp_path):
    p = run(["SCRIPT", "a", "--b"], tmp_path, script="""
        import sys, paddle, paddle_on_torch
        from paddle import Tensor
        import paddle.nn as nn
        assert paddle is paddle_on_torch and nn is paddle_on_torch.nn and Tensor is paddle_on_torch.Tensor
        print(__name__, sys.argv[1:], paddle.__version__, paddle.to_tensor([1, 2]).sum().item())
    """)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "__main__ ['a', '--b'] 3.3.1 3"


def test_dash_c_and_dash_m(tmp_path):
    p = run(["-c", "import paddle; print(paddle.ones([2]).shape)"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "paddle.Size([2])"
    (tmp_path / "mymod.py").write_text("import paddle\nprint(__name__, paddle.zeros([1]).dtype)\n")
    p = run(["-m", "mymod"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "__main__ paddle.float32"


@pytest.mark.slow
def test_dash_reads_the_program_from_stdin(tmp_path):
    """`python -m paddle_on_torch - ARGS < prog.py`, as `python - ARGS < prog.py`: argv[0] is '-', the
    current directory is importable, the program is __main__ (its functions pickle by reference)."""
    (tmp_path / "helper.py").write_text("VALUE = 7\n")
    program = textwrap.dedent("""
        import pickle, sys, paddle, helper
        def f():
            return 1
        print(__name__, __file__, sys.argv, helper.VALUE, paddle.ones([2]).sum().item(), pickle.loads(pickle.dumps(f))())
    """)
    e = dict(os.environ, PYTHONPATH=ROOT)
    p = subprocess.run([sys.executable, "-m", "paddle_on_torch", "-", "a", "b"], input=program, capture_output=True,
                       text=True, env=e, cwd=tmp_path, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "__main__ <stdin> ['-', 'a', 'b'] 7 2.0 1"
    p = subprocess.run([sys.executable, "-m", "paddle_on_torch", "-"], input="raise ValueError('from stdin')\n",
                       capture_output=True, text=True, env=e, cwd=tmp_path, timeout=120)
    assert p.returncode == 1 and 'File "<stdin>", line 1' in p.stderr and "ValueError: from stdin" in p.stderr


def test_missing_script_is_a_clear_error(tmp_path):
    p = run(["nope.py"], tmp_path)
    assert p.returncode == 2 and "can't open file" in p.stderr


def test_script_exception_propagates_exit_code(tmp_path):
    p = run(["SCRIPT"], tmp_path, script="raise SystemExit(3)")
    assert p.returncode == 3


def test_report_lists_unsupported_apis(tmp_path):
    script = """
        import paddle
        for _ in range(2):
            try:
                paddle.static.IpuStrategy()
            except NotImplementedError:
                pass
        print(hasattr(paddle, "vision") or True)
    """
    p = run(["--report", "SCRIPT"], tmp_path, script=script)
    assert p.returncode == 0, p.stderr
    assert "paddle.static.IpuStrategy" in p.stderr and "     2" in p.stderr
    p = run(["SCRIPT"], tmp_path, script=script, env={"PADDLE_ON_TORCH_REPORT": "1"})
    assert "paddle.static.IpuStrategy" in p.stderr


def test_unsupported_api_is_notimplemented_and_attributeerror(paddle):
    from paddle_on_torch import _api

    missing = next(n for n in _api.paddle_names("paddle") if n not in dir(paddle))  # (dir lists lazy names too)
    with pytest.raises(NotImplementedError, match=f"paddle.{missing} is not supported"):
        getattr(paddle, missing)
    assert not hasattr(paddle, missing)
    with pytest.raises(AttributeError):
        paddle.not_a_paddle_api  # noqa: B018 - a typo is a plain AttributeError


def test_unsupported_submodule_import(tmp_path):
    """A module of Paddle 3.3.1 the shim lacks says so (and is reported); one Paddle lacks too is Paddle's own
    'No module named'."""
    p = run(["-c", "import paddle.audio.datasets"], tmp_path)
    assert p.returncode != 0 and "paddle.audio.datasets is not supported by paddle_on_torch" in p.stderr
    p = run(["-c", "import paddle.base.nonexistent_thing"], tmp_path)
    assert p.returncode != 0 and "No module named 'paddle.base.nonexistent_thing'" in p.stderr


def test_install_uninstall_round_trip():
    import paddle_on_torch

    paddle_on_torch.uninstall()
    assert sys.modules.get("paddle") is not paddle_on_torch
    paddle_on_torch.install()
    import paddle

    assert paddle is paddle_on_torch


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir(SEEDS), reason="shared/seed_examples is not beside this checkout")
def test_seed_rmsnorm_runs_unchanged(tmp_path):
    p = run([os.path.join(SEEDS, "rmsnorm.py")], tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "paddle.Size([2, 16, 768]) paddle.Size([768])"


@pytest.mark.slow
def test_quickstart_example_matches_paddle(tmp_path):
    p = run([os.path.join(ROOT, "examples", "quickstart.py")], tmp_path)
    assert p.returncode == 0, p.stderr
    # recorded from real Paddle 3.3.1 running the same file
    assert p.stdout == ("Tensor(shape=[1, 4], dtype=float32, place=Place(cpu), stop_gradient=False,\n"
                        "       [[ 0.36514837, -0.73029673,  1.09544516, -1.46059346]])\n"
                        "weight grad: [ 0.36514837 -0.73029673  1.0954452  -1.4605935 ]\n")


def test_translate_records_notimplemented_under_api_name():
    from paddle_on_torch import _errors, _report

    before = _report._misses["paddle.quantile"]
    assert _errors.translate(NotImplementedError("a list of axes"), "paddle.quantile") is None
    assert _report._misses["paddle.quantile"] == before + 1


@pytest.mark.slow
def test_repl_without_a_script(tmp_path):
    e = dict(os.environ, PYTHONPATH=ROOT)
    p = subprocess.run([sys.executable, "-m", "paddle_on_torch"], input="import paddle\nprint(paddle.ones([2]).sum().item())\n",
                       capture_output=True, text=True, env=e, cwd=tmp_path, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "2.0" in p.stdout and "paddle_on_torch" in p.stderr  # the banner goes to stderr, as python's does


def test_every_paddle_name_resolves_or_says_it_is_unsupported(paddle):
    """Each name of each Paddle 3.3.1 namespace (the recorded API list) is either provided or raises
    NotImplementedError naming it; none is a plain AttributeError (paddle.framework's and paddle.hapi's were)."""
    import importlib

    from paddle_on_torch import _api

    plain_attribute_errors = []
    for namespace, names in _api.paddle_api()["namespaces"].items():
        try:
            module = importlib.import_module(namespace)
        except ModuleNotFoundError as e:  # whole namespaces not provided say so by name
            assert "not supported by paddle_on_torch" in str(e), (namespace, e)
            continue
        for name in names:
            try:
                getattr(module, name)
            except NotImplementedError as e:
                assert f"{namespace}.{name}" in str(e) or namespace in str(e), (namespace, name, e)
            except AttributeError:
                plain_attribute_errors.append(f"{namespace}.{name}")
    assert not plain_attribute_errors, plain_attribute_errors
