#!/usr/bin/env bash
# The main job, after idempotent set-up: behaviour cloning, then multi-turn GRPO, on the
# embedded sites with a tiny model (CPU by default; bf16 on CUDA). See "The main job" in README.md.
# Extra arguments go to examples/main_job.py (--help lists them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export TRL_EXPERIMENTAL_SILENCE=1  # rollout_func is TRL's experimental hook; we know
exec .venv/bin/python examples/main_job.py "$@"
