#!/usr/bin/env bash
# The torch-xla lane: paddle_on_torch on 'xla' (PJRT_DEVICE=CPU) against the CPU, in a virtualenv of its own.
#
#   tools/xla_lane.sh                 # builds the venv once (XLA_VENV, default ~/.cache/paddle_on_torch/xla-venv)
#   XLA_VENV=/path tools/xla_lane.sh  # another place for it
#
# torch-xla wheels are built against one torch release (torch-xla 2.9.0 against torch 2.9.0) and declare no torch
# requirement, so the lane cannot share the project's torch 2.13 environment.  The venv gets torch 2.9.0 (PyPI's
# x86_64 wheel is the CUDA build: about 7 GB with its nvidia-* packages; it runs on the CPU), torch-xla 2.9.0 and
# paddle_on_torch itself (editable, no dependencies, no C++ build at install).  tools/xla_lane.py then runs a
# training step, to_static and a checkpoint round trip on 'xla' and on the CPU and compares them (exit 1 on a
# mismatch).  Figures from a recorded run are in docs/devices.md.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${XLA_VENV:-$HOME/.cache/paddle_on_torch/xla-venv}
TORCH=2.9.0
TORCH_XLA=2.9.0

if ! "$VENV/bin/python" -c "import torch_xla, paddle_on_torch" >/dev/null 2>&1; then
    start=$(date +%s)
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
    "$VENV/bin/python" -m pip install -q "torch==$TORCH" "torch-xla==$TORCH_XLA" numpy==2.4.6 safetensors==0.7.0 \
        pillow==13.0.0
    PADDLE_ON_TORCH_NO_BUILD=1 "$VENV/bin/python" -m pip install -q --no-deps --no-build-isolation -e .
    echo "xla lane: venv built in $(( $(date +%s) - start )) s ($(du -sh "$VENV" | cut -f1))"
fi

start=$(date +%s)
PJRT_DEVICE=CPU OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} "$VENV/bin/python" -m paddle_on_torch tools/xla_lane.py
echo "xla lane: checks ran in $(( $(date +%s) - start )) s"
