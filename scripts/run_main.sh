#!/usr/bin/env bash
# The main job, after idempotent set-up: see "The main job" in README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/webarena-gym baseline "$@"
