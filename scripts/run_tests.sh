#!/usr/bin/env bash
# The whole test suite (browser and docker tests included), after idempotent set-up.
# Extra arguments go to pytest, e.g. `bash scripts/run_tests.sh -m "not docker" -x`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -f scripts/ensure_dockerd.sh ]; then
  bash scripts/ensure_dockerd.sh || echo "[tests] no Docker engine: docker tests will skip and say why"
fi
# One pytest worker per core, at most 4 (pytest-xdist): the tests that share the Docker engine or the Ray
# cluster run on one worker, one after another (tests/conftest.py); `-n 0` runs everything in this process.
exec .venv/bin/python -m pytest -n auto --maxprocesses 4 "$@"
