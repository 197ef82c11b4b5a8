"""``webarena-gym eval`` and ``webarena-gym report``: evaluate any model, render a run as HTML.

    webarena-gym eval --model runs/grpo                                  a local transformers model
    webarena-gym eval --endpoint http://127.0.0.1:8000/v1 --model NAME   any OpenAI-compatible server
    webarena-gym report runs/eval/NAME.jsonl -o report.html              one self-contained HTML file
    webarena-gym report before.jsonl after.jsonl -o compare.html         two runs side by side

The local path is reached by name (``trainers.policy``) only when no ``--endpoint`` is
given, so the command line needs neither torch nor transformers for endpoints and reports.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import re
import shlex
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .arguments import whole
from .backends import BACKENDS
from .errors import ConfigurationError
from .settings import (
    DEFAULT_KEEP_LAST,
    DEFAULT_MAX_CHARS,
    DEFAULT_MAX_STEPS,
    EVALUATION_MAX_STEPS,
    RenamedFlag,
)
from .suites import SPLITS, SUITES

logger = logging.getLogger(__name__)
#: The help of ``--max-steps`` on ``eval`` and ``baseline``: their default is not the env's.
MAX_STEPS_HELP = (f"interactions per episode (default: {EVALUATION_MAX_STEPS}, the evaluation budget; "
                  f"the env's default is {DEFAULT_MAX_STEPS}, the training budget)")


def add_eval_commands(commands: Any) -> None:
    """Add ``eval`` and ``report`` to the ``webarena-gym`` sub-command parser."""
    run = commands.add_parser(
        "eval", help="evaluate a local model or an OpenAI-compatible endpoint: success per site, resumable run file",
        description="Play one episode per task with a model and write every episode to a run file (JSONL). "
                    "Running the same command again resumes: finished task ids are skipped.",
    )
    run.add_argument("--model", required=True, help="a local model directory or hub id; with --endpoint, the "
                                                     "model name the endpoint serves")
    run.add_argument("--endpoint", help="base URL of an OpenAI-compatible chat-completions API, e.g. "
                                        "http://127.0.0.1:8000/v1 (vLLM, TGI, llama.cpp) or https://api.openai.com/v1 "
                                        "(default: none, a local model)")
    run.add_argument("--api-key", help="API key (default: $OPENAI_API_KEY; local servers need none)")
    run.add_argument("--suite", choices=SUITES, default=None,
                     help="default: webarena-lite when the WA_* variables are set, else embedded")
    run.add_argument("--split", choices=(*SPLITS, "all", "hard", "lite"), default="test",
                     help="task split (default: test; webarena-verified: test or all, hard, lite)")
    run.add_argument("--backend", choices=BACKENDS, default=None,
                     help="default: direct for the embedded suite, playwright for the real sites")
    run.add_argument("--task-ids", type=int, nargs="+", help="only these tasks (default: all of the split)")
    run.add_argument("--limit", type=int, help="only the first N tasks (default: all)")
    run.add_argument("--max-steps", type=int, default=EVALUATION_MAX_STEPS, help=MAX_STEPS_HELP)
    run.add_argument("--max-chars", "--max-observation-chars", dest="max_observation_chars", type=int,
                     default=DEFAULT_MAX_CHARS, action=RenamedFlag,
                     help="character budget of one page (--max-observation-chars: its former name)")
    run.add_argument("--thinking", action="store_true", help="<think>...</think><answer>...</answer> format")
    run.add_argument("--keep-last", type=int, default=DEFAULT_KEEP_LAST,
                     help="past observations kept in full in the context (0: only the current one)")
    run.add_argument("--task-after-page", action="store_true",
                     help="the task after the page on every turn (WebArena's prompt layout), as in training")
    run.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (0: greedy decoding)")
    run.add_argument("--max-tokens", type=int, default=1024, help="token limit of one answer")
    run.add_argument("--top-p", type=float, default=None, help="nucleus sampling mass (endpoint; default: the server's)")
    run.add_argument("--seed", type=int, default=None, help="sampling seed (default: none, unseeded)")
    run.add_argument("--episodes-in-flight", type=int, default=8, help="episodes played at once")
    run.add_argument("--env-workers", type=int, default=None,
                     help="env worker processes (default: for the direct backend with two or more episodes in "
                          "flight and more than one core, one per core, at most one per episode; else 0: the envs "
                          "stay in this process, stepped on threads)")
    run.add_argument("--env-executor", choices=("process", "ray"), default="process",
                     help="where the env workers run: processes on this machine, or Ray actors across a cluster "
                          "(the `ray` extra; --env-workers actors)")
    run.add_argument("--ray-address", default=None,
                     help="Ray cluster to join with --env-executor ray (host:port or auto; default: the running one, "
                          "else a local one)")
    run.add_argument("--ray-num-cpus", type=float, default=1.0, help="CPUs each Ray env worker asks for")
    run.add_argument("--ray-resources", type=json.loads, default=None,
                     help='custom resources each Ray env worker asks for, as JSON, e.g. \'{"browser": 1}\' '
                          "(default: none, only CPUs)")
    run.add_argument("--threads", type=whole(0), default=0,
                     help="local model: torch CPU threads (0: torch's default, one per core; fewer is faster "
                          "when other work keeps cores busy)")
    run.add_argument("--timeout", type=float, default=120.0, help="endpoint: seconds per request before a retry")
    run.add_argument("--retries", type=int, default=6, help="endpoint: retries on rate limits, timeouts, 5xx")
    run.add_argument("--backoff", type=float, default=1.0, help="endpoint: first retry delay in seconds (doubles)")
    run.add_argument("-o", "--out", help="run file (default: runs/eval/<model>.<suite>.<split>.jsonl)")
    run.add_argument("--fresh", action="store_true", help="start the run file afresh instead of resuming it")
    run.add_argument("--record-screenshots", action="store_true",
                     help="a screenshot per step in the run file (Playwright; implies --backend playwright)")
    run.add_argument("--no-observations", action="store_true", help="leave page texts out of the run file")
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    run.set_defaults(handler=run_eval)

    report = commands.add_parser("report", help="render run files as one self-contained HTML report",
                                 description="One run: summary and every episode. Two runs (before/after): "
                                             "the same plus a per-task comparison.")
    report.add_argument("runs", nargs="+", help="one or two run files (JSONL from `webarena-gym eval`)")
    report.add_argument("-o", "--out", default="report.html", help="HTML file to write")
    report.add_argument("--title", default=None, help="page title (default: webarena-gym: and the runs' labels)")
    report.add_argument("--labels", nargs="+", default=None, help="a name per run (default: its model or file name)")
    report.add_argument("--observation-chars", type=int, default=None,
                        help="cut each page text to this many characters (default: whole)")
    report.set_defaults(handler=run_report)


def run_eval(args: argparse.Namespace) -> int:
    from .evaluation import RunWriter, format_success_table, make_agent_envs, run_evaluation
    from .suites import resolve_suite

    _check_options(args)
    suite = resolve_suite(args.suite)
    backend = args.backend or ("playwright" if args.record_screenshots or suite != "embedded" else "direct")
    policy = _make_policy(args)
    if args.endpoint:
        policy.check_server()
    env_kwargs = dict(suite=suite, split=args.split, backend=backend, max_steps=args.max_steps,
                      max_chars=args.max_observation_chars, record_screenshots=args.record_screenshots)
    context = {"thinking": args.thinking, "keep_last": args.keep_last, "task_after_page": args.task_after_page}
    settings = {**policy.describe(), "suite": suite, "split": args.split, "backend": backend,
                "max_steps": args.max_steps, "max_observation_chars": args.max_observation_chars,
                "thinking": args.thinking, "keep_last": args.keep_last,
                # only when set, so that run files written before the option resume as they were
                **({"task_after_page": True} if args.task_after_page else {})}
    out = Path(args.out or Path("runs/eval") / f"{_slug(settings['model'])}.{suite}.{args.split}.jsonl")
    try:
        # No more envs than episodes can be in flight at once.
        wanted = len(set(args.task_ids)) if args.task_ids else args.limit or args.episodes_in_flight
        with make_agent_envs(min(args.episodes_in_flight, wanted), workers=args.env_workers, **context,
                             **env_kwargs, **executor_kwargs(args)) as envs:
            task_ids = _select(args, envs.task_ids)
            with RunWriter(out, settings, resume=not args.fresh) as writer:
                resumed = sum(t in writer.finished for t in task_ids)
                if resumed:
                    print(f"Resuming {out}: {resumed} of {len(task_ids)} tasks already done.")
                try:
                    results = run_evaluation(envs, policy, task_ids, writer=writer,
                                             record_observations=not args.no_observations,
                                             progress=not args.no_progress, desc=_slug(settings["model"])[:24])
                except KeyboardInterrupt:
                    # Said before the envs and the policy shut down (that may wait for requests in flight).
                    print(interrupted_message(out, writer, task_ids, resumed, getattr(args, "argv", None)),
                          file=sys.stderr, flush=True)
                    raise
    finally:
        close = getattr(policy, "close", None)
        if close is not None:
            close()
    print(f"Success rate, {suite} {args.split} split, at most {args.max_steps} interactions:")
    print(format_success_table({settings["model"][-22:]: results}))
    print(f"Trajectories: {out} ({len(results)} episodes). HTML: webarena-gym report {out} -o report.html")
    return 0


def interrupted_message(out: Path, writer: Any, task_ids: list[int], resumed: int, argv: list[str] | None) -> str:
    """What an interrupted ``eval`` says: the episodes saved, where, and the command that resumes the run."""
    saved = sum(t in writer.finished for t in task_ids)
    command = resume_command(argv) if argv is not None else "the same command (without --fresh)"
    return (f"\nInterrupted. {saved} of {len(task_ids)} episodes are saved in {out} ({saved - resumed} from this "
            f"session); the episodes in flight were dropped. Resume with:\n  {command}")


def resume_command(argv: list[str]) -> str:
    """The ``webarena-gym`` command line that resumes a run: ``argv`` without ``--fresh``, the API key hidden.

    >>> resume_command(["eval", "--model", "m", "--fresh", "--api-key", "sk-1", "--out", "my run.jsonl"])
    "webarena-gym eval --model m --api-key '<API key>' --out 'my run.jsonl'"
    """
    def names(word: str, option: str) -> bool:  # argparse takes any unambiguous prefix of an option
        return len(word) > 2 and word.startswith("--") and option.startswith(word)

    words, hide_next = [], False
    for word in argv:
        name, equals, _value = word.partition("=")
        if hide_next:
            words.append("<API key>")
        elif names(word, "--fresh"):
            continue
        elif names(name, "--api-key"):
            words.append(f"{name}=<API key>" if equals else word)
        else:
            words.append(word)
        hide_next = names(word, "--api-key") and not hide_next
    return shlex.join(["webarena-gym", *words])


def executor_kwargs(args: Any) -> dict[str, Any]:
    """The vector env's executor keyword arguments of ``--env-executor`` and the ``--ray-*`` options (none for processes)."""
    if getattr(args, "env_executor", "process") != "ray":
        return {}
    return {"executor": "ray", "ray_address": args.ray_address, "ray_num_cpus": args.ray_num_cpus,
            "ray_resources": args.ray_resources}


def _check_options(args: argparse.Namespace) -> None:
    for name in ("max_tokens", "episodes_in_flight", "max_steps"):
        if getattr(args, name) < 1:
            raise ConfigurationError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}.")
    if args.limit is not None and args.limit < 1:
        raise ConfigurationError(f"--limit must be a positive number of tasks, got {args.limit}.")
    if args.env_workers is not None and args.env_workers < 0:
        raise ConfigurationError(f"--env-workers must be 0 (this process) or more, got {args.env_workers}.")
    from .evaluation.chat_completions import check_settings

    # Sampling and endpoint settings by the rules the endpoint policy applies, named as flags.
    flags = {"temperature": "--temperature", "top_p": "--top-p", "timeout": "--timeout", "max_retries": "--retries",
             "backoff": "--backoff"}
    check_settings(flags, temperature=args.temperature, top_p=args.top_p, timeout=args.timeout,
                   max_retries=args.retries, backoff=args.backoff)
    if args.endpoint is not None:
        url = urlsplit(args.endpoint)
        if url.scheme not in ("http", "https") or not url.netloc:
            raise ConfigurationError(f"--endpoint must be an http(s) URL such as http://127.0.0.1:8000/v1, "
                                     f"got {args.endpoint!r}.")


def _make_policy(args: argparse.Namespace) -> Any:
    if args.endpoint:
        from .evaluation.chat_completions import ChatCompletionsPolicy

        return ChatCompletionsPolicy(
            args.model, base_url=args.endpoint, api_key=args.api_key, temperature=args.temperature,
            max_tokens=args.max_tokens, top_p=args.top_p, seed=args.seed, timeout=args.timeout,
            max_retries=args.retries, backoff=args.backoff, concurrency=args.episodes_in_flight,
        )
    try:
        local = importlib.import_module("trainers.policy")
        transformers = importlib.import_module("transformers")
    except ImportError as exc:
        raise ConfigurationError(
            f"Evaluating a local model needs the train extra ({exc}): pip install 'webarena-gym[train]'. "
            "For a model behind a server, pass --endpoint URL."
        ) from None
    if args.model.startswith(("/", ".", "~")) and not Path(args.model).expanduser().is_dir():
        # A path, not a hub id: say so rather than pass on the hub client's complaint about repo ids.
        raise ConfigurationError(f"No model directory at {args.model!r}: pass a saved model's folder or a hub id")
    if args.seed is not None:
        transformers.set_seed(args.seed)
    importlib.import_module("trainers.cpu").set_cpu_threads(args.threads)
    importlib.import_module("trainers.agent_record").warn_about_agent_settings(
        args.model, {"max_observation_chars": args.max_observation_chars, "thinking": args.thinking,
                     "keep_last_observations": args.keep_last, "task_after_page": args.task_after_page},
        flags={"max_observation_chars": "--max-chars", "keep_last_observations": "--keep-last",
               "task_after_page": "--task-after-page"})
    try:
        return local.LocalModelPolicy.from_pretrained(args.model, max_new_tokens=args.max_tokens,
                                                      temperature=args.temperature, batch_size=args.episodes_in_flight)
    except (OSError, ValueError) as exc:
        where = "" if Path(args.model).expanduser().exists() else " (no directory of that name here: tried as a hub id)"
        raise ConfigurationError(f"Could not load the model {args.model!r}{where}: {exc}") from None


def _select(args: argparse.Namespace, available: list[int]) -> list[int]:
    if args.task_ids:
        missing = sorted(set(args.task_ids) - set(available))
        if missing:
            raise ConfigurationError(
                f"No task {missing[0]} in this suite and split ({len(available)} tasks); "
                "`webarena-gym tasks list` prints the ids."
            )
        available = [t for t in available if t in set(args.task_ids)]
    if args.limit is not None:
        available = available[: args.limit]
    return available


def _slug(name: str) -> str:
    """A file-name-safe short form of a model name or path.

    >>> _slug("Qwen/Qwen2.5-3B-Instruct")
    'Qwen2.5-3B-Instruct'
    """
    tail = str(name).rstrip("/").split("/")[-1] or "model"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", tail)[:80]


def run_report(args: argparse.Namespace) -> int:
    from .evaluation import read_run
    from .report import write_report

    if len(args.runs) > 2:
        raise ConfigurationError(f"A report shows one run or compares two; got {len(args.runs)} files.")
    runs = [read_run(path) for path in args.runs]  # warns of each file's bad lines
    path = write_report(runs, args.out, title=args.title, observation_chars=args.observation_chars,
                        labels=args.labels)
    print(f"Wrote {path} ({path.stat().st_size / 1e6:.1f} MB, {sum(len(r.episodes) for r in runs)} episodes)")
    return 0
