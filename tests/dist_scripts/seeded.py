"""`python -m paddle_on_torch seeded.py SCRIPT [ARGS]`: run SCRIPT after paddle.seed(2024), so that a
script that does not seed gets the same initial parameters on every rank and in a reference run."""
import runpy
import sys

import paddle

paddle.seed(2024)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
