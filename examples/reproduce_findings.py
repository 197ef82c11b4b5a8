"""WebAgent-R1's findings, reproduced with a tiny model: what BC and multi-turn GRPO each add on held-out tasks.

Four arms, the same budget and seeds for each, on the short task families of five embedded
sites (the train tasks of those families for training, their test tasks, never seen in
training, for evaluation):

* ``untrained``: the freshly built model;
* ``grpo_zero``: multi-turn GRPO from the untrained model (WebAgent-R1-Zero);
* ``bc``: behaviour cloning on the oracle's demonstrations;
* ``bc_grpo``: BC, then multi-turn GRPO (WebAgent-R1).

Each arm is evaluated on the held-out tasks greedily and sampled (temperature 1, several
passes); the BC+GRPO policy is also evaluated with more allowed interactions (test-time
scaling). Everything is offline; on CUDA the same script trains in bf16 (``--model-size
small`` builds a larger model there).

    python examples/reproduce_findings.py                       # 3 seeds, about an hour on 2 CPU cores
    python examples/reproduce_findings.py --seeds 0 --grpo-steps 2 --bc-epochs 1   # plumbing only

Leaves in ``--output``: ``findings.json`` (every number), ``findings.png`` (success per arm
with spread, the scaling curve, training dynamics per arm) and, per seed, the models,
``metrics.jsonl`` of each training run and the evaluated trajectories. A killed run resumes
where it stopped: finished trainings and evaluations are kept (``--fresh`` starts over).
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import shutil
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from transformers import set_seed
from transformers.utils import logging as transformers_logging

sys.path.insert(0, str(Path(__file__).resolve().parent))
from findings_report import ARMS, format_report, plot_findings, summarize  # noqa: E402
from main_job import select_tasks  # noqa: E402

from trainers.bc import train_bc  # noqa: E402
from trainers.config import AgentArguments, BCConfig, MultiTurnGRPOConfig  # noqa: E402
from trainers.evaluation import evaluate_model  # noqa: E402
from trainers.grpo import train_grpo  # noqa: E402
from trainers.metrics import METRICS_FILE, read_metrics  # noqa: E402
from trainers.policy import load_policy  # noqa: E402
from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts  # noqa: E402
from webarena_gym.demos import read_demonstrations, write_demonstrations  # noqa: E402
from webarena_gym.evaluation import success_by_site  # noqa: E402
from webarena_gym.tasks.embedded_suite import family_of, family_task_ids  # noqa: E402

#: Families whose oracle finishes within 3 interactions, on five sites: 46 held-out test tasks.
DEFAULT_FAMILIES = (
    "gitlab.clone_ssh", "gitlab.star_count",
    "map.around", "map.coordinates", "map.description_page", "map.missing_information", "map.open_nearest",
    "map.zip_code",
    "reddit.bigger_forum", "reddit.comment_count", "reddit.forum_post_count", "reddit.post_views",
    "reddit.subscriber_count",
    "shopping.brand_price_range", "shopping.browse_category", "shopping.product_rating", "shopping.product_sku",
    "shopping.reviewers_mentioning", "shopping.search_keyword", "shopping.summarize_missing_reviews",
    "shopping_admin.customer_by_phone", "shopping_admin.invoice_grand_total", "shopping_admin.preview_theme",
    "shopping_admin.top_search_terms",
)
#: Model sizes: ``tiny`` for CPU, ``small`` for a GPU (same script, bf16 there).
MODEL_SIZES = {
    "tiny": {"hidden_size": 96, "intermediate_size": 256, "num_hidden_layers": 2},
    "small": {"hidden_size": 384, "intermediate_size": 1024, "num_hidden_layers": 6, "num_attention_heads": 6},
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", default="runs/findings", help="where models, metrics, JSON and PNG go")
    parser.add_argument("--families", nargs="+", default=list(DEFAULT_FAMILIES))
    parser.add_argument("--train-per-family", type=int, default=5, help="train tasks kept per family (0: all)")
    parser.add_argument("--test-limit", type=int, default=0, help="evaluate on the first N held-out tasks (0: all)")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--max-turns", type=int, default=3, help="interaction limit in training and evaluation")
    parser.add_argument("--scaling", nargs="+", type=int, default=[3, 5, 10, 15],
                        help="interaction limits the BC+GRPO policy is evaluated with")
    parser.add_argument("--max-observation-chars", type=int, default=3000)
    parser.add_argument("--model-size", choices=sorted(MODEL_SIZES), default="tiny")
    parser.add_argument("--bc-epochs", type=float, default=5)
    parser.add_argument("--bc-learning-rate", type=float, default=1e-2)
    parser.add_argument("--grpo-steps", type=int, default=20, help="optimizer steps")
    parser.add_argument("--grpo-iterations", type=int, default=1, help="optimizer steps per rollout batch")
    parser.add_argument("--grpo-learning-rate", type=float, default=2e-3)
    parser.add_argument("--grpo-tasks-per-step", type=int, default=8)
    parser.add_argument("--num-generations", type=int, default=4, help="G: rollouts per task")
    parser.add_argument("--beta", type=float, default=0.0, help="KL coefficient to the reference")
    parser.add_argument("--layout", default="trajectory", choices=["turn", "trajectory"])
    parser.add_argument("--sampled-passes", type=int, default=4, help="temperature-1 passes over the held-out tasks")
    parser.add_argument("--threads", type=int, default=0,
                        help="torch CPU threads (0: torch's default; 1 is faster on a machine shared with other jobs)")
    parser.add_argument("--fresh", action="store_true", help="discard earlier results in --output")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    return parser.parse_args(argv)


class Experiment:
    """One run of the four arms over the seeds, resumable: every finished piece is kept on disk."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.out = Path(args.output)
        if args.fresh and self.out.exists():
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.progress = not args.no_progress
        self.agent = dict(suite="embedded", max_turns=args.max_turns, max_observation_chars=args.max_observation_chars)
        train_ids, test_ids, demos = self.tasks()
        if args.train_per_family:
            counts: dict[str, int] = {}
            demos = [d for d in demos if _take(counts, family_of(d.task_id, "train").name, args.train_per_family)]
            train_ids = [d.task_id for d in demos]
        self.train_ids, self.demos = train_ids, demos
        self.test_ids = test_ids[: args.test_limit] if args.test_limit else test_ids

    def tasks(self) -> tuple[list[int], list[int], list]:
        """Train ids, held-out test ids and the oracle's demonstrations (recorded once, then read back)."""
        path = self.out / "demos.jsonl"
        if path.exists():
            demos = read_demonstrations(path).demonstrations
            families = {family_of(d.task_id, "train").name for d in demos}
            return [d.task_id for d in demos], family_task_ids("test", families), demos
        train_ids, test_ids, demos = select_tasks(self.args.families, self.args.max_turns)
        write_demonstrations(demos, path)
        return train_ids, test_ids, demos

    # -- pieces, each skipped when already on disk -------------------------------------
    def evaluate(self, model_dir: Path, name: str, seed: int, *, max_turns: int, sampled: bool) -> dict[str, Any]:
        """Greedy (and optionally sampled) success of a model on the held-out tasks; cached as JSON."""
        path = model_dir.parent / f"eval_{name}.json"
        if path.exists():
            return json.loads(path.read_text())
        started = time.perf_counter()
        model, tokenizer = load_policy(str(model_dir))
        agent = AgentArguments(split="test", task_ids=self.test_ids, **{**self.agent, "max_turns": max_turns})
        record: dict[str, Any] = {"max_turns": max_turns}
        passes = []
        for k in range(1 + (self.args.sampled_passes if sampled else 0)):
            set_seed(seed * 1000 + k)
            results = evaluate_model(model, tokenizer, agent, self.test_ids, max_new_tokens=48,
                                     temperature=0.0 if k == 0 else 1.0, progress=self.progress,
                                     desc=f"seed {seed} {name} {'greedy' if k == 0 else f'sampled {k}'}")
            passes.append({"success": sum(r.success for r in results) / len(results),
                           "by_site": {s: list(v) for s, v in success_by_site(results).items()},
                           "solved": sorted(r.task_id for r in results if r.success),
                           "steps": sum(r.steps for r in results) / len(results)})
        record["greedy"] = passes[0]
        if len(passes) > 1:
            record["sampled"] = {"success": statistics.fmean(p["success"] for p in passes[1:]),
                                 "passes": [p["success"] for p in passes[1:]]}
        record["seconds"] = round(time.perf_counter() - started, 1)
        path.write_text(json.dumps(record, indent=1))
        return record

    def train(self, kind: str, start: Path, target: Path, seed: int) -> tuple[list[dict[str, Any]], float | None]:
        """Run BC or GRPO from ``start`` into ``target`` unless it finished before; its metrics and seconds."""
        done = target / "DONE"
        if not done.exists():
            if target.exists():
                shutil.rmtree(target)
            started = time.perf_counter()
            set_seed(seed)
            if kind == "bc":
                train_bc(self.bc_config(target, seed), str(start), demonstrations=self.demos)
            else:
                train_grpo(self.grpo_config(target, seed), str(start))
            done.write_text(json.dumps({"seconds": round(time.perf_counter() - started, 1)}))
        marker = done.read_text()
        return read_metrics(target / METRICS_FILE), json.loads(marker)["seconds"] if marker.startswith("{") else None

    def bc_config(self, target: Path, seed: int) -> BCConfig:
        args = self.args
        return BCConfig(output_dir=str(target), num_train_epochs=args.bc_epochs, learning_rate=args.bc_learning_rate,
                        lr_scheduler_type="cosine", warmup_steps=10, per_device_train_batch_size=16,
                        save_strategy="no", seed=seed, logging_steps=5, split="train", task_ids=self.train_ids,
                        disable_tqdm=not self.progress, **self.agent)

    def grpo_config(self, target: Path, seed: int) -> MultiTurnGRPOConfig:
        args = self.args
        return MultiTurnGRPOConfig(
            output_dir=str(target), split="train", task_ids=self.train_ids, layout=args.layout,
            num_generations=args.num_generations, per_device_train_batch_size=args.grpo_tasks_per_step * args.num_generations,
            max_steps=args.grpo_steps, num_iterations=args.grpo_iterations, learning_rate=args.grpo_learning_rate,
            lr_scheduler_type="constant", beta=args.beta, max_completion_length=48, save_strategy="no", seed=seed,
            rollout_workers=2, disable_tqdm=not self.progress, **self.agent)

    def run_seed(self, seed: int) -> dict[str, Any]:
        """The four arms and the scaling curve for one seed."""
        root = self.out / f"seed{seed}"
        args = self.args
        tiny = root / "tiny"
        if not (tiny / "DONE").exists():
            spec = TinyModelSpec(seed=seed, **MODEL_SIZES[args.model_size])
            build_tiny_model(tiny, texts=demonstration_texts(self.demos), spec=spec)
            (tiny / "DONE").write_text(json.dumps({"seconds": 0.0}))
        starts = {"untrained": None, "grpo_zero": ("grpo", tiny), "bc": ("bc", tiny), "bc_grpo": ("grpo", root / "bc")}
        arms: dict[str, Any] = {}
        dynamics: dict[str, list[dict[str, Any]]] = {}
        timing: dict[str, float] = {}
        for arm, start in starts.items():
            model_dir = tiny
            if start is not None:
                model_dir = root / arm
                dynamics[arm], timing[f"train {arm}"] = self.train(start[0], start[1], model_dir, seed)
            arms[arm] = self.evaluate(model_dir, arm, seed, max_turns=args.max_turns, sampled=True)
            timing[f"eval {arm}"] = arms[arm].get("seconds")
        scaling = {}
        for turns in args.scaling:
            record = arms["bc_grpo"] if turns == args.max_turns else self.evaluate(
                root / "bc_grpo", f"bc_grpo_turns{turns}", seed, max_turns=turns, sampled=False)
            scaling[str(turns)] = record["greedy"]["success"]
            timing[f"eval scaling {turns}"] = 0.0 if turns == args.max_turns else record.get("seconds")
        return {"arms": arms, "scaling": scaling, "dynamics": dynamics, "timing_s": timing}


def _take(counts: dict[str, int], key: str, limit: int) -> bool:
    counts[key] = counts.get(key, 0) + 1
    return counts[key] <= limit


def machine_description() -> dict[str, Any]:
    import os

    import torch

    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"platform": platform.platform(), "cpus": os.cpu_count(), "torch": torch.__version__,
            "cuda": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
            "load_average_at_start": load}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("webarena_gym.demos").setLevel(logging.ERROR)  # the oracle misses the limit on long families
    transformers_logging.disable_progress_bar()
    warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
    started = time.perf_counter()
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    machine = machine_description()
    experiment = Experiment(args)
    sites = sorted({family_of(i, "test").name.split(".")[0] for i in experiment.test_ids})
    print(f"{len(experiment.demos)} demonstrations on {len(experiment.train_ids)} train tasks; "
          f"{len(experiment.test_ids)} held-out test tasks on {len(sites)} sites ({', '.join(sites)}); "
          f"seeds {args.seeds}")
    seeds = {}
    for seed in args.seeds:
        seeds[str(seed)] = experiment.run_seed(seed)
    findings = {
        "config": vars(args),
        "machine": machine,
        "tasks": {"families": sorted({family_of(i, "train").name for i in experiment.train_ids}),
                  "train_ids": experiment.train_ids, "test_ids": experiment.test_ids, "test_sites": sites},
        "seeds": seeds,
        "summary": summarize(seeds, ARMS),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    (experiment.out / "findings.json").write_text(json.dumps(findings, indent=1))
    plot_findings(findings, experiment.out / "findings.png")
    print(format_report(findings))
    print(f"Done in {findings['wall_s']:.0f} s (this invocation). Numbers: {experiment.out / 'findings.json'}; "
          f"plot: {experiment.out / 'findings.png'}")
    return findings


if __name__ == "__main__":
    main()
