#!/usr/bin/env bash
# The findings experiment on a GPU machine that reaches no package index (README, "On a GPU").
#
#   bash scripts/gpu_findings.sh --fetch-wheels   # here, with PyPI: the wheels the GPU machine lacks, into .whl/
#   bash scripts/gpu_findings.sh [BUDGET_S] [ARGS...]   # there, with .whl/ beside the code
#
# The first downloads, for CPython 3.12 (WHEEL_PYTHON=3.11 for another) on x86-64 Linux, the pinned versions
# this checkout's .venv holds of every Python package the experiment imports that a CUDA PyTorch image does
# not bring. The second installs
# them to /tmp/site (ahead of the image's own), checks that the experiment's modules import, and runs
# examples/reproduce_findings.py --model-size small --threads 4 --jobs 3 (bf16 on CUDA) into
# runs/findings_cuda for at most BUDGET_S seconds (default 500). At the budget the run gets SIGINT: its
# seed processes stop, finished pieces stay, and the same command again resumes it: a machine that
# allows 10 minutes a command runs it over several calls. Keep BUDGET_S about a minute under what the machine
# allows the command (and, in the last call, under the device time left), so that the records are packed
# before the command is cut off. ARGS go to reproduce_findings.py (e.g. --seeds 2).
# When $OUT is set (the device tool) the report, the plot and the logs are copied there, and so are the run's
# records without its weights, findings_pieces.tar.gz (a few MB): unpacked here into runs/findings_cuda and
# carried to another machine, they let the next call resume there (models a later piece needs are made again
# from the same seed). FINDINGS_OUTPUT (default runs/findings_cuda) and WHEELS_DIR (default .whl) move the run
# and the wheels.
set -uo pipefail
cd "$(dirname "$0")/.."

# What the experiment imports beyond a CUDA PyTorch image (torch, numpy, pandas, pyarrow, matplotlib, lxml,
# jinja2, six, tqdm, ...): trainers, the hub client, datasets, the environment's and embedded sites' own needs.
WHEELS=(trl transformers tokenizers safetensors huggingface-hub hf-xet httpx2 httpcore2 truststore click accelerate peft
        datasets dill multiprocess xxhash fsspec gymnasium farama-notifications cloudpickle html5lib webencodings cssselect
        flask werkzeug itsdangerous blinker gguf pyyaml  # gguf, pyyaml: a --base-model FILE.gguf
        pytest pluggy iniconfig pytest-timeout)  # scripts/gpu_measure.sh's `pytest -m gpu`

wheels=${WHEELS_DIR:-.whl}
output=${FINDINGS_OUTPUT:-runs/findings_cuda}
if [[ "${1:-}" == "--fetch-wheels" ]]; then
    python=.venv/bin/python
    [[ -x $python ]] || { echo "No .venv here: run 'bash scripts/setup.sh' first (it pins the versions)." >&2; exit 1; }
    rm -rf "$wheels" && mkdir -p "$wheels"
    for name in "${WHEELS[@]}"; do
        version=$("$python" -c "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))" "$name") \
            || { echo "$name is not installed in .venv" >&2; exit 1; }
        # manylinux tags are matched exactly: list the ones PyPI's wheels for these packages use.
        python3 -m pip download -q --no-deps --only-binary=:all: --python-version "${WHEEL_PYTHON:-3.12}" --implementation cp \
            --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
            --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 -d "$wheels" "$name==$version" \
            || { echo "no CPython ${WHEEL_PYTHON:-3.12} x86-64 wheel of $name==$version" >&2; exit 1; }
    done
    echo "$(ls "$wheels" | wc -l) wheels, $(du -sh "$wheels" | cut -f1), in $wheels (the device tool's carry names it)"
    exit 0
fi

budget=500
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then budget=$1; shift; fi
source scripts/gpu_site.sh  # the wheels installed and on PYTHONPATH, the modules checked

export PYTHONUNBUFFERED=1 TRL_EXPERIMENTAL_SILENCE=1
timeout -s INT -k 30 "$budget" python3 examples/reproduce_findings.py --model-size small --threads 4 --jobs 3 \
    --output "$output" --no-progress "$@"
status=$?
if [[ -n "${OUT:-}" ]]; then  # the report only from a run that finished (an older one may lie there)
    reports=(); [[ $status == 0 ]] && reports=(findings.json findings.png)
    for f in "${reports[@]}" settings.json logs/seed0.txt logs/seed1.txt logs/seed2.txt; do
        [[ -f $output/$f ]] && cp "$output/$f" "$OUT/$(basename "$f")"
    done
    if [[ -d $output ]]; then  # what a fresh machine needs to resume: every record, no weights
        tar -czf "$OUT/findings_pieces.tar.gz" --exclude='*.safetensors' --exclude='*.bin' --exclude='*.pt' \
            --exclude='checkpoint-*' --exclude='*.tmp' -C "$(dirname "$output")" "$(basename "$output")" \
            || echo "packing the run's records into $OUT failed" >&2
    fi
fi
if [[ $status == 124 || $status == 130 || $status == 137 ]]; then
    echo "Stopped at the ${budget} s budget; finished pieces are kept in $output: run the same command again to resume."
elif [[ $status != 0 ]]; then
    echo "reproduce_findings.py failed (exit status $status): its output above, the seeds' in $output/logs" >&2
fi
exit "$status"
