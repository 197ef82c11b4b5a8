"""The ``webarena-gym`` command line.

    webarena-gym serve [--ephemeral]                  serve the embedded sites on WebArena's ports
    webarena-gym tasks list --suite embedded --split test
    webarena-gym tasks show ID
    webarena-gym tasks families                       the embedded task families (--families of the training scripts)
    webarena-gym demos --split train --out demos.jsonl
    webarena-gym baseline                             oracle, random agent and answering N/A, success per site
    webarena-gym eval --model PATH | --endpoint URL --model NAME   evaluate a model (resumable run file)
    webarena-gym report RUN.jsonl [RUN2.jsonl] -o report.html      a run (or two, compared) as HTML
    webarena-gym sites up|status|configure|login|reset|env   the real sites in docker
    webarena-gym serve-env --port 8000                the env as an OpenEnv server (extra: openenv)
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections.abc import Sequence

from .backends import BACKENDS
from .env import DEFAULT_MAX_STEPS
from .errors import ConfigurationError, user_error_message
from .eval_commands import EVALUATION_MAX_STEPS, MAX_STEPS_HELP
from .suites import SPLITS, SUITES


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    args.argv = argv  # what `eval` prints as the command that resumes an interrupted run
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if not hasattr(args, "handler"):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        message = user_error_message(exc)
        if message is None:  # a defect, to show in full
            raise
        print(f"error: {message}", file=sys.stderr)
        return 1


class DefaultsHelpFormatter(argparse.HelpFormatter):
    """Appends ``(default: X)`` to an option's help unless the help already states its default.

    Options whose default is empty (None, False, "", []) say in their own words what happens
    without them; ``tests/test_cli.py`` checks that every option of every command does.
    """

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or not action.option_strings or action.nargs == 0:
            return text
        if action.default is None or action.default is False or action.default in ("", [], argparse.SUPPRESS):
            return text
        return f"{text} (default: %(default)s)"


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(prog="webarena-gym", description="Gymnasium web environments for WebArena-Lite.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help="print the version and exit")
    commands = parser.add_subparsers(title="commands")

    serve = commands.add_parser("serve", help="serve the embedded sites over HTTP")
    serve.add_argument("--host", default="127.0.0.1", help="interface to bind (default: loopback)")
    serve.add_argument("--ephemeral", action="store_true", help="pick free ports instead of WebArena's")
    serve.add_argument("--sites", nargs="+", help="only these sites (default: all)")
    serve.set_defaults(handler=_serve)

    tasks = commands.add_parser("tasks", help="list or show tasks")
    task_commands = tasks.add_subparsers(title="tasks commands", dest="tasks_command", metavar="COMMAND", required=True)
    listing = task_commands.add_parser("list", help="one task per line: id, sites, intent")
    listing.add_argument("--suite", default="embedded", choices=SUITES, help="task suite")
    listing.add_argument("--split", default="test", choices=(*SPLITS, "all", "hard", "lite"),
                         help="task split (default: test; webarena-verified: test or all, hard, lite)")
    listing.set_defaults(handler=_tasks_list)
    stats = task_commands.add_parser("stats", help="task counts per site and evaluator")
    stats.add_argument("--suite", default="embedded", choices=SUITES, help="task suite")
    stats.set_defaults(handler=_tasks_stats)
    families = task_commands.add_parser("families", help="the embedded suite's task families (--families of the "
                                        "training scripts): name, kind, test and train tasks, intent template")
    families.set_defaults(handler=_tasks_families)
    show = task_commands.add_parser("show", help="one task as JSON")
    show.add_argument("task_id", type=int, help="the task's id (`tasks list` prints them)")
    show.add_argument("--suite", default="embedded", choices=SUITES, help="task suite")
    show.add_argument("--split", default=None, choices=SPLITS, help="default: search both")
    show.set_defaults(handler=_tasks_show)

    demos = commands.add_parser("demos", help="record oracle demonstrations (JSONL) for behaviour cloning")
    demos.add_argument("--split", default="train", choices=SPLITS, help="task split")
    demos.add_argument("-o", "--out", required=True, help="output JSONL path")
    demos.add_argument("--backend", default="direct", choices=BACKENDS, help="how pages are served")
    demos.add_argument("--limit", type=int, default=None, help="only the first N tasks (default: all)")
    demos.set_defaults(handler=_demos)

    baseline = commands.add_parser("baseline", help="oracle, random agent and answering N/A at once on the embedded suite, success per site")
    baseline.add_argument("--split", default="test", choices=SPLITS, help="task split")
    baseline.add_argument("--backend", default="direct", choices=BACKENDS, help="how pages are served")
    baseline.add_argument("--max-steps", type=int, default=EVALUATION_MAX_STEPS, help=MAX_STEPS_HELP)
    baseline.set_defaults(handler=_baseline)

    _add_serve_env_command(commands)
    from .eval_commands import add_eval_commands

    add_eval_commands(commands)

    try:
        from .docker_sites.cli import add_sites_commands
    except ImportError:  # pragma: no cover - the docker tooling is part of the package
        add_sites_commands = None
    if add_sites_commands is not None:
        add_sites_commands(commands)
    _finish_commands(parser)
    return parser


def _finish_commands(parser: argparse.ArgumentParser) -> None:
    """Every command (at any depth) shows its options' defaults and takes ``-v`` after its name too."""
    parser.formatter_class = DefaultsHelpFormatter
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        for command in dict.fromkeys(action.choices.values()):  # an alias maps to its command again
            if "--verbose" not in command._option_string_actions:
                # SUPPRESS: absent after the command, the value given before it (or False) stands.
                command.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                                     help="log progress details (also accepted before the command)")
            _finish_commands(command)


def _serve(args: argparse.Namespace) -> int:
    from .sites.server import SiteServer

    server = SiteServer(sites=args.sites, host=args.host, ephemeral=args.ephemeral).start()
    for name, url in server.base_urls.items():
        print(f"{name:<16} {url}")
    print("Serving; Ctrl-C stops.", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        server.stop()


def _add_serve_env_command(commands) -> None:
    serve_env = commands.add_parser("serve-env", help="serve the env over OpenEnv's HTTP/WebSocket API (extra: openenv)",
                                    description="One world per session; HTTP /reset returns an episode_id for /step.")
    serve_env.add_argument("--host", default="127.0.0.1", help="interface to bind (default: loopback)")
    serve_env.add_argument("--port", type=int, default=8000, help="port to listen on")
    serve_env.add_argument("--max-sessions", type=int, default=8, help="concurrent sessions (each has its own world)")
    serve_env.add_argument("--suite", default="embedded", choices=SUITES, help="task suite")
    serve_env.add_argument("--split", default="test", choices=SPLITS, help="task split")
    serve_env.add_argument("--backend", default=None, choices=BACKENDS,
                           help="how pages are served (default: direct for the embedded suite, playwright for the "
                                "real sites)")
    serve_env.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS,
                           help="step limit of an episode (default: %(default)s, the env's training budget)")
    serve_env.set_defaults(handler=_serve_env)


def _serve_env(args: argparse.Namespace) -> int:
    try:
        from .integrations.openenv import serve
    except ModuleNotFoundError as exc:
        print(f"error: serve-env needs OpenEnv ({exc.name} is missing): pip install 'webarena-gym[openenv]'",
              file=sys.stderr)
        return 1
    serve(args.host, args.port, max_sessions=args.max_sessions, suite=args.suite, split=args.split,
          backend=args.backend, max_steps=args.max_steps,
          announce=f"Serving the {args.suite} {args.split} tasks on http://{args.host}:{args.port} "
                   "(OpenEnv: /ws, /reset, /step, /state, /schema); Ctrl-C stops.")
    return 0


def _load(suite: str, split: str):
    from .suites.loading import load_tasks

    if suite == "embedded":
        from .sites.spec import SITE_MODULES, default_base_url

        urls = {name: default_base_url(name) for name in SITE_MODULES}
    else:
        from .webarena_sites import site_urls_from_environment

        urls = site_urls_from_environment()
    return load_tasks(suite, split, site_urls=urls)


def _tasks_list(args: argparse.Namespace) -> int:
    for task in _load(args.suite, args.split):
        print(f"{task.task_id}\t{','.join(task.sites)}\t{task.intent}")
    return 0


def _tasks_stats(args: argparse.Namespace) -> int:
    from collections import Counter

    from .webarena_sites import site_group

    columns = ["string_match", "url_match", "program_html", "N/A"]
    print(f"{'split':<6}{'site':<16}{'tasks':>6}" + "".join(f"{c:>14}" for c in columns))
    for split in SPLITS:
        tasks = _load(args.suite, split)
        groups: dict[str, list] = {}
        for task in tasks:
            groups.setdefault(site_group(task.sites), []).append(task)
        for site, members in sorted(groups.items()) + [("all", tasks)]:
            kinds = Counter(kind for t in members for kind in t.eval.eval_types)
            kinds["N/A"] = sum(1 for t in members if t.eval.reference_answers and t.eval.reference_answers.unachievable)
            print(f"{split:<6}{site:<16}{len(members):>6}" + "".join(f"{kinds[c]:>14}" for c in columns))
    return 0


def _tasks_families(args: argparse.Namespace) -> int:
    from collections import Counter

    from .suites.embedded import all_families, embedded_tasks, family_of

    counts = {split: Counter(family_of(task.task_id, split).name for task in embedded_tasks(split)) for split in SPLITS}
    families = all_families()
    width = max(len(family.name) for family in families)
    print(f"{'family':<{width}}  {'kind':<11}{'test':>5}{'train':>6}  intent template")
    for family in families:
        print(f"{family.name:<{width}}  {family.kind:<11}{counts['test'][family.name]:>5}{counts['train'][family.name]:>6}"
              f"  {family.intent_template}")
    print(f"{len(families)} families; pass names to the training scripts' --families.")
    return 0


def _tasks_show(args: argparse.Namespace) -> int:
    from .errors import UnknownTaskError

    for split in [args.split] if args.split else SPLITS:
        for task in _load(args.suite, split):
            if task.task_id == args.task_id:
                print(json.dumps(task.to_dict(), indent=2, ensure_ascii=False))
                return 0
    raise UnknownTaskError(f"No task {args.task_id} in the {args.suite} suite; `webarena-gym tasks list` shows the ids.")


def _demos(args: argparse.Namespace) -> int:
    from .demos import record_oracle_demonstrations, write_demonstrations
    from .suites.embedded import embedded_tasks

    if args.limit is not None and args.limit < 1:
        raise ConfigurationError(f"--limit must be a positive number of tasks, got {args.limit}.")
    ids = [t.task_id for t in embedded_tasks(args.split)][: args.limit]
    count = write_demonstrations(record_oracle_demonstrations(args.split, task_ids=ids, backend=args.backend), args.out)
    print(f"Wrote {count} demonstrations to {args.out}")
    return 0


def _baseline(args: argparse.Namespace) -> int:
    from .env import WebArenaEnv
    from .evaluation import AnswerAtOnce, RandomPolicy, format_success_table, run_oracle_suite, run_policy

    env = WebArenaEnv(suite="embedded", split=args.split, backend=args.backend, max_steps=args.max_steps)
    try:
        ids = [t.task_id for t in env.tasks]
        oracle = run_oracle_suite(env, ids, args.split)
        random_agent = run_policy(env, RandomPolicy(seed=0), ids, desc="random agent")
        answer_na = run_policy(env, AnswerAtOnce("N/A"), ids, desc="answer N/A")
    finally:
        env.close()
    print(format_success_table({"oracle": oracle, "random agent": random_agent, "answer N/A": answer_na}))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
