#!/usr/bin/env bash
# Every GPU measurement of the trainer in one command on a lent GPU machine (benchmarks/gpu_measurements.py).
#
#   bash scripts/gpu_measure.sh --fetch-wheels   # here, with PyPI: the wheels the GPU image lacks, into .whl/
#   bash scripts/gpu_measure.sh [ARGS...]        # there, with .whl/ beside the code: all stages within 8 minutes
#   bash scripts/gpu_measure.sh --dry-run --output runs/gpu_dry   # here: the same stages, tiny, on the CPU
#
# The first is scripts/gpu_findings.sh's (the same wheels, pytest's among them). The second installs them to
# /tmp/site (scripts/gpu_site.sh), then runs the stages: the `gpu` tests, the Qwen2.5-0.5B-shaped step time,
# the Qwen2.5-3B-shaped memory fit, vLLM against generate(), the findings experiment for the time left. Each
# stage is recorded in runs/gpu_measurements/gpu_measurements.json (copied to $OUT with the logs after every
# stage); the same command again skips what finished and goes on. ARGS go to gpu_measurements.py
# (--budget-s 480, --redo STAGE, --fresh, --findings-args "...").
set -uo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--fetch-wheels" ]]; then
    exec bash scripts/gpu_findings.sh --fetch-wheels
fi
source scripts/gpu_site.sh  # the wheels installed and on PYTHONPATH, the modules checked
export PYTHONUNBUFFERED=1 TRL_EXPERIMENTAL_SILENCE=1
exec python3 benchmarks/gpu_measurements.py "$@"
