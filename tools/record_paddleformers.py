"""Record PaddleFormers 1.2.0 models under real Paddle (tests/paddleformers_cases.py), as record_paddlenlp.py
records PaddleNLP's: weights saved with paddle.save, eval logits and four AdamW losses, or the error Paddle raises
on the CPU.  PaddleFormers and its HF transformers 5 / hub 1 live apart from PaddleNLP's (the lane):

    /work/oracle/bin/pip install --no-deps --target tests/.lanes/paddleformers -r tests/requirements-paddleformers.txt
    PYTHONPATH=tests/.lanes/paddleformers /work/oracle/bin/python tools/record_paddleformers.py [CASE ...]
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(1, os.path.join(ROOT, "tools"))

import record_paddlenlp as R  # noqa: E402  (real Paddle; the recording loop)

import paddleformers.transformers  # noqa: E402

from tests import paddleformers_cases as F  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "paddleformers")

if __name__ == "__main__":
    R.record_all(sys.argv[1:] or list(F.CASES), F.CASES, paddleformers.transformers, OUT)
