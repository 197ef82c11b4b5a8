#!/usr/bin/env bash
# Idempotent set-up into .venv: the tested versions of the Python dependencies (setup.cfg's
# ranges, held to the exact versions of constraints.txt; torch==2.13.0 in the same resolve, so a
# CPU machine gets no CUDA wheels), the official WebArena task data, and a Chromium for
# Playwright. Safe to run again: it skips what is already done (and redoes it when setup.cfg,
# pyproject.toml, constraints.txt or this script change).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv with $($PYTHON --version)"
  "$PYTHON" -m venv .venv
fi

stamp=.venv/.setup-stamp
# (hashed with Python: macOS and BSDs have no sha256sum)
wanted=$(cat setup.cfg pyproject.toml constraints.txt scripts/setup.sh \
  | .venv/bin/python -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:16])')
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$wanted" ]; then
  echo "[setup] installing Python dependencies (first run takes a few minutes)"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -c constraints.txt "torch==2.13.0" \
    -e ".[train,dev,docs,docker,trl,openenv,skyrl,openai,ray]"
  # The official task files ship in these packages. Without their dependencies: those pin old
  # versions (playwright 1.44, lxml 5, transformers 4) that would replace the ones above.
  .venv/bin/python -m pip install -q --no-deps "browsergym-webarenalite==0.14.3" "libwebarena==0.0.5"
  # The `verified` extra the same way (webarena-verified pins an older pydantic), then its other dependencies.
  .venv/bin/python -m pip install -q --no-deps "webarena-verified==1.2.3"
  .venv/bin/python -m pip install -q -c constraints.txt beautifulsoup4 compact-json geographiclib geopy jsonpath-ng \
    pint price-parser pytimeparse2 thefuzz unidecode url-normalize us usaddress usaddress-scourgify word2number
  echo "$wanted" > "$stamp"
fi

# verifiers 0.4 and openenv 0.10 cannot share an environment (mcp==2 vs mcp<2), so the
# verifiers integration is tested from its own venv.
if [ "$(cat .venv-verifiers/.setup-stamp 2>/dev/null || true)" != "$wanted" ]; then
  echo "[setup] installing verifiers into .venv-verifiers"
  # verifiers needs Python 3.11+; where it cannot install, its test skips and says so. Its harness
  # runs its chat program with uv, which it would otherwise download from the web: PyPI ships uv.
  if ([ -x .venv-verifiers/bin/python ] || "$PYTHON" -m venv .venv-verifiers) \
      && .venv-verifiers/bin/python -m pip install -q --upgrade pip \
      && .venv-verifiers/bin/python -m pip install -q -e ".[verifiers]" uv >/tmp/verifiers-install.log 2>&1; then
    echo "$wanted" > .venv-verifiers/.setup-stamp
  else
    echo "[setup] verifiers could not be installed (see /tmp/verifiers-install.log); its test will skip" >&2
  fi
fi

if ! .venv/bin/python -c "from webarena_gym.backends.chromium import find_chromium; find_chromium()" 2>/dev/null; then
  echo "[setup] installing Chromium"
  if .venv/bin/python -m playwright install chromium >/tmp/playwright-install.log 2>&1; then
    echo "[setup] Playwright's Chromium installed"
  elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell) >/tmp/apt-chromium.log 2>&1 \
      || { echo "[setup] apt-get install chromium failed; see /tmp/apt-chromium.log" >&2; exit 1; }
    echo "[setup] Debian's Chromium installed"
  else
    echo "[setup] No Chromium found and none could be installed. Run one of:" >&2
    echo "          .venv/bin/python -m playwright install --with-deps chromium" >&2
    echo "          sudo apt-get install chromium" >&2
    exit 1
  fi
fi
