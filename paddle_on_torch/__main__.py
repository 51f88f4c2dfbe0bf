"""The runner: `python -m paddle_on_torch [--report] (SCRIPT | - | -m MODULE | -c CODE) [ARGS...]`.

Runs a Paddle program unchanged with `import paddle` resolved to
paddle_on_torch, the way `python` itself would run it (sys.argv,
`__main__`, sys.path[0]); `-` reads the program from standard input, as `python -` does.  With no
program it starts a REPL.
"""
import os
import runpy
import sys
import types

USAGE = "usage: python -m paddle_on_torch [--report] (script.py | - | -m module | -c code) [args ...]"


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    report = False
    while argv and argv[0] in ("--report", "-h", "--help"):
        if argv[0] == "--report":
            report = True
            argv.pop(0)
        else:
            print(USAGE)
            return 0
    import paddle_on_torch
    from paddle_on_torch import _report

    paddle_on_torch.install()
    if report and os.environ.get("PADDLE_ON_TORCH_REPORT") != "1":
        _report.enable_report_at_exit()

    if not argv:
        import code

        sys.argv = [""]
        code.interact(banner=f"paddle_on_torch {paddle_on_torch.__shim_version__} (paddle "
                             f"{paddle_on_torch.__version__} API on torch)", local={"__name__": "__main__"})
        return 0
    if argv[0] == "-c":
        if len(argv) < 2:
            print("Argument expected for the -c option\n" + USAGE, file=sys.stderr)
            return 2
        sys.argv = ["-c"] + argv[2:]
        sys.path.insert(0, "")
        exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
        return 0
    if argv[0] == "-":  # the program from standard input, run as `python -` runs it
        source = sys.stdin.read()
        sys.argv = argv
        sys.path.insert(0, "")
        main = types.ModuleType("__main__")
        main.__file__ = "<stdin>"
        sys.modules["__main__"] = main  # (so that what the program defines can be pickled by reference)
        exec(compile(source, "<stdin>", "exec"), main.__dict__)
        return 0
    if argv[0] == "-m":
        if len(argv) < 2:
            print("Argument expected for the -m option\n" + USAGE, file=sys.stderr)
            return 2
        sys.argv = [argv[1]] + argv[2:]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return 0
    script = argv[0]
    if not os.path.exists(script):
        print(f"python -m paddle_on_torch: can't open file {script!r}: No such file or directory", file=sys.stderr)
        return 2
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
