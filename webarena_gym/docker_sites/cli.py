"""``webarena-gym sites up|status|configure|login|reset|env|down|list``.

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
from ..errors import ConfigurationError, WebArenaGymError
from .deployment import Deployment
from .registry import ALIASES, IMAGE_SETS, SITES, image_set_sites

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
    group.add_argument("--image-set", choices=IMAGE_SETS, default="webarena",
                       help="webarena: WebArena's images (default); verified: WebArena-Verified's smaller images, "
                            "with their env-control endpoints (needs the verified extra)")
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
    _replica_options(up)
    up.add_argument("--auth-dir", default="", help="with --replicas: log each replica in, saving its states in "
                    "AUTH_DIR/<site>-<i> (default: no login)")

    ls = command("lease-service", _cmd_lease_service,
                 "run replicas (as `up --replicas`) and serve leases on them until interrupted (WA_LEASES)")
    _replica_options(ls, required=True)
    ls.add_argument("--listen", default="0.0.0.0:7700", metavar="HOST:PORT",
                    help="where the service listens (default 0.0.0.0:7700: env workers on other machines reach it)")
    ls.add_argument("--standby", type=whole(0), default=1, metavar="N",
                    help="warm standbys per replica: a dirty replica is swapped for one in about a second (default 1)")
    ls.add_argument("--auth-dir", default="", help="log replicas in (again after each recycle) and hand their states "
                    "out with the leases (default: no login)")
    ls.add_argument("--timeout", type=number(0, above=True), default=None, help="seconds to wait per site (default: per site)")

    st = command("status", _cmd_status, "show state, health, configuration and standbys (and every replica)")
    st.add_argument("--json", action="store_true", help="print JSON")
    st.add_argument("--leases", default=None, metavar="URL",
                    help="lease service to ask who holds each replica (default $WA_LEASES)")
    st.add_argument("--replica-port-step", type=whole(1), default=None, metavar="N",
                    help="port distance between replicas, as given to `up --replicas` (default 1000)")

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

    dn = command("down", _cmd_down, "remove the sites' containers (their replicas too)")
    dn.add_argument("--replica-port-step", type=whole(1), default=None, metavar="N", help=argparse.SUPPRESS)
    dn.add_argument("--images", action="store_true", help="also remove the configured images")

    li = command("list", _cmd_list, "show the sites of the image set: image, ports, env-control endpoint, health URL, "
                 "disk (asks no docker engine)")
    li.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _replica_options(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    parser.add_argument("--replicas", action="append", default=[], required=required, metavar="SITE=N[,SITE=N]",
                        help="run N independent copies of a site, each on its own port (the site's port + i * step), "
                             "for rollouts that write; N alone: every selected site (default: no replicas, one container "
                             "per site)")
    parser.add_argument("--replica-port-step", type=whole(1), default=None, metavar="N",
                        help="port distance between a site's replicas (default 1000)")


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
        sites=image_set_sites(args.image_set),
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


def _replica_counts(args: argparse.Namespace, deployment: Deployment) -> dict[str, int]:
    from .replicas import parse_counts

    counts = parse_counts(args.replicas, deployment.names(args.sites))
    return {deployment.names([name])[0]: count for name, count in counts.items()}


def _port_step(args: argparse.Namespace) -> int:
    from .replicas import PORT_STEP

    return args.replica_port_step or PORT_STEP


def _replicas_up(args: argparse.Namespace, deployment: Deployment, client: Any, standby: int) -> dict[str, list[str]]:
    from .replicas import replicas_up

    urls = replicas_up(client, deployment, _replica_counts(args, deployment), standby=standby,
                       port_step=_port_step(args), auth_dir=args.auth_dir or None, timeout=args.timeout,
                       progress=not args.no_progress)
    for name, site_urls in urls.items():
        for index, url in enumerate(site_urls, start=1):
            print(f"{name}-{index}: healthy and configured at {url}")
    return urls


@_guard
def _cmd_up(args: argparse.Namespace) -> int:
    from .lifecycle import configure, up

    deployment = _deployment(args)
    client = _client(args)
    if args.replicas:
        _replicas_up(args, deployment, client, standby=args.standby or 0)
        print("Serve leases on them with `webarena-gym sites lease-service --replicas ...` (the same options).")
        return 0
    took = up(client, deployment, args.sites, standby=args.standby, timeout=args.timeout,
              wait=not args.no_wait, progress=not args.no_progress)
    if args.standby and any(deployment.env_ctrl_url(name) for name in deployment.names(args.sites)):
        print("note: behind a standby pool's front proxy only the site's port is published, not the images' "
              "env-control endpoints: make the env with reset_sites=False and reset with `webarena-gym sites reset`.",
              file=sys.stderr)
    for name, seconds in took.items():
        print(f"{name}: healthy after {seconds:.1f} s at {deployment.site_url(name)}")
    if args.configure:
        _print_configured(configure(client, deployment, args.sites, timeout=args.timeout, progress=not args.no_progress))
    return 0


@_guard
def _cmd_lease_service(args: argparse.Namespace) -> int:
    from .lease_service import docker_lease_service

    deployment = _deployment(args)
    host, _, port = args.listen.rpartition(":")
    if not host or not port.isdigit():
        raise ConfigurationError(f"--listen takes HOST:PORT such as 0.0.0.0:7700, got {args.listen!r}.")
    urls = _replicas_up(args, deployment, _client(args), standby=args.standby)
    service = docker_lease_service(deployment, {name: len(site_urls) for name, site_urls in urls.items()},
                                   host=host, port=int(port), port_step=_port_step(args), auth_dir=args.auth_dir,
                                   engine=args.engine, timeout=args.timeout)
    print(f"export WA_LEASES=http://{deployment.host}:{service.url.rsplit(':', 1)[1]}", flush=True)
    try:
        service.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def _print_table(table: list[tuple[Any, ...]]) -> None:
    widths = [max(len(str(line[i])) for line in table) for i in range(len(table[0]))]
    for line in table:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())


def _replica_rows(args: argparse.Namespace, deployment: Deployment, client: Any) -> list[dict[str, Any]]:
    """Every replica: the docker side, and the lease service's side when one is named."""
    import os
    import time

    from .replicas import replica_status

    rows = [{"replica": f"{row.site}-{index}", "container": row.container, "docker": row.state,
             "health": "ok" if row.healthy else f"HTTP {row.http_status or 'no answer'}", "standby": row.standby or "-",
             "url": row.url, "state": "?", "holders": "-", "since": "-"}
            for index, row in replica_status(client, deployment, args.sites, port_step=_port_step(args))]
    url = args.leases or os.environ.get("WA_LEASES")
    if url:
        from ..backends.site_leases import LeaseClient

        by_name = {row["replica"]: row for row in rows}
        for lease_row in LeaseClient(url).status():
            row = by_name.setdefault(lease_row["replica"], {"replica": lease_row["replica"], "container": "-",
                                                             "docker": "-", "health": "-", "standby": "-",
                                                             "url": lease_row["url"]})
            since = time.strftime("%H:%M:%S", time.localtime(time.time() - lease_row["for_s"]))
            row.update(state=lease_row["state"], holders=", ".join(lease_row["holders"]) or "-",
                       since=f"{since} ({lease_row['for_s']:.0f} s)")
        rows = list(by_name.values())
    return rows


@_guard
def _cmd_status(args: argparse.Namespace) -> int:
    from .lifecycle import status

    deployment = _deployment(args)
    client = _client(args)
    rows = status(client, deployment, args.sites)
    replica_rows = _replica_rows(args, deployment, client)
    if args.json:
        print(json.dumps([asdict(row) | {"healthy": row.healthy} for row in rows] + replica_rows, indent=2))
        return 0
    if replica_rows:
        keys = ("replica", "state", "holders", "since", "docker", "health", "standby", "url")
        _print_table([tuple(key.upper() for key in keys)] + [tuple(row[key] for key in keys) for row in replica_rows])
        print()
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
    from .replicas import replicas_down

    deployment = _deployment(args)
    client = _client(args)
    removed = down(client, deployment, args.sites, images=args.images)
    removed += replicas_down(client, deployment, args.sites, images=args.images, port_step=_port_step(args))
    print("removed " + ", ".join(removed) if removed else "nothing to remove")
    return 0


@_guard
def _cmd_list(args: argparse.Namespace) -> int:
    """The plan of ``up`` for these options: what each site runs from and where it answers."""
    deployment = _deployment(args)
    rows = []
    for name in deployment.names(args.sites):
        site = deployment.site(name)
        rows.append({"site": name, "container": deployment.container_name(name), "image": site.image,
                     "url": deployment.site_url(name), "port": f"{site.host_port}->{site.container_port}",
                     "env_ctrl": deployment.env_ctrl_url(name), "env_ctrl_port": site.env_ctrl_port,
                     "health": deployment.base_url(name) + site.health_path, "disk": site.disk, "obtain": site.obtain})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    keys = ("site", "image", "port", "env_ctrl", "health", "disk")
    _print_table([tuple(key.upper() for key in keys)] + [tuple(row[key] or "-" for key in keys) for row in rows])
    return 0
