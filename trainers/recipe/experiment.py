"""The findings experiment (``examples/reproduce_findings.py``): the four arms over seeds, resumable piece by piece.

:class:`Experiment` trains and evaluates the untrained model, GRPO from it (R1-Zero), BC and BC+GRPO
on the held-out tasks of the findings' families, keeping every finished piece on disk (a killed run
resumes where it stopped); :func:`check_settings` refuses to mix results made with other settings
into one output folder; :func:`run_seed_processes` runs the seeds as processes of the script.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import shutil
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm
from transformers import TrainerCallback, set_seed
from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

from webarena_gym.arguments import whole
from webarena_gym.demos import read_demonstrations, write_demonstrations
from webarena_gym.evaluation import success_by_site, write_results
from webarena_gym.evaluators.string_match import is_bare_na
from webarena_gym.settings import RENAMED

from ..bc import train_bc
from ..checkpoint import ROLLOUT_STATE_FILE, checkpoint_folders, checkpoints, latest_checkpoint
from ..config import AgentArguments
from ..cpu import cpu_description
from ..evaluation import evaluate_model
from ..grpo import train_grpo
from ..memory import release_freed_memory
from ..metrics import METRICS_FILE, read_metrics
from ..policy import load_policy
from .findings import ARMS
from .job import (
    add_threads_argument,
    add_training_arguments,
    agent_settings,
    answer_na_results,
    bc_config,
    build_tiny_policy,
    check_training_arguments,
    checked_base_model,
    grpo_config,
    grpo_task_ids,
    resolve_base_model,
    solvable_demonstrations,
    split_demonstrations,
)

logger = logging.getLogger(__name__)

# Where the experiment's defaults differ from the main job's: the configuration with the best held-out
# results (README, "What BC and GRPO each add"): a tokenizer learnt beside entity swaps, copy pretraining
# on what the agent reads (so the untrained model has never read a demonstrated action), a gentler and shorter
# BC, GRPO on every solvable train task with a curriculum over families, and a KL penalty to the start.
FINDINGS_DEFAULTS = {"tokenizer_swaps": 3, "copy_pretraining_steps": 600, "copy_pretraining_text": "read",
                     "bc_learning_rate": 1e-3, "bc_epochs": 20, "grpo_tasks": "all", "grpo_sampling": "learnable",
                     "beta": 0.04}


#: The experiment's one-line description (its ``--help``).
FINDINGS_DESCRIPTION = ("WebAgent-R1's findings, reproduced with a tiny model: what BC and multi-turn GRPO each add on "
                        "held-out tasks.")


def findings_arguments(argv: list[str] | None = None, *, findings_defaults: bool = True) -> argparse.Namespace:
    """The experiment's options, checked; ``findings_defaults=False`` gives the main job's defaults instead."""
    parser = argparse.ArgumentParser(description=FINDINGS_DESCRIPTION)
    parser.add_argument("--output", default="runs/findings", help="where models, metrics, JSON and PNG go")
    add_training_arguments(parser)
    if findings_defaults:
        parser.set_defaults(**FINDINGS_DEFAULTS)
    parser.add_argument("--test-limit", type=whole(0), default=0, help="evaluate on the first N held-out tasks (0: all)")
    parser.add_argument("--seeds", nargs="+", type=whole(0), default=[0, 1, 2])
    parser.add_argument("--scaling", nargs="+", type=whole(1), default=[3, 5, 10, 15],
                        help="interaction limits the BC+GRPO policy is evaluated with")
    parser.add_argument("--sampled-passes", type=whole(0), default=2, help="temperature-1 passes over the held-out tasks")
    add_threads_argument(parser)
    parser.add_argument("--arms", nargs="+", choices=ARMS, default=list(ARMS),
                        help="the arms to train and evaluate (BC+GRPO trains BC first); a later run with more "
                             "arms into the same --output adds them")
    parser.add_argument("--jobs", type=whole(1), default=1,
                        help="seeds trained at once, each in a process of its own (its log in --output/logs); "
                             "1 runs them one after another in this process")
    parser.add_argument("--grpo-save-every", type=whole(0), default=5, metavar="STEPS",
                        help="checkpoint GRPO every this many steps, so that a killed run goes on from there, as if "
                             "it had never stopped (0: a killed GRPO run starts over); a multiple of --grpo-iterations")
    parser.add_argument("--eval-every", type=whole(0), default=0, metavar="STEPS",
                        help="also evaluate each GRPO arm greedily on the held-out tasks every this many GRPO steps "
                             "(held-out success along training; the weights are kept at GRPO's checkpoints, so a "
                             "multiple of --grpo-save-every); 0: only at the end")
    parser.add_argument("--fresh", action="store_true", help="discard earlier results in --output")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    check_training_arguments(parser, args)
    if args.grpo_save_every % args.grpo_iterations:
        parser.error(f"--grpo-save-every {args.grpo_save_every} is not a multiple of --grpo-iterations "
                     f"{args.grpo_iterations}: a checkpoint would fall between updates on one batch of rollouts")
    if args.eval_every and (not args.grpo_save_every or args.eval_every % args.grpo_save_every):
        parser.error(f"--eval-every {args.eval_every} is not a multiple of --grpo-save-every {args.grpo_save_every}: "
                     f"the weights it evaluates are those kept at GRPO's checkpoints")
    for name in ("seeds", "scaling", "arms"):  # a seed twice would count one run twice in the spread
        values = getattr(args, name)
        if repeated := sorted({value for value in values if values.count(value) > 1}):
            parser.error(f"--{name}: {', '.join(map(str, repeated))} given more than once")
    return resolve_base_model(parser, args, argv)


# Arguments that change no finished piece: another seed is another folder, another scaling point, arm or
# evaluation step another evaluation file, and the rest only change how the run is shown or scheduled.
RUN_ONLY_ARGUMENTS = frozenset({"output", "seeds", "scaling", "arms", "threads", "jobs", "fresh", "no_progress",
                                "grpo_save_every", "eval_every"})
SETTINGS_FILE = "settings.json"


def check_settings(out: Path, args: argparse.Namespace) -> None:
    """Record the result-deciding settings in ``out``, or stop if ``out`` holds results made with others."""
    settings = json.loads(json.dumps({k: v for k, v in vars(args).items() if k not in RUN_ONLY_ARGUMENTS}))
    path = out / SETTINGS_FILE
    if path.exists():
        try:
            saved = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SystemExit(f"{path} is unreadable ({exc}); pass --fresh to start over in {out}") from None
        if not isinstance(saved, dict):
            raise SystemExit(f"{path} is not a JSON object; pass --fresh to start over in {out}")
        saved = {RENAMED.get(k, k): v for k, v in saved.items()}  # settings saved under their former names
        # An option added since the run was saved ran as it did before it existed: as the main job's default
        # (where options start out doing what the code did before them), not the findings' later one.
        defaults = json.loads(json.dumps(vars(findings_arguments([], findings_defaults=False))))
        saved = {k: saved.get(k, defaults.get(k)) for k in settings.keys() | saved.keys()}
        differ = sorted(k for k in saved if settings.get(k) != saved[k])
        if differ:
            shown = "; ".join(f"--{k.replace('_', '-')}: {saved.get(k)!r} there, {settings.get(k)!r} now"
                              for k in differ)
            raise SystemExit(f"{out} holds results made with other settings ({shown}). Pass the same settings to "
                             "resume, --fresh to start over there, or another --output.")
        return
    write_whole(path, json.dumps(settings, indent=1))  # seeds run as parallel processes write it at once


@contextmanager
def whole_file(path: Path) -> Iterator[Path]:
    """A temporary path to write ``path``'s content to; renamed to ``path`` once written, so that a run stopped
    mid-write leaves no half file to resume from."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    yield temporary
    temporary.replace(path)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (:func:`whole_file`)."""
    with whole_file(path) as temporary:
        temporary.write_text(text, encoding="utf-8")


def read_finished(path: Path) -> dict[str, Any] | None:
    """A finished piece's JSON record, or None where it is missing or unreadable (then it is made again)."""
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        logger.warning("%s is unreadable (%s); making it again", path, exc)
        return None
    if not isinstance(record, dict):
        logger.warning("%s is not a JSON object; making it again", path)
        return None
    return record


def mark_finished(done: Path, started: float) -> None:
    """Write the ``DONE`` marker of a piece begun at ``started`` (``time.perf_counter()``), with its seconds."""
    write_whole(done, json.dumps({"seconds": round(time.perf_counter() - started, 1)}))


def has_weights(model: Path) -> bool:
    """Whether a model folder holds its weights (a run carried without them, ``scripts/gpu_findings.sh``'s
    pieces, keeps only the records)."""
    return any(model.glob("*.safetensors")) or any(model.glob("*.bin"))


def finished_seconds(done: Path) -> float | None:
    """The seconds a finished piece took, from its ``DONE`` marker (None where an older run did not record them)."""
    marker = done.read_text(encoding="utf-8", errors="replace")
    try:
        return json.loads(marker).get("seconds") if marker.startswith("{") else None  # older runs: plain text
    except json.JSONDecodeError:
        return None


#: Where a GRPO piece keeps the weights of the steps ``--eval-every`` evaluates (``step-N``), until they are.
STEP_WEIGHTS = "steps"
#: What a checkpoint holds only for resuming training, left out of the weights kept for evaluation.
TRAINING_STATE_PREFIXES = ("optimizer", "scheduler", "rng_state", "training_args", "trainer_state", ROLLOUT_STATE_FILE)


def keep_weights(checkpoint: Path, folder: Path) -> None:
    """Put what loads the policy of ``checkpoint`` (weights, config, tokenizer) into ``folder``, whole or not at all:
    hard links where the file system has them (no bytes copied), else copies."""
    if folder.exists():
        return
    partial = folder.with_name(f"{folder.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)  # a stop mid-copy
    partial.mkdir(parents=True)
    for path in checkpoint.iterdir():
        if path.is_file() and not path.name.startswith((*TRAINING_STATE_PREFIXES, PieceCheckpoints.SECONDS_FILE)):
            try:
                os.link(path, partial / path.name)
            except OSError:
                shutil.copy2(path, partial / path.name)
    partial.rename(folder)


class PieceCheckpoints(TrainerCallback):
    """Beside each GRPO checkpoint, the seconds the piece has taken so far (a resumed piece's ``DONE`` counts
    them all); once a checkpoint is whole, the ones before it are removed (each holds the optimizer too).

    With ``keep_every``, the weights of every checkpoint at a multiple of that many steps (but the last, which
    the finished piece holds) are first kept in ``STEP_WEIGHTS/step-N``, for :meth:`Experiment.along_training`.
    """

    SECONDS_FILE = "piece_seconds.json"

    def __init__(self, started: float, *, keep_every: int = 0):
        self.started = started
        self.keep_every = keep_every

    @classmethod
    def seconds_at(cls, checkpoint: Path | None) -> float:
        """The seconds the piece had taken at ``checkpoint`` (0 with none, or an unreadable record)."""
        record = None if checkpoint is None else read_finished(checkpoint / cls.SECONDS_FILE)
        seconds = (record or {}).get("seconds")
        return float(seconds) if isinstance(seconds, (int, float)) else 0.0

    def on_save(self, args, state, control, **kwargs):
        if state.is_world_process_zero:
            whole_ones = checkpoints(args.output_dir)
            if whole_ones:
                mark_finished(whole_ones[-1] / self.SECONDS_FILE, self.started)
                step = state.global_step
                if (self.keep_every and step % self.keep_every == 0 and step < state.max_steps
                        and whole_ones[-1].name == f"{PREFIX_CHECKPOINT_DIR}-{step}"):
                    keep_weights(whole_ones[-1], Path(args.output_dir) / STEP_WEIGHTS / f"step-{step}")
            for older in whole_ones[:-1]:
                shutil.rmtree(older)


#: The GRPO arms, and the arm each starts from (its success at step 0 of :meth:`Experiment.along_training`).
GRPO_STARTS = {"grpo_zero": "untrained", "bc_grpo": "bc"}


class Experiment:
    """One run of the four arms over the seeds, resumable: every finished piece is kept on disk."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.base_model = checked_base_model(args)  # before anything is written, and minutes of demonstrations
        self.out = Path(args.output)
        if args.fresh and self.out.exists():
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True, exist_ok=True)
        check_settings(self.out, args)
        self.progress = not args.no_progress
        self.agent = agent_settings(args)
        self.train_ids, test_ids, self.demos, self.grpo_ids = self.tasks()
        self.test_ids = test_ids[: args.test_limit] if args.test_limit else test_ids

    def tasks(self) -> tuple[list[int], list[int], list, list[int]]:
        """Train ids, held-out test ids, the oracle's demonstrations for BC (recorded once, then read back), GRPO's ids.

        ``demos.jsonl`` holds every train task the oracle solves within the limit: GRPO may draw from all of them.
        """
        path = self.out / "demos.jsonl"
        if path.exists():
            solvable = read_demonstrations(path).demonstrations
        else:
            solvable = solvable_demonstrations(self.args.families, self.args.max_turns, progress=self.progress)
            with whole_file(path) as temporary:  # a half file would shrink the train set
                write_demonstrations(solvable, temporary)
        train_ids, test_ids, demos = split_demonstrations(solvable, self.args.train_per_family)
        return train_ids, test_ids, demos, grpo_task_ids(self.args, train_ids, solvable)

    # -- pieces, each skipped when already on disk -------------------------------------
    def evaluate(self, source: str | Path, name: str, seed: int, *, max_turns: int, sampled: bool) -> dict[str, Any]:
        """Greedy (and optionally sampled) success of a model on the held-out tasks; cached as JSON in the seed's folder."""
        path = self.out / f"seed{seed}" / f"eval_{name}.json"
        if (cached := read_finished(path)) is not None:
            return cached
        started = time.perf_counter()
        model, tokenizer = load_policy(str(self.with_weights(source, seed)))
        fields = {**self.agent, "max_turns": max_turns}
        agent = AgentArguments(split="test", task_ids=self.test_ids, **fields)
        record: dict[str, Any] = {"max_turns": max_turns}
        passes = []
        for k in range(1 + (self.args.sampled_passes if sampled else 0)):
            set_seed(seed * 1000 + k)
            pass_name, temperature = ("greedy", 0.0) if k == 0 else (f"sampled{k}", 1.0)
            results = evaluate_model(model, tokenizer, agent, self.test_ids, max_new_tokens=self.args.max_new_tokens,
                                     episodes_at_once=64 if self.args.base_model is None else 16,
                                     temperature=temperature, progress=self.progress,
                                     desc=f"seed {seed} {name} {pass_name}")
            write_results(results, path.with_name(f"trajectories_{name}_{pass_name}.jsonl"),
                          settings={"model": f"seed {seed} {name}", "split": "test", "pass": pass_name,
                                    "temperature": temperature, **fields})
            passes.append({"success": sum(r.success for r in results) / len(results),
                           "by_site": {s: list(v) for s, v in success_by_site(results).items()},
                           "solved": sorted(r.task_id for r in results if r.success),
                           "steps": sum(r.steps for r in results) / len(results),
                           "na_answers": sum(is_bare_na(r.answer) for r in results) / len(results)})
        record["greedy"] = passes[0]
        if len(passes) > 1:
            record["sampled"] = {"success": statistics.fmean(p["success"] for p in passes[1:]),
                                 "passes": [p["success"] for p in passes[1:]],
                                 "solved_passes": [p["solved"] for p in passes[1:]]}
        record["seconds"] = round(time.perf_counter() - started, 1)
        write_whole(path, json.dumps(record, indent=1))
        del model
        release_freed_memory()
        return record

    def floor(self) -> dict[str, Any]:
        """Answering N/A at once on the held-out tasks, no model: the success of reading nothing (cached as JSON)."""
        path = self.out / "eval_answer_na.json"
        if (cached := read_finished(path)) is not None:
            return cached
        results = answer_na_results("test", self.test_ids, self.args.max_turns)
        record = {"answer": "N/A", "success": sum(r.success for r in results) / len(results),
                  "solved": sorted(r.task_id for r in results if r.success)}
        write_whole(path, json.dumps(record, indent=1))
        return record

    def train(self, kind: str, start: str | Path, target: Path, seed: int) -> tuple[list[dict[str, Any]], float | None]:
        """Run BC or GRPO from ``start`` into ``target`` unless it finished before; its metrics and seconds."""
        done = target / "DONE"
        if not done.exists():
            start = self.with_weights(start, seed)
            resumed = latest_checkpoint(target) if kind != "bc" and target.exists() else None
            if target.exists() and resumed is None:
                shutil.rmtree(target)
            started = time.perf_counter() - PieceCheckpoints.seconds_at(resumed)
            set_seed(seed)
            if kind == "bc":
                train_bc(bc_config(self.args, target, self.train_ids, seed, disable_tqdm=not self.progress), str(start),
                         demonstrations=self.demos)
            else:  # GRPO from BC replays BC's demonstrations with --bc-replay; R1-Zero has none
                from_bc = kind == "grpo_from_bc"
                if resumed is not None:
                    logger.warning("%s: going on from %s", target, resumed.name)
                saving = ({"save_strategy": "steps", "save_steps": self.args.grpo_save_every}
                          if self.args.grpo_save_every else {})
                callbacks = [PieceCheckpoints(started, keep_every=self.args.eval_every)]
                train_grpo(grpo_config(self.args, target, self.grpo_ids, seed, from_bc=from_bc,
                                       disable_tqdm=not self.progress, **saving), str(start),
                           demonstrations=self.demos if from_bc else None, callbacks=callbacks,
                           resume_from_checkpoint=resumed)
            mark_finished(done, started)
            release_freed_memory()  # the dropped trainer's: not left held while the next piece runs
            # Only for resuming (a SmolLM2 one with its optimizer: 1.6 GB); a stop mid-save may have left one unwhole.
            for checkpoint in checkpoint_folders(target):
                shutil.rmtree(checkpoint)
        return read_metrics(target / METRICS_FILE), finished_seconds(done)

    def start(self, root: Path, seed: int, timing: dict[str, float | None]) -> str | Path:
        """What every arm starts from: ``--base-model``, or this seed's tiny model (built once, timed)."""
        if self.base_model:
            return self.base_model
        tiny = root / "tiny"
        if not (tiny / "DONE").exists():
            started = time.perf_counter()
            build_tiny_policy(tiny, self.demos, self.args, seed, progress=self.progress)
            mark_finished(tiny / "DONE", started)
        timing["build tiny"] = finished_seconds(tiny / "DONE")
        return tiny

    @staticmethod
    def starts(root: Path, start: str | Path) -> dict[str, tuple[str, str | Path]]:
        """What each trained arm of the seed in ``root`` is: its kind of training and the model it starts from
        (``start``: what every arm starts from)."""
        return {"grpo_zero": ("grpo", start), "bc": ("bc", start), "bc_grpo": ("grpo_from_bc", root / "bc")}

    def with_weights(self, model: str | Path, seed: int) -> str | Path:
        """``model``, ready to load: a finished piece whose weights are not on disk (a run carried with its records
        only) is made again from its start, its records (seconds, metrics) kept as first measured."""
        if isinstance(model, str) or has_weights(model):
            return model
        logger.warning("%s holds no weights (a run carried with its records only); making them again", model)
        records = {name: (model / name).read_bytes() for name in ("DONE", METRICS_FILE) if (model / name).exists()}
        (model / "DONE").unlink(missing_ok=True)
        if model.name == "tiny":
            self.start(model.parent, seed, {})
        else:
            kind, start = self.starts(model.parent, self.start(model.parent, seed, {}))[model.name]
            self.train(kind, start, model, seed)
        for name, record in records.items():
            with whole_file(model / name) as temporary:
                temporary.write_bytes(record)
        return model

    def run_seed(self, seed: int) -> dict[str, Any]:
        """The arms asked for and, with BC+GRPO among them, the scaling curve for one seed."""
        root = self.out / f"seed{seed}"
        root.mkdir(exist_ok=True)
        args = self.args
        timing: dict[str, float | None] = {}
        start = self.start(root, seed, timing)
        starts = {"untrained": None, **self.starts(root, start)}
        arms: dict[str, Any] = {}
        dynamics: dict[str, list[dict[str, Any]]] = {}
        along_training: dict[str, dict[str, float]] = {}
        for arm in (a for a in ARMS if a in args.arms):
            model_dir = start
            if arm == "bc_grpo" and "bc" not in args.arms:  # its start, trained but not evaluated
                dynamics["bc"], timing["train bc"] = self.train(*starts["bc"], root / "bc", seed)
            if starts[arm] is not None:
                model_dir = root / arm
                dynamics[arm], timing[f"train {arm}"] = self.train(*starts[arm], model_dir, seed)
            arms[arm] = self.evaluate(model_dir, arm, seed, max_turns=args.max_turns, sampled=True)
            timing[f"eval {arm}"] = arms[arm].get("seconds")
            if args.eval_every and arm in GRPO_STARTS:
                along_training[arm] = self.along_training(root, arm, seed, arms, timing)
        scaling = {}
        for turns in args.scaling if "bc_grpo" in arms else ():
            record = arms["bc_grpo"] if turns == args.max_turns else self.evaluate(
                root / "bc_grpo", f"bc_grpo_turns{turns}", seed, max_turns=turns, sampled=False)
            scaling[str(turns)] = record["greedy"]["success"]
            timing[f"eval scaling {turns}"] = 0.0 if turns == args.max_turns else record.get("seconds")
        return {"arms": arms, "scaling": scaling, "dynamics": dynamics, "along_training": along_training,
                "timing_s": timing}

    def along_training(self, root: Path, arm: str, seed: int, arms: dict[str, Any],
                       timing: dict[str, float | None]) -> dict[str, float]:
        """Held-out greedy success of a GRPO arm by step: its start (step 0, where that arm was evaluated), the
        weights kept every ``--eval-every`` steps, and the end. A step's weights go once its evaluation is on disk."""
        args = self.args
        curve = {"0": arms[GRPO_STARTS[arm]]["greedy"]["success"]} if GRPO_STARTS[arm] in arms else {}
        kept = root / arm / STEP_WEIGHTS
        for step in range(args.eval_every, args.grpo_steps, args.eval_every):
            name, weights = f"{arm}_step{step}", kept / f"step-{step}"
            if read_finished(root / f"eval_{name}.json") is None and not has_weights(weights):
                logger.warning("%s: no weights kept at step %d (trained without --eval-every %d); not evaluated",
                               root / arm, step, args.eval_every)
                continue
            record = self.evaluate(weights, name, seed, max_turns=args.max_turns, sampled=False)
            curve[str(step)] = record["greedy"]["success"]
            timing[f"eval {arm} step {step}"] = record.get("seconds")
            shutil.rmtree(weights, ignore_errors=True)
        if kept.is_dir() and not any(kept.iterdir()):
            kept.rmdir()
        curve[str(args.grpo_steps)] = arms[arm]["greedy"]["success"]
        return curve


def run_seed_processes(script: str | Path, argv: list[str], args: argparse.Namespace, out: Path) -> None:
    """Train and evaluate the seeds in up to ``--jobs`` processes at a time, one per seed, into ``out``.

    Each child runs ``script`` (the experiment's, ``examples/reproduce_findings.py``) with ``--seeds S`` and writes its pieces, as the parallel commands in the
    README do by hand; torch's threads are shared out among them unless ``--threads`` says otherwise.
    A child that fails stops the run with its seed, exit status and log named, after the others end.
    """
    import subprocess

    threads = args.threads or max(1, (os.cpu_count() or 1) // min(args.jobs, len(args.seeds)))
    logs = out / "logs"
    logs.mkdir(exist_ok=True)
    # The parent has already done --fresh's clearing; a child that did it again would delete its siblings' work.
    kept = [a for a in argv if not (len(a) > 3 and "--fresh".startswith(a))]
    command = [sys.executable, str(Path(script).resolve()), *kept]
    pending, running, failed = list(args.seeds), {}, []
    progress = tqdm(total=len(pending), desc=f"seeds ({args.jobs} at a time)", disable=args.no_progress)
    try:
        while pending or running:
            while pending and len(running) < args.jobs:
                seed = pending.pop(0)
                with open(logs / f"seed{seed}.txt", "w") as log:
                    running[seed] = subprocess.Popen(
                        [*command, "--seeds", str(seed), "--jobs", "1", "--threads", str(threads), "--no-progress"],
                        stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            seed = next((s for s, child in running.items() if child.poll() is not None), None)
            if seed is None:
                time.sleep(1)
                continue
            code = running.pop(seed).returncode
            progress.update()
            if code:
                failed.append(f"seed {seed} (exit status {code}; log {logs / f'seed{seed}.txt'})")
    finally:  # interrupted (Ctrl-C, a kill): no child is left training on; finished pieces stay for a resume
        for child in running.values():
            child.terminate()
            child.wait()
        progress.close()
    if failed:
        raise SystemExit("Failed: " + "; ".join(failed))


def machine_description() -> dict[str, Any]:
    """Where the run ran: the numbers' seconds depend on it, and on another CPU its GRPO arms' numbers too."""
    import torch

    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"platform": platform.platform(), "cpus": os.cpu_count(), "cpu": cpu_description(), "torch": torch.__version__,
            "cuda": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
            "load_average_at_start": load}
