"""The compose file (validated by docker compose itself) and the ``sites`` command line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from webarena_gym.docker_sites import SITES, Deployment
from webarena_gym.docker_sites.cli import main

from .docker_standin import free_port

pytestmark = pytest.mark.docker

COMPOSE_FILE = Path(__file__).resolve().parents[2] / "docker" / "docker-compose.yml"


def compose_command() -> list[str]:
    """``docker compose`` (v2 plugin) when installed, else Debian's/PyPI's ``docker-compose``."""
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    pytest.fail("Neither `docker compose` nor `docker-compose` is installed: `apt-get install docker-compose` "
                "(scripts/ensure_dockerd.sh does it as root).")


@pytest.fixture(scope="module")
def compose_config(docker_client, tmp_path_factory):
    """The compose file as docker compose resolves it (validation errors fail here)."""
    env = dict(os.environ, WEBARENA_DATA_DIR=str(tmp_path_factory.mktemp("data")))
    run = subprocess.run(
        [*compose_command(), "-f", str(COMPOSE_FILE), "--profile", "map-backends", "--profile", "embedded", "config"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return yaml.safe_load(run.stdout)


def published(service: dict) -> set[tuple[int, int]]:
    pairs = set()
    for port in service.get("ports", []):
        if isinstance(port, dict):
            pairs.add((int(port["published"]), int(port["target"])))
        else:
            host, _, target = str(port).split("/")[0].rpartition(":")
            pairs.add((int(host.rpartition(":")[2]), int(target)))
    return pairs


def test_compose_runs_every_site_like_the_registry(compose_config):
    services = compose_config["services"]
    by_container = {service["container_name"]: service for service in services.values()}
    deployment = Deployment()
    for name, site in SITES.items():
        service = by_container[site.container]
        assert service["image"] == site.image
        assert (site.host_port, site.container_port) in published(service)
        assert service["labels"]["webarena-gym.site"] == name
        probe = " ".join(service["healthcheck"]["test"])
        assert f"http://localhost:{site.container_port}{site.health_path}" in probe
        assert deployment.container_name(name) == site.container
    assert compose_config["networks"]["default"]["name"] == Deployment().network
    assert "db" in services["map_db"]["networks"]["default"]["aliases"]
    # The embedded sites run in their own container, on the embedded sites' ports.
    assert published(services["embedded"]) >= {(7770, 7770), (7780, 7780), (9999, 9999), (4399, 4399)}
    assert services["embedded"]["build"]["dockerfile"] == "docker/embedded/Dockerfile"


def test_compose_profiles_keep_optional_services_off_by_default(compose_config):
    profiles = {name: tuple(service.get("profiles", ())) for name, service in compose_config["services"].items()}
    default = {name for name, names in profiles.items() if not names}
    assert default == {"gitlab", "shopping", "shopping_admin", "forum", "wikipedia", "map", "map_db", "homepage"}
    assert profiles["embedded"] == ("embedded",)
    assert {names for name, names in profiles.items() if name.startswith("map_") and name != "map_db"} == {
        ("map-backends",)
    }


def test_env_prints_the_exports_the_env_reads(capsys, tmp_path):
    # --no-check: the exports of sites not started yet (tests/docker/test_sites_env.py checks the probing)
    assert main(["env", "--host", "webarena.example", "--auth-dir", str(tmp_path), "--no-check"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "export WA_SHOPPING=http://webarena.example:7770" in lines
    assert "export WA_SHOPPING_ADMIN=http://webarena.example:7780/admin" in lines
    assert "export WA_REDDIT=http://webarena.example:9999" in lines
    assert f"export WA_AUTH_DIR={tmp_path}" in lines
    assert len([line for line in lines if line.startswith("export WA_")]) == len(SITES) + 1


def test_cli_runs_a_site_from_up_to_down(docker_client, standin_image, capsys):
    port = free_port()
    common = ["--prefix", f"wagymcli{os.getpid() % 10000}-", "--image", f"forum={standin_image}",
              "--port", f"forum={port}", "--no-progress"]
    try:
        assert main(["up", "forum", *common]) == 0
        assert "reddit: healthy after" in capsys.readouterr().out
        assert main(["status", "reddit", "--json", *common]) == 0
        [row] = json.loads(capsys.readouterr().out)
        assert row["state"] == "running" and row["healthy"] and row["url"] == f"http://127.0.0.1:{port}"
        assert main(["reset", "reddit", *common]) == 0
        assert "reddit: reset in" in capsys.readouterr().out
    finally:
        assert main(["down", "reddit", *common]) == 0
    assert "removed" in capsys.readouterr().out
    assert main(["status", "reddit", *common]) == 0
    assert "missing" in capsys.readouterr().out


def test_cli_errors_are_one_line_with_the_fix(docker_client, capsys):
    assert main(["up", "shopping", "--prefix", "wagymcli-missing-", "--image", "shopping=wagymtest/absent:0"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: Image 'wagymtest/absent:0' for the shopping site is not in the docker engine")
    assert "docker load --input shopping_final_0712.tar" in error
    assert main(["status", "--engine", "unix:///nonexistent.sock"]) == 1
    assert "No docker engine answers" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "named"), [
    (["up", "nosuchsite"], "error: Unknown site 'nosuchsite'"),
    (["status", "nosuchsite"], "error: Unknown site 'nosuchsite'"),
    (["down", "nosuchsite"], "error: Unknown site 'nosuchsite'"),
    (["reset", "shopping", "--prefix", "a" * 33], "error: prefix must be at most 32"),
    (["configure", "shopping", "--port", "shopping=0"], "error: Port for shopping must be an integer in 1..65535"),
])
def test_bad_sites_arguments_are_refused_before_any_engine_is_asked(capsys, args, named):
    # The engine named does not exist: the arguments are checked first, so the error is theirs.
    assert main([*args, "--engine", "unix:///nonexistent.sock"]) == 1
    assert capsys.readouterr().err.startswith(named)


@pytest.mark.parametrize(("args", "named"), [
    (["up", "--standby", "-1"], "argument --standby: must be at least 0, got -1"),
    (["up", "--standby", "two"], "argument --standby: expected a whole number, got 'two'"),
    (["up", "--timeout", "nan"], "argument --timeout: must be a finite number above 0, got 'nan'"),
    (["configure", "--timeout", "-5"], "argument --timeout: must be a finite number above 0, got '-5'"),
    (["reset", "--timeout", "inf"], "argument --timeout: must be a finite number above 0, got 'inf'"),
])
def test_bad_counts_and_timeouts_are_usage_errors(capsys, args, named):
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2 and named in capsys.readouterr().err
