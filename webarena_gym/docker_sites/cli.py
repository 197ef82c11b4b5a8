"""``webarena-gym sites up|status|configure|login|reset|env|down``.

:func:`add_sites_commands` hangs the ``sites`` tree on the ``webarena-gym`` console
script; :func:`main` runs the same commands standalone
(``python -m webarena_gym.docker_sites up shopping``). Every command returns an exit
code; errors a person can fix print one ``error:`` line that says how.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..arguments import number, whole
from ..errors import WebArenaGymError
from .deployment import Deployment
from .registry import ALIASES, SITES

SITE_CHOICES = ", ".join(list(SITES) + sorted(ALIASES))
DESCRIPTION = (
    "Run WebArena's real websites in docker: start them and wait for health, configure them "
    "once, log in and save storage states, print the WA_* exports, reset them. "
    "docker/README.md says where the images come from."
)


def _pairs(kind: str, convert: Callable[[str], Any]) -> Callable[[str], tuple[str, Any]]:
    def parse(text: str) -> tuple[str, Any]:
        name, sep, value = text.partition("=")
        if not sep or not name or not value:
            raise argparse.ArgumentTypeError(f"expected SITE={kind}, got {text!r}")
        try:
            return name, convert(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"bad {kind} in {text!r}") from None

    return parse


def _common_options() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("deployment")
    group.add_argument("--host", default="127.0.0.1", help="host name the browser uses for the sites (default 127.0.0.1)")
    group.add_argument("--prefix", default="", help="prefix for container and image names (several stacks on one engine; default: none)")
    group.add_argument("--network", default="", help="docker network of the sites (default <prefix>webarena-gym)")
    group.add_argument("--data-dir", default="", help="folder with the Wikipedia ZIM and the map checkout (default: $WEBARENA_DATA_DIR)")
    group.add_argument("--image", action="append", type=_pairs("IMAGE", str), default=[], metavar="SITE=IMAGE",
                       help="use another image for a site (repeatable; default: the registry's image)")
    group.add_argument("--port", action="append", type=_pairs("PORT", int), default=[], metavar="SITE=PORT",
                       help="publish a site on another host port (repeatable; default: WebArena's port)")
    group.add_argument("--proxy-image", default="busybox:1.36", help="image of the standby pools' front proxy")
    group.add_argument("--engine", default=None, help="docker engine URL (default $DOCKER_HOST or the local socket)")
    group.add_argument("--no-progress", action="store_true", help="no progress bars")
    return common


def build_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the ``up|status|configure|login|reset|env|down`` sub-commands to ``parser``."""
    common = _common_options()
    commands = parser.add_subparsers(dest="sites_command", metavar="COMMAND", required=True)

    def command(name: str, func: Callable[[argparse.Namespace], int], help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, parents=[common], help=help_text, description=help_text)
        sub.add_argument("sites", nargs="*", metavar="SITE", help=f"sites (default: all): {SITE_CHOICES}")
        sub.set_defaults(func=func, handler=func)  # the console script dispatches on `handler`
        return sub

    up = command("up", _cmd_up, "start the sites and wait until they answer")
    up.add_argument("--standby", type=whole(0), default=None, metavar="N",
                    help="keep N warm standby containers per site for fast resets (0: removes them; default: keep the pools that run)")
    up.add_argument("--timeout", type=number(0, above=True), default=None, help="seconds to wait per site (default: per site)")
    up.add_argument("--no-wait", action="store_true", help="do not wait for the health URLs")
    up.add_argument("--configure", action="store_true", help="run `configure` once the sites answer")

    st = command("status", _cmd_status, "show state, health, configuration and standbys")
    st.add_argument("--json", action="store_true", help="print JSON")

    cf = command("configure", _cmd_configure, "apply the one-time configuration (base URLs, password policy)")
    cf.add_argument("--timeout", type=number(0, above=True), default=None, help="seconds to wait per site (default: per site)")

    lg = command("login", _cmd_login, "log in with a browser and save storage states")
    lg.add_argument("--auth-dir", default=".auth", help="folder for the storage states (default ./.auth)")
    lg.add_argument("--force", action="store_true", help="log in again even when a saved state works")
    lg.add_argument("--no-pairs", action="store_true", help="only single-site states")

    rs = command("reset", _cmd_reset, "recreate the sites from their configured images")
    rs.add_argument("--timeout", type=number(0, above=True), default=None, help="seconds to wait per site (default: per site)")

    ev = command("env", _cmd_env, "print the WA_* exports the gym env reads, for the sites that answer")
    ev.add_argument("--auth-dir", default=".auth", help="storage state folder to export as WA_AUTH_DIR")
    ev.add_argument("--timeout", type=number(0, above=True), default=5.0,
                    help="seconds a site has to answer its health URL (default 5)")
    ev.add_argument("--no-check", action="store_true",
                    help="export every site without asking whether it answers (sites not started yet)")

    dn = command("down", _cmd_down, "remove the sites' containers")
    dn.add_argument("--images", action="store_true", help="also remove the configured images")
    return parser


def add_sites_commands(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``sites`` to a console script's subparsers; dispatch with ``args.handler(args)`` (or ``args.func``)."""
    sites = subparsers.add_parser("sites", help="run the real WebArena sites in docker", description=DESCRIPTION)
    return build_parser(sites)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a ``sites`` sub-command: ``main(["status"])``."""
    parser = build_parser(argparse.ArgumentParser(prog="python -m webarena_gym.docker_sites", description=DESCRIPTION))
    args = parser.parse_args(argv)
    return args.func(args)


def _deployment(args: argparse.Namespace) -> Deployment:
    """The deployment the options describe, its site arguments checked (before any engine is asked)."""
    deployment = Deployment(
        host=args.host,
        prefix=args.prefix,
        network=args.network,
        data_dir=args.data_dir,
        images=dict(args.image),
        ports=dict(args.port),
        proxy_image=args.proxy_image,
    )
    deployment.names(args.sites)
    return deployment


def _client(args: argparse.Namespace) -> Any:
    from .engine import connect

    return connect(args.engine)


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except WebArenaGymError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        except ModuleNotFoundError as exc:
            if exc.name != "docker":
                raise
            print("error: the docker tooling needs the docker SDK: pip install 'webarena-gym[docker]'", file=sys.stderr)
            return 1

    run.__name__ = func.__name__
    run.__doc__ = func.__doc__
    return run


@_guard
def _cmd_up(args: argparse.Namespace) -> int:
    from .lifecycle import configure, up

    deployment = _deployment(args)
    client = _client(args)
    took = up(client, deployment, args.sites, standby=args.standby, timeout=args.timeout,
              wait=not args.no_wait, progress=not args.no_progress)
    for name, seconds in took.items():
        print(f"{name}: healthy after {seconds:.1f} s at {deployment.site_url(name)}")
    if args.configure:
        _print_configured(configure(client, deployment, args.sites, timeout=args.timeout, progress=not args.no_progress))
    return 0


@_guard
def _cmd_status(args: argparse.Namespace) -> int:
    from .lifecycle import status

    deployment = _deployment(args)
    rows = status(_client(args), deployment, args.sites)
    if args.json:
        print(json.dumps([asdict(row) | {"healthy": row.healthy} for row in rows], indent=2))
        return 0
    header = ("SITE", "CONTAINER", "STATE", "HEALTH", "CONFIGURED", "STANDBY", "URL")
    table = [header] + [
        (row.site, row.container, row.state,
         "-" if row.state != "running" else ("ok" if row.healthy else f"HTTP {row.http_status or 'no answer'}"),
         row.configured, row.standby or "-", row.url)
        for row in rows
    ]
    widths = [max(len(str(line[i])) for line in table) for i in range(len(header))]
    for line in table:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())
    return 0


def _print_configured(results: list[Any]) -> None:
    for result in results:
        did = ", ".join(result.ran) if result.ran else "already configured"
        extra = f"; saved as {result.committed}" if result.committed else ""
        print(f"{result.site}: {did}{extra}")


@_guard
def _cmd_configure(args: argparse.Namespace) -> int:
    from .lifecycle import configure

    deployment = _deployment(args)
    _print_configured(configure(_client(args), deployment, args.sites, timeout=args.timeout,
                                progress=not args.no_progress))
    return 0


@_guard
def _cmd_login(args: argparse.Namespace) -> int:
    from .login_states import login

    paths = login(_deployment(args), args.sites, auth_dir=args.auth_dir, pairs=not args.no_pairs,
                  force=args.force, progress=not args.no_progress)
    for path in paths:
        print(f"saved {path}")
    if not paths:
        print("none of these sites has a login form")
    return 0


@_guard
def _cmd_reset(args: argparse.Namespace) -> int:
    from .lifecycle import reset

    deployment = _deployment(args)
    for name, seconds in reset(_client(args), deployment, args.sites, timeout=args.timeout,
                               progress=not args.no_progress).items():
        print(f"{name}: reset in {seconds:.1f} s")
    return 0


@_guard
def _cmd_env(args: argparse.Namespace) -> int:
    """Print the exports of the sites that answer their health URL; say on stderr which were left out and why."""
    from .health import describe_status, is_healthy, probe_all

    deployment = _deployment(args)
    names = deployment.names(args.sites)
    if not args.no_check:
        health_urls = {name: deployment.base_url(name) + deployment.site(name).health_path for name in names}
        answers = probe_all(health_urls, timeout=args.timeout)
        left_out = [name for name in names if not is_healthy(answers[name])]
        for name in left_out:
            print(f"left out {deployment.site(name).env_var} ({name}): {health_urls[name]} "
                  f"{describe_status(answers[name])}", file=sys.stderr)
        if len(left_out) == len(names):
            print(f"error: none of the sites {', '.join(names)} answers at {deployment.host}, so there is nothing "
                  "to export. Start them with `webarena-gym sites up` (`webarena-gym sites status` shows what "
                  "runs), pass the --host and --port they use, or --no-check to print the exports anyway.",
                  file=sys.stderr)
            return 1
        if left_out:
            print(f"note: the env runs only the tasks of the sites exported; `webarena-gym sites up "
                  f"{' '.join(left_out)}` starts the others.", file=sys.stderr)
        names = [name for name in names if name not in left_out]
    for key, value in deployment.exports(names).items():
        print(f"export {key}={shlex.quote(value)}")
    print(f"export WA_AUTH_DIR={shlex.quote(str(Path(args.auth_dir).resolve()))}")
    return 0


@_guard
def _cmd_down(args: argparse.Namespace) -> int:
    from .lifecycle import down

    deployment = _deployment(args)
    removed = down(_client(args), deployment, args.sites, images=args.images)
    print("removed " + ", ".join(removed) if removed else "nothing to remove")
    return 0
