"""Record real Paddle's logits for PaddleClas backbones (run under the oracle interpreter with paddleclas==2.6.0
installed: pip install --no-deps paddleclas==2.6.0).

    ~/oracle/bin/python tools/record_paddleclas.py      # writes tests/golden/paddleclas.json
"""
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("GLOG_minloglevel", "3")
warnings.filterwarnings("ignore")

import paddle  # noqa: E402

from tests import golden_file, paddleclas_models  # noqa: E402

assert "paddle_on_torch" not in paddle.__file__, "record_paddleclas must run under real Paddle"


def main():
    backbones = paddleclas_models.import_backbones()
    out = {}
    for name in paddleclas_models.MODELS:
        out[name] = paddleclas_models.run(paddle, backbones, name).tolist()
        print(name, out[name][0][:3])
    golden_file.write_recorded("paddleclas", out, paddle.__version__)


if __name__ == "__main__":
    main()
