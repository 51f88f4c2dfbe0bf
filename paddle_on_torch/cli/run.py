"""`paddle-on-torch run [--report] SCRIPT [ARGS...]`: the runner of `python -m paddle_on_torch`."""
import sys

HELP = """usage: paddle-on-torch run [-h] [--report] (SCRIPT | - | -m MODULE | -c CODE) [ARGS ...]

Run a Paddle program unchanged on paddle_on_torch: `import paddle` resolves to paddle_on_torch.
`-` reads the program from standard input.

options:
  -h, --help  show this help message and exit
  --report    print, at exit, every Paddle API the run used that paddle_on_torch does not support

The exit status is the program's own."""


def add_parser(sub):
    # parsed by hand (main below): the script's own arguments must pass through untouched
    sub.add_parser("run", help="run a Paddle script on paddle_on_torch (like python -m paddle_on_torch)",
                   add_help=False)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(HELP, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "--report" and len(argv) == 1:
        print(HELP, file=sys.stderr)
        return 2
    from .. import __main__ as runner

    return runner.main(argv)
