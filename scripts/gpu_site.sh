# Sourced by scripts/gpu_findings.sh and scripts/gpu_measure.sh on a GPU machine that reaches no package index:
# installs the carried wheels ($WHEELS_DIR, default .whl) into /tmp/site once per machine, puts them ahead of the
# image's own packages on PYTHONPATH (with this checkout), and checks that the trainer's modules import.
wheels=${WHEELS_DIR:-.whl}
if [[ -d $wheels ]]; then  # once per machine: a resuming call on the same machine finds them installed
    installed=$(ls "$wheels")
    if [[ "$(cat /tmp/site/.wheels 2>/dev/null)" != "$installed" ]]; then
        python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
            "$wheels"/*.whl || { echo "installing the wheels in $wheels failed" >&2; exit 1; }
        echo "$installed" > /tmp/site/.wheels
    fi
    export PYTHONPATH="/tmp/site:$PWD${PYTHONPATH:+:$PYTHONPATH}"
else
    export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
fi
python3 -c "import torch, trl, datasets, gymnasium, webarena_gym.env, trainers.grpo; \
from webarena_gym.suites.embedded import all_families; all_families(); \
print('torch', torch.__version__, 'cuda', torch.cuda.is_available() and torch.cuda.get_device_name(0))" \
    || { echo "the trainer's modules do not import: fetch the wheels here (--fetch-wheels) and carry .whl" >&2
         exit 1; }
