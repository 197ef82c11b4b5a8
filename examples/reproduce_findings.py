"""WebAgent-R1's findings, reproduced with a tiny model: what BC and multi-turn GRPO each add on held-out tasks.

Four arms, the same budget and seeds for each, on the short task families of five embedded
sites (the train tasks of those families for training, their test tasks, never seen in
training, for evaluation):

* ``untrained``: the freshly built model;
* ``grpo_zero``: multi-turn GRPO from the untrained model (WebAgent-R1-Zero);
* ``bc``: behaviour cloning on the oracle's demonstrations;
* ``bc_grpo``: BC, then multi-turn GRPO (WebAgent-R1).

Each arm is evaluated on the held-out tasks greedily and sampled (temperature 1, several
passes), with the share of its answers that are a bare N/A; the BC+GRPO policy is also evaluated
with more allowed interactions (test-time scaling), and with ``--eval-every N`` each GRPO arm every N of
its steps as well (held-out success along training). Answering N/A at once, with no model, is the
floor beside them. Everything is offline (unless ``--base-model`` names a hub id); on CUDA the same
script trains in bf16 (``--model-size small`` builds a larger model there).

    python examples/reproduce_findings.py --jobs 3 --threads 1      # one process per seed, then the report
    python examples/reproduce_findings.py --threads 1 --seeds 0 &   # the same by hand (likewise 1, 2):
    python examples/reproduce_findings.py --threads 1               # then all seeds, read back: table, JSON, PNG
    python examples/reproduce_findings.py --arms bc bc_grpo         # some arms; a later run adds the rest
    python examples/reproduce_findings.py --base-model Qwen/Qwen2.5-0.5B-Instruct --max-new-tokens 96  # a GPU

With ``--base-model`` every arm starts from that pretrained model instead of a tiny model built from the
demonstrations (the paper starts from Qwen2.5-3B-Instruct and Llama-3.1-8B-Instruct; "untrained" is then
its prompted baseline).

The defaults are the configuration with the best held-out results (``FINDINGS_DEFAULTS``; the main
job's defaults with ``findings_defaults=False``). The three seeds as parallel single-thread processes,
then the report, took 52 minutes on a 2-core machine on the earlier sites, and 68.5 on today's busier
ones with other work beside it (docs/findings, "On the busier sites").

Leaves in ``--output``: ``findings.json`` (every number), ``findings.png`` (success per arm
with spread, the scaling curve, training dynamics per arm), ``eval_answer_na.json`` (the floor:
answering N/A at once, no model) and, per seed, the models,
``metrics.jsonl`` of each training run, one ``eval_<arm>.json`` per evaluation and its episodes as run files
(``trajectories_<arm>_greedy.jsonl``, ``..._sampled<k>.jsonl``; ``webarena-gym report`` reads them). A killed run resumes
where it stopped: finished trainings and evaluations are kept (``--fresh`` starts over), and a GRPO run goes on
from its last checkpoint (``--grpo-save-every``) as if it had never stopped; so does a run
carried to another machine with its records but not its weights (``scripts/gpu_findings.sh``'s pieces), which
makes again, from the same seed, only the models that a piece still to come starts from or evaluates. The
settings that decide those results are kept in ``settings.json``; a run with other settings into the
same ``--output`` stops with the differences named instead of mixing its numbers with the old ones.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import warnings
from typing import Any

from transformers.utils import logging as transformers_logging

from trainers.cpu import set_cpu_threads
from trainers.recipe.experiment import (  # the experiment; the names beside main's are those users of this script imported
    FINDINGS_DEFAULTS,  # noqa: F401
    Experiment,
    PieceCheckpoints,  # noqa: F401
    findings_arguments,
    machine_description,
    run_seed_processes,
    write_whole,
)
from trainers.recipe.findings import format_report, plot_findings, summarize
from trainers.recipe.job import (  # noqa: F401
    bc_config,
    build_tiny_policy,
    checked_base_model,
    grpo_config,
    grpo_task_ids,
    select_tasks,
)
from trainers.script_arguments import run_script
from webarena_gym.suites.embedded import family_of


def parse_args(argv: list[str] | None = None, *, findings_defaults: bool = True) -> argparse.Namespace:
    """The experiment's options (:func:`trainers.recipe.experiment.findings_arguments`)."""
    return findings_arguments(argv, findings_defaults=findings_defaults)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("webarena_gym.demos").setLevel(logging.ERROR)  # the oracle misses the limit on long families
    transformers_logging.disable_progress_bar()
    warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
    started = time.perf_counter()
    fans_out = args.jobs > 1 and len(args.seeds) > 1
    set_cpu_threads(args.threads or int(fans_out))  # a parent that only waits and reports needs one thread
    machine = machine_description()
    experiment = Experiment(args)
    sites = sorted({family_of(i, "test").name.split(".")[0] for i in experiment.test_ids})
    print(f"{len(experiment.demos)} demonstrations on {len(experiment.train_ids)} train tasks; "
          f"{len(experiment.test_ids)} held-out test tasks on {len(sites)} sites ({', '.join(sites)}); "
          f"seeds {args.seeds}")
    if fans_out:
        run_seed_processes(__file__, argv if argv is not None else sys.argv[1:], args, experiment.out)
    seeds = {}
    for seed in args.seeds:  # each seed's pieces already on disk when its process ran them
        seeds[str(seed)] = experiment.run_seed(seed)
    tasks = {"families": sorted({family_of(i, "train").name for i in experiment.train_ids}),
             "train_ids": experiment.train_ids, "test_ids": experiment.test_ids, "test_sites": sites,
             "test_task_families": [family_of(i, "test").name for i in experiment.test_ids],
             "grpo_ids": experiment.grpo_ids}
    findings = {
        "config": vars(args),
        "machine": machine,
        "tasks": tasks,
        "seeds": seeds,
        "floor": experiment.floor(),
        "summary": summarize(seeds, tasks),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    write_whole(experiment.out / "findings.json", json.dumps(findings, indent=1))
    plot_findings(findings, experiment.out / "findings.png")
    print(format_report(findings))
    print(f"Done in {findings['wall_s']:.0f} s (this invocation). Numbers: {experiment.out / 'findings.json'}; "
          f"plot: {experiment.out / 'findings.png'}")
    return findings


if __name__ == "__main__":  # Ctrl-C, or scripts/gpu_findings.sh at its budget, keeps every finished piece
    run_script(main, interrupted="Interrupted: every finished piece is kept; the same command resumes.")
