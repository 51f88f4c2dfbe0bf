"""The `paddle-on-torch` command line (also `python -m paddle_on_torch.cli`).

    paddle-on-torch run [--report] SCRIPT [ARGS...]   run a Paddle script on paddle_on_torch
    paddle-on-torch check [--json] PATH...             which paddle.* APIs a script or project uses, and
                                                      which of them paddle_on_torch supports
    paddle-on-torch convert IN OUT [--to torch]        .pdparams/.pdopt <-> safetensors <-> torch .pt files
    paddle-on-torch env [--json]                       versions, devices and build tools
    paddle-on-torch port MODULE:FACTORY --weights W --example-input SHAPE[:DTYPE] --out DIR [--check]
                                                      a Paddle Layer as standalone torch module source
    paddle-on-torch port --inference-model PREFIX --out DIR [--check]
                                                      the same from a real Paddle inference model

Exit codes (see docs/cli.md): 0 success; 1 the command ran but what it checked failed (coverage
under --fail-under, a --verify mismatch, a conversion that cannot be represented); 2 a usage error
(bad arguments, an unknown or unimplemented subcommand); 3 an input that cannot be read or parsed.
`run` exits with the script's own status.
"""
import argparse
import sys

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INPUT = 0, 1, 2, 3

_COMMANDS = ("run", "check", "convert", "env", "port")


class CLIError(Exception):
    """A failure to report as one line on stderr with an exit code (no traceback)."""

    def __init__(self, message, code=EXIT_FAILED):
        super().__init__(message)
        self.code = code


def progress(iterable, desc, total=None):
    """tqdm's progress bar when tqdm is installed and stderr is a terminal; the iterable otherwise."""
    if not sys.stderr.isatty():
        return iterable
    try:
        from tqdm import tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, desc=desc, total=total, leave=False, file=sys.stderr)


def build_from_factory(spec, label=""):
    """The object `MODULE:FACTORY()` returns, imported from the current directory with `import paddle`
    resolving to paddle_on_torch; `label` prefixes the messages (e.g. "--model ")."""
    import importlib
    import os

    import paddle_on_torch

    mod_name, _, attr = spec.partition(":")
    if not mod_name or not attr:
        raise CLIError(f"{label}expects MODULE:FACTORY, got {spec!r}" if label else
                       f"expected MODULE:FACTORY, got {spec!r}", EXIT_USAGE)
    paddle_on_torch.install()
    sys.path.insert(0, os.getcwd())
    try:
        return getattr(importlib.import_module(mod_name), attr)()
    except Exception as e:  # noqa: BLE001 - any failure of user code is reported, not raised
        raise CLIError(f"{label}{spec}: could not build the model ({type(e).__name__}: {e})", EXIT_FAILED) from None


def _parser():
    from . import check, convert, env, port, run

    p = argparse.ArgumentParser(prog="paddle-on-torch",
                                description="Run, check and convert PaddlePaddle programs and checkpoints on PyTorch.")
    p.add_argument("--version", action="store_true", help="print paddle_on_torch's version and exit")
    sub = p.add_subparsers(dest="command", metavar="{" + ",".join(_COMMANDS) + "}")
    run.add_parser(sub)
    check.add_parser(sub)
    convert.add_parser(sub)
    env.add_parser(sub)
    port.add_parser(sub)
    return p


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "run":  # everything after the script belongs to the script
        from . import run

        return run.main(argv[1:])
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    if args.version:
        import paddle_on_torch

        print(f"paddle_on_torch {paddle_on_torch.__shim_version__} (Paddle {paddle_on_torch.__version__} API)")
        return EXIT_OK
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.func(args)
    except CLIError as e:
        print(f"paddle-on-torch {args.command}: error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        return 130
