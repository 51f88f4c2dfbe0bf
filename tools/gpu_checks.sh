#!/usr/bin/env bash
# The checks that need a CUDA GPU, in one go (docs/testing.md), each step with its own time limit so that one slow
# step cannot eat the others' time on a lent machine (about 8 minutes in all; a lent device has 15):
#   1. the GPU tests: tests/test_gpu.py (training loop, AMP, DataLoader, checkpoints, to_static, DataParallel on
#      CUDA against the CPU), tests/test_gpu_llama.py (a LLaMA training step eager / fused / to_static against the
#      CPU result, jit.save + jit.load on CUDA, the CUDA random streams under paddle.seed), tests/test_core_cuda.py,
#      and the Triton kernel tests without the interpreter;
#   2. the single-process seed example on the GPU (when SEED_EXAMPLES_DIR is given);
#   3. bench/kernels_gpu.py: the fused kernels against eager torch, torch.compile (with --compile) and Liger-Kernel
#      when it is importable, JSON for the README's GPU table.
#   tools/gpu_checks.sh OUT_DIR [SEED_EXAMPLES_DIR] [--compile]
# Logs and the benchmark's JSON go to OUT_DIR (on a lent machine: "$OUT"); BENCH_OPS=rms_norm,ce limits the
# benchmark to those ops.  Nothing in CI runs this: without CUDA every GPU test skips.
set -u
out=${1:?usage: tools/gpu_checks.sh OUT_DIR [SEED_EXAMPLES_DIR] [--compile]}
seeds=${2:-}
compile=--no-compile
[ "${3:-}" = "--compile" ] && compile=
mkdir -p "$out"
export PYTHONUNBUFFERED=1
py=${PYTHON:-python3}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}

$py -c "import torch; print('torch', torch.__version__, torch.cuda.get_device_name()); import triton; print('triton', triton.__version__)" \
  2>&1 | tee "$out/env.txt"
$py -c "import liger_kernel; print('liger-kernel', getattr(liger_kernel, '__version__', '?'))" >> "$out/env.txt" 2>&1 \
  || echo "liger-kernel not installed: its column stays empty" >> "$out/env.txt"
# (the gpu lane is not in plain pytest's selection: --all-lanes lifts it; CPU-only cases in these files run too)
timeout 240 $py -m pytest -q -rfE -p no:cacheprovider --all-lanes tests/test_gpu.py tests/test_gpu_llama.py \
  tests/test_core_cuda.py 2>&1 | tee "$out/tests_gpu.log" | tail -30
timeout 150 $py -m pytest -q -rfE -p no:cacheprovider --all-lanes tests/test_kernels.py tests/test_kernels_opcheck.py \
  -k "triton" 2>&1 | tee "$out/tests_kernels.log" | tail -20
if [ -n "$seeds" ]; then
  (cd "$seeds" && timeout 60 $py -m paddle_on_torch rmsnorm.py) 2>&1 | tee "$out/seed_rmsnorm.log" | tail -15
fi
timeout 200 $py bench/kernels_gpu.py $compile --ops "${BENCH_OPS:-rms_norm,layer_norm,rope,swiglu,ce}" \
  --json "$out/kernels_gpu.json" 2>&1 | tee "$out/bench.log"
