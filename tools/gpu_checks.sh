#!/usr/bin/env bash
# The checks that need a CUDA GPU, in one go (docs/testing.md): the Triton kernel tests without the interpreter
# and tests/test_gpu.py, the single-process seed example on the GPU, and bench/kernels_gpu.py.
#   tools/gpu_checks.sh OUT_DIR [SEED_EXAMPLES_DIR] [--compile]
# Logs and the benchmark's JSON go to OUT_DIR; BENCH_OPS=rms_norm,ce limits the benchmark to those ops.  Each step has its own time limit, so one slow step cannot eat the
# others' time on a lent machine.
set -u
out=${1:?usage: tools/gpu_checks.sh OUT_DIR [SEED_EXAMPLES_DIR] [--compile]}
seeds=${2:-}
compile=--no-compile
[ "${3:-}" = "--compile" ] && compile=
mkdir -p "$out"
export PYTHONUNBUFFERED=1 PADDLE_ON_TORCH_SKIP_DIST=1
py=${PYTHON:-python3}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}

$py -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__, torch.cuda.get_device_name())" \
  2>&1 | tee "$out/env.txt"
timeout 200 $py -m pytest -q -rfE -p no:cacheprovider tests/test_gpu.py tests/test_kernels.py tests/test_kernels_opcheck.py \
  -k "triton or test_gpu" 2>&1 | tee "$out/tests.log" | tail -40
if [ -n "$seeds" ]; then
  (cd "$seeds" && timeout 60 $py -m paddle_on_torch rmsnorm.py) 2>&1 | tee "$out/seed_rmsnorm.log" | tail -15
fi
timeout 300 $py bench/kernels_gpu.py $compile --ops "${BENCH_OPS:-rms_norm,layer_norm,rope,swiglu,ce}" \
  --json "$out/kernels_gpu.json" 2>&1 | tee "$out/bench.log"
