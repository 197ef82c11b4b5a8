"""The recipe of the main job: task selection, the tiny policy, the BC and GRPO configs, the demonstrations.

What ``examples/main_job.py`` (BC, then multi-turn GRPO, on the embedded sites) and
``examples/reproduce_findings.py`` (the four arms over seeds) share, importable as
``trainers.recipe``: the task families and their train/test split (:func:`select_tasks`,
:func:`solvable_demonstrations`), the options of both scripts (:func:`add_training_arguments`),
the tiny model built from the demonstrations (:func:`build_tiny_policy`), and the configs of
BC and GRPO made from those options (:func:`bc_config`, :func:`grpo_config`).

>>> from ..recipe import main_job_arguments, select_tasks            # doctest: +SKIP
>>> args = main_job_arguments(["--families", "map.zip_code"])               # doctest: +SKIP
>>> train_ids, test_ids, demos = select_tasks(args.families, args.max_turns)  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections import Counter
from pathlib import Path

from webarena_gym.arguments import number, whole
from webarena_gym.demos import record_oracle_demonstrations
from webarena_gym.env import WebArenaEnv
from webarena_gym.evaluation import (
    AnswerAtOnce,
    episode_difference,
    format_difference,
    format_units,
    run_policy,
)
from webarena_gym.settings import MAX_CHARS_RANGE, RenamedFlag
from webarena_gym.suites.embedded import all_families, family_of, family_task_ids

from ..augment import entity_swaps
from ..chat import ALL_ROLES, READ_ROLES, context_texts
from ..config import LAYOUTS, TASK_SAMPLING, AgentArguments, BCConfig, MultiTurnGRPOConfig
from ..cpu import THREADS_HELP
from ..gguf import gguf_model_directory, is_gguf_path
from ..induction import COPY_SPANS, copy_pretrain
from ..policy import check_pretrained
from ..tiny import TinyModelSpec, build_tiny_model

#: Short families on five sites (answers to read from a page, names to type into a search box, links
#: to follow, "N/A" to recognise): 24, of which the 21 whose oracle finishes within 3 interactions
#: on today's sites are used (the admin menu's sections open before their links), 26 held-out test tasks.
FINDINGS_FAMILIES = (
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


#: The stages compared in the final tables: a stage, and the one it is measured against.
STAGE_GAINS = (("after BC", "untrained"), ("after BC+GRPO", "after BC"))


#: Model sizes: ``tiny`` for CPU, ``small`` for a GPU (bf16 there). A 4000-token vocabulary keeps the
#: output layer, most of a tiny model's arithmetic, small.
MODEL_SIZES = {
    "tiny": {"vocab_size": 4000, "hidden_size": 96, "intermediate_size": 256, "num_hidden_layers": 2},
    "small": {"vocab_size": 8000, "hidden_size": 384, "intermediate_size": 1024, "num_hidden_layers": 6,
              "num_attention_heads": 6},
}

#: What copy pretraining reads (``--copy-pretraining-text``), by the chat roles of the BC rows' messages:
#: all of them, the expert's actions included, or only what the agent reads.
COPY_TEXTS = {"rows": ALL_ROLES, "read": READ_ROLES}


def check_training_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Stop with a usage error on any ``--families`` entry that is no embedded task family, or on a
    ``--grpo-micro-batch`` that does not divide a GRPO step's rollouts."""
    known = {family.name for family in all_families()}
    unknown = [name for name in args.families if name not in known]
    if unknown:
        near = sorted({match for name in unknown for match in difflib.get_close_matches(name, known, n=3)})
        parser.error(f"--families: no family {', '.join(map(repr, unknown))} among the {len(known)} embedded ones "
                     f"(named site.family, e.g. {FINDINGS_FAMILIES[0]}; `webarena-gym tasks families` lists them)"
                     + (f"; close: {', '.join(near)}" if near else ""))
    if outside := [name for name in args.grpo_skip_families if name not in args.families]:
        parser.error(f"--grpo-skip-families: {', '.join(map(repr, outside))} is not among --families")
    if set(args.families) <= set(args.grpo_skip_families):
        parser.error("--grpo-skip-families leaves GRPO no family to draw from")
    try:
        grpo_micro_batch(args)
    except ValueError as exc:
        parser.error(str(exc))


#: Demonstration rows per BC optimizer step, and the forward passes that may make it up.
BC_BATCH = 16
BC_MICRO_BATCHES = (1, 2, 4, 8, 16)


def add_training_arguments(parser: argparse.ArgumentParser) -> None:
    """The task, BC and GRPO options shared with examples/reproduce_findings.py."""
    parser.add_argument("--families", nargs="+", default=list(FINDINGS_FAMILIES),
                        help="task families to train and evaluate on (`webarena-gym tasks families` lists them)")
    parser.add_argument("--train-per-family", type=whole(0), default=3, help="train tasks kept per family (0: all)")
    parser.add_argument("--max-turns", type=whole(1), default=3, help="interaction limit; the train tasks the oracle "
                                                                   "solves within it are used")
    parser.add_argument("--max-chars", "--max-observation-chars", type=whole(MAX_CHARS_RANGE[0]), default=2000,
                        action=RenamedFlag, help="character budget of one page observation (longer pages scroll; "
                                                 "--max-observation-chars: its former name)")
    parser.add_argument("--bc-epochs", type=number(0, above=True), default=30)
    parser.add_argument("--bc-learning-rate", type=number(0, above=True), default=1e-2)
    parser.add_argument("--bc-swaps", type=whole(0), default=0,
                        help="entity-swapped copies of each demonstration for BC (trainers/augment.py); "
                             "--bc-epochs counts passes over originals and copies together")
    parser.add_argument("--bc-micro-batch", type=int, choices=BC_MICRO_BATCHES, default=BC_BATCH,
                        help=f"BC rows per forward pass; BC's batch stays {BC_BATCH} by gradient accumulation. Lower "
                             "it where a pretrained base's long rows do not fit in memory (SmolLM2-135M on a CPU "
                             "with 24 GiB: 1)")
    parser.add_argument("--bf16", action="store_true",
                        help="train BC and GRPO under bf16 autocast on a CPU too (float32 weights; on CUDA bf16 is the "
                             "default): faster where the CPU multiplies bf16 natively (AVX512-BF16, AMX), for a "
                             "pretrained base (benchmarks/bc_step_time.py); evaluation stays float32")
    parser.add_argument("--grpo-steps", type=whole(1), default=60, help="optimizer steps")
    parser.add_argument("--grpo-iterations", type=whole(1), default=1, help="optimizer steps per rollout batch")
    parser.add_argument("--grpo-learning-rate", type=number(0, above=True), default=2e-4,
                        help="2e-3 undid BC: greedy success on the train tasks 37/72 -> 8/72 in 30 steps (README)")
    parser.add_argument("--grpo-tasks-per-step", type=whole(1), default=4)
    parser.add_argument("--grpo-micro-batch", type=whole(1), metavar="N",
                        help="GRPO rollouts per forward pass (default: all of a step's, tasks x G, at once); a step's "
                             "rollouts are still generated together and make one optimizer step, by gradient "
                             "accumulation. Must divide --grpo-tasks-per-step x --num-generations. Lower it where a "
                             "pretrained base's trajectories do not fit in memory (SmolLM2-135M, 24 GiB: 1 or 2)")
    parser.add_argument("--grpo-tasks", choices=["bc", "all"], default="bc",
                        help="train tasks GRPO draws from: the demonstrated ones, or every train task of the families "
                             "the oracle solves within --max-turns (a reward needs no demonstration)")
    parser.add_argument("--grpo-skip-families", nargs="+", default=[], metavar="FAMILY",
                        help="families of --families whose train tasks GRPO never draws; BC and the held-out "
                             "evaluation keep them (e.g. the URL-scored shopping.search_keyword, whose reward pays "
                             "for any answer on the right page)")
    parser.add_argument("--grpo-sampling", choices=TASK_SAMPLING, default="uniform",
                        help="how a GRPO step picks its tasks: uniformly, or a curriculum over families that favours "
                             "those whose rollout groups' rewards differ (trainers/curriculum.py); "
                             "learnable_distinct: each task of a step from a different family")
    parser.add_argument("--curriculum-memory", type=number(0, 1), default=0.98,
                        help="with a learnable --grpo-sampling: the share of a family's counts each step keeps")
    parser.add_argument("--grpo-lr-scheduler", choices=["constant", "linear", "cosine"], default="constant",
                        help="GRPO's learning rate over its steps: constant, or decaying to 0 by the last step")
    parser.add_argument("--num-generations", type=whole(2), default=8, help="G: rollouts per task")
    parser.add_argument("--temperature", type=number(0, above=True), default=1.0, help="sampling temperature of the GRPO rollouts")
    parser.add_argument("--beta", type=number(0), default=0.0, help="KL coefficient to the reference (BC) model")
    parser.add_argument("--bc-replay", type=number(0), default=0.0, metavar="COEF",
                        help="GRPO from BC also takes COEF x BC's loss on a batch of the demonstrations every step "
                             "(trainers/replay.py, as InstructGPT's PPO-ptx; not in WebAgent-R1), against unlearning "
                             "what BC taught; 0: pure GRPO. Never applied to GRPO from the untrained model")
    parser.add_argument("--bc-replay-batch", type=whole(1), default=8, metavar="N",
                        help="with --bc-replay: demonstration rows replayed with every GRPO micro-batch (each costs "
                             "about one BC row's time: 8 with a micro-batch of 2 and 16 rollouts a step roughly "
                             "doubles a SmolLM2 step)")
    parser.add_argument("--layout", default="trajectory", choices=LAYOUTS)
    parser.add_argument("--thinking", action="store_true", help="<think>...</think><answer>...</answer> format")
    parser.add_argument("--task-after-page", action="store_true",
                        help="restate the task after the page on every turn (WebArena's prompts: OBSERVATION, URL, "
                             "OBJECTIVE) instead of once before the first page (WebAgent-R1's)")
    parser.add_argument("--max-new-tokens", type=whole(1), default=48,
                        help="token limit of one turn, in GRPO's rollouts and in evaluation (a pretrained base, above "
                             "all with --thinking, may need more)")
    parser.add_argument("--base-model", metavar="NAME_OR_PATH",
                        help="start from this pretrained causal LM (a model directory, hub id or GGUF file whose "
                             "tokenizer has a chat template; the paper's are Qwen2.5-3B-Instruct and Llama-3.1-8B-Instruct) instead "
                             "of a tiny model built from the demonstrations: 'untrained' is then the base as it is. "
                             "The options that build the tiny model (below) do not apply to it")
    parser.add_argument("--lora-r", type=whole(0), default=0,
                        help="LoRA rank of BC and GRPO (0: every weight trains); the saved models have the adapter "
                             "merged in. For a large --base-model on one GPU")
    parser.add_argument("--model-size", choices=sorted(MODEL_SIZES), default="tiny",
                        help="tiny for CPU; small (6 layers, width 384) for a GPU")
    parser.add_argument("--tokenizer-swaps", type=whole(0), default=0,
                        help="learn the tokenizer beside this many entity-swapped copies of the demonstrations, "
                             "so that train and unseen entities are spelled in pieces alike (README)")
    parser.add_argument("--copy-pretraining-steps", type=whole(0), default=0,
                        help="train the fresh model this many steps to repeat spans of its corpus before anything "
                             "else (trainers/induction.py), meant as the copying a pretrained base brings; measured, "
                             "it teaches the corpus, not copying (README)")
    parser.add_argument("--copy-pretraining-random-steps", type=whole(0), default=0,
                        help="before --copy-pretraining-steps, this many steps on spans of random tokens, which only "
                             "copying predicts, the learning rate warmed up over the first 500: a base that copies "
                             "and then learns its corpus (README)")
    parser.add_argument("--copy-pretraining-spans", choices=COPY_SPANS, default="corpus",
                        help="with --copy-pretraining-steps: spans from the corpus (which it learns to predict, not "
                             "to copy) or random tokens of its vocabulary (which only copying predicts; README)")
    parser.add_argument("--copy-pretraining-gap", type=whole(0), default=0,
                        help="with --copy-pretraining-steps: up to this many tokens of other text between a span and "
                             "its repeat, as a page lies between an agent's task and its action (0: right after)")
    parser.add_argument("--copy-pretraining-learning-rate", type=number(0, above=True), default=3e-3,
                        help="with --copy-pretraining-steps: AdamW's learning rate (lower it where the loss diverges)")
    parser.add_argument("--copy-pretraining-text", choices=sorted(COPY_TEXTS), default="rows",
                        help="with --copy-pretraining-steps: every message of the BC rows (rows: the expert's actions "
                             "included) or only what the agent reads (read: instructions, tasks and pages), so that "
                             "the 'untrained' model has never read a demonstrated action")


#: The options that build the tiny model; a run from ``--base-model`` has none.
TINY_MODEL_OPTIONS = ("model_size", "tokenizer_swaps", "copy_pretraining_random_steps", "copy_pretraining_steps",
                      "copy_pretraining_spans", "copy_pretraining_gap", "copy_pretraining_learning_rate", "copy_pretraining_text")


def resolve_base_model(parser: argparse.ArgumentParser, args: argparse.Namespace,
                       argv: list[str] | None) -> argparse.Namespace:
    """With ``--base-model``: refuse the tiny model's options where given, and record them as not used (None)."""
    if args.base_model is None:
        return args
    flags = [f"--{name.replace('_', '-')}" for name in TINY_MODEL_OPTIONS]
    given = [f for f in flags if any(a == f or a.startswith(f"{f}=") for a in (sys.argv[1:] if argv is None else argv))]
    if given:
        parser.error(f"{', '.join(given)} build the tiny model; --base-model starts from a pretrained one instead")
    for name in TINY_MODEL_OPTIONS:
        setattr(args, name, None)
    return args


def add_threads_argument(parser: argparse.ArgumentParser) -> None:
    """``--threads``: how many CPU threads torch runs each op on (how fast a run goes on a busy or idle machine)."""
    parser.add_argument("--threads", type=whole(0), default=0, help=THREADS_HELP)


#: The main job's one-line description (its ``--help``).
MAIN_JOB_DESCRIPTION = "The main job: behaviour cloning, then multi-turn GRPO, on the embedded sites with a tiny model on CPU."


def main_job_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The main job's options (``examples/main_job.py``), checked: a usage error names a bad one."""
    parser = argparse.ArgumentParser(description=MAIN_JOB_DESCRIPTION)
    parser.add_argument("--output", default="runs/main", help="where demos, models, metrics and plots go")
    add_training_arguments(parser)
    parser.add_argument("--seed", type=whole(0), default=0)
    add_threads_argument(parser)
    args = parser.parse_args(argv)
    check_training_arguments(parser, args)
    return resolve_base_model(parser, args, argv)


def checked_base_model(args: argparse.Namespace) -> str | None:
    """``--base-model`` once it loads as a causal LM with a chat template (None without one); a clear exit if not.

    A GGUF file is first made into a model directory, ``OUTPUT/base_model`` (trainers/gguf.py), which is returned.
    """
    if args.base_model is None:
        return None
    try:
        base = args.base_model
        if is_gguf_path(base):
            base = str(gguf_model_directory(base, Path(args.output) / "base_model"))
        check_pretrained(base)
    except ValueError as exc:
        raise SystemExit(f"--base-model: {exc}") from None
    return base


def agent_settings(args: argparse.Namespace) -> dict:
    """The agent fields shared by BC, GRPO and evaluation."""
    return dict(suite="embedded", max_turns=args.max_turns, max_chars=args.max_chars,
                thinking=args.thinking, task_after_page=args.task_after_page)


def build_tiny_policy(directory: Path, demos: list, args: argparse.Namespace, seed: int, *,
                      progress: bool = True) -> Path:
    """A tiny model whose tokenizer is learnt from the text as BC and the rollouts read it.

    Every BC row's messages, as often as they are read, with merges up to 32 characters and
    digit runs kept apart: rows 2.2x shorter than a tokenizer that learns each text once, so BC,
    rollouts and evaluation cost that much less, and element ids and numbers stay tokens the
    model can copy from a page it never saw (``benchmarks/tokenizer_corpus.py``). With
    ``--tokenizer-swaps`` the corpus also holds entity-swapped copies, so the train tasks' names
    are no longer merged into a few tokens of their own; with ``--copy-pretraining-steps`` the
    model is then trained to repeat spans of that corpus, and with ``--copy-pretraining-random-steps``,
    before that, spans of random tokens of its vocabulary (which teach it to copy).
    """
    agent = AgentArguments(split="train", **agent_settings(args))
    spec = TinyModelSpec(seed=seed, max_token_length=32, split_digits=True, **MODEL_SIZES[args.model_size])
    corpus = [*demos, *entity_swaps(demos, args.tokenizer_swaps, seed=seed)]
    build_tiny_model(directory, texts=context_texts(corpus, agent), spec=spec)
    stages = [(option, steps, spans) for option, steps, spans in (
        ("--copy-pretraining-random-steps", args.copy_pretraining_random_steps, "random"),
        ("--copy-pretraining-steps", args.copy_pretraining_steps, args.copy_pretraining_spans)) if steps]
    read = context_texts(corpus, agent, roles=COPY_TEXTS[args.copy_pretraining_text]) if stages else []
    for option, steps, spans in stages:
        try:
            copy_pretrain(directory, read, steps=steps, max_gap=args.copy_pretraining_gap, spans=spans,
                          learning_rate=args.copy_pretraining_learning_rate, seed=seed, progress=progress)
        except FloatingPointError as exc:
            raise SystemExit(f"{exc} (--copy-pretraining-learning-rate, now "
                             f"{args.copy_pretraining_learning_rate:g})") from None
        except ValueError as exc:
            raise SystemExit(f"{option}: {exc}") from None
    return directory


def bc_config(args: argparse.Namespace, output_dir: Path, train_ids: list[int], seed: int, **extra) -> BCConfig:
    """BC on the demonstrations of ``train_ids``."""
    return BCConfig(output_dir=str(output_dir), num_train_epochs=args.bc_epochs, learning_rate=args.bc_learning_rate,
                    lr_scheduler_type="cosine", warmup_steps=10, per_device_train_batch_size=args.bc_micro_batch,
                    gradient_accumulation_steps=BC_BATCH // args.bc_micro_batch, save_strategy="no",
                    seed=seed, logging_steps=5, split="train", task_ids=train_ids, entity_swaps=args.bc_swaps,
                    lora_r=args.lora_r, bf16=True if args.bf16 else None,
                    **agent_settings(args), **extra)


def grpo_config(args: argparse.Namespace, output_dir: Path, train_ids: list[int], seed: int, *,
                from_bc: bool = True, **extra) -> MultiTurnGRPOConfig:
    """Multi-turn GRPO on ``train_ids`` (at least ``--grpo-tasks-per-step`` of them: a step draws that many).

    ``from_bc=False`` (GRPO from the untrained model) leaves out ``--bc-replay``: that arm has no demonstrations.
    ``extra`` overrides or adds config fields (no checkpoints unless it sets ``save_strategy``).
    """
    if len(train_ids) < args.grpo_tasks_per_step:
        raise SystemExit(f"GRPO needs at least --grpo-tasks-per-step ({args.grpo_tasks_per_step}) train tasks; "
                         f"there are {len(train_ids)}: lower it or raise --train-per-family.")
    rows, micro = grpo_micro_batch(args)
    return MultiTurnGRPOConfig(
        output_dir=str(output_dir), split="train", task_ids=train_ids, layout=args.layout,
        num_generations=args.num_generations, per_device_train_batch_size=micro,
        gradient_accumulation_steps=rows // micro, steps_per_generation=rows // micro,
        max_steps=args.grpo_steps, num_iterations=args.grpo_iterations, learning_rate=args.grpo_learning_rate,
        lr_scheduler_type=args.grpo_lr_scheduler, beta=args.beta, temperature=args.temperature,
        bc_replay_coef=args.bc_replay if from_bc else 0.0,
        bc_replay_batch_size=args.bc_replay_batch,
        max_completion_length=args.max_new_tokens,
        seed=seed, task_sampling=args.grpo_sampling, curriculum_memory=args.curriculum_memory, lora_r=args.lora_r,
        bf16=True if args.bf16 else None, rollout_workers=2, **agent_settings(args), **{"save_strategy": "no", **extra},
    )


def grpo_micro_batch(args: argparse.Namespace) -> tuple[int, int]:
    """A GRPO step's rollouts (tasks x G) and how many of them one forward pass takes (``--grpo-micro-batch``)."""
    rows = args.grpo_tasks_per_step * args.num_generations
    micro = args.grpo_micro_batch or rows
    if rows % micro:
        raise ValueError(f"--grpo-micro-batch {micro} does not divide a GRPO step's {rows} rollouts "
                         f"(--grpo-tasks-per-step {args.grpo_tasks_per_step} x --num-generations {args.num_generations}); "
                         f"choose one of {', '.join(str(n) for n in range(1, rows + 1) if rows % n == 0)}.")
    return rows, micro


def solvable_demonstrations(families: list[str], max_turns: int, *, progress: bool = True) -> list:
    """The oracle's demonstrations on the train tasks of ``families`` that it solves within ``max_turns``."""
    train = family_task_ids("train", families)
    if not train:
        raise SystemExit(f"No train task belongs to the families {families}; see `webarena-gym tasks families`.")
    recorded = list(record_oracle_demonstrations("train", task_ids=train, progress=progress))
    solvable = [d for d in recorded if len(d.turns) <= max_turns]
    if not solvable:
        shortest = min((len(d.turns) for d in recorded), default=None)
        raise SystemExit(f"The oracle solves none of the {len(train)} train tasks of these families within --max-turns "
                         f"{max_turns}" + (f" (its shortest episode takes {shortest} interactions)" if shortest else "")
                         + ": raise --max-turns or choose other --families.")
    return solvable


def select_tasks(families: list[str], max_turns: int, per_family: int = 0) -> tuple[list[int], list[int], list]:
    """Train and test task ids of the chosen families, and the oracle's train demonstrations.

    Only the train tasks the oracle solves within ``max_turns`` are kept, at most ``per_family``
    of each family (0: all); the test tasks are every held-out task of the families kept.
    """
    return split_demonstrations(solvable_demonstrations(families, max_turns), per_family)


def grpo_task_ids(args: argparse.Namespace, bc_ids: list[int], solvable: list) -> list[int]:
    """The train tasks GRPO draws from: BC's (``--grpo-tasks bc``) or every solvable one (``all``), less those of
    ``--grpo-skip-families``."""
    ids = bc_ids if args.grpo_tasks == "bc" else [d.task_id for d in solvable]
    skipped = set(args.grpo_skip_families)
    return [i for i in ids if family_of(i, "train").name not in skipped]


def answer_na_results(split: str, task_ids: list[int], max_turns: int) -> list:
    """Answering N/A at once on ``task_ids``, no model: what a policy that reads nothing scores there."""
    env = WebArenaEnv(suite="embedded", split=split, max_steps=max_turns)
    try:
        return run_policy(env, AnswerAtOnce("N/A"), task_ids, progress=False)
    finally:
        env.close()


def split_demonstrations(demos: list, per_family: int = 0) -> tuple[list[int], list[int], list]:
    """At most ``per_family`` demonstrations of each family (0: all): their task ids, the families' test ids, them."""
    kept: Counter = Counter()
    demos = [d for d in demos if not per_family or _count(kept, family_of(d.task_id, "train").name) <= per_family]
    train_ids = [d.task_id for d in demos]
    test_ids = family_task_ids("test", {family_of(i, "train").name for i in train_ids})
    return train_ids, test_ids, demos


def stage_gains(columns: dict[str, list], pairs: tuple[tuple[str, str], ...] = STAGE_GAINS) -> list[str]:
    """What each stage adds over the one before, task by task, with its bootstrap intervals over families and tasks."""
    found = [(f"{after} - {before}", episode_difference(columns[after], columns[before], groupings=[("families", "family")]))
             for after, before in pairs if {after, before} <= columns.keys()]
    found = [(name, difference) for name, difference in found if difference is not None]
    if not found:
        return []
    return [f"      what a stage adds, points (95% bootstrap interval resampling {format_units(found[0][1])}):",
            *(f"      {name}: {format_difference(difference)}" for name, difference in found)]


def _count(counter: Counter, key: str) -> int:
    counter[key] += 1
    return counter[key]
