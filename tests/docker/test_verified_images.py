"""`webarena-gym sites --image-set verified`: WebArena-Verified's images, their ports and env-control endpoints.

The definitions are read from the installed package's container configurations when the
command runs. No image can be pulled here, so the engine test builds a tiny stand-in with
the verified images' shape: the site on its port, and beside it the env-control API that
restarts the site on its pristine data (answering the package's ``HttpClient``).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import socket
import tarfile
import urllib.parse
import urllib.request

import pytest

from webarena_gym.backends.verified_control import SiteResetter, env_ctrl_urls
from webarena_gym.docker_sites.cli import main
from webarena_gym.docker_sites.registry import SITES, VERIFIED_SITE_URL_VARIABLE, verified_sites

from .docker_standin import NOTES_CGI, find_busybox

verified = pytest.importorskip("webarena_verified", reason="the verified extra is not installed")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:url_normalize.*")

# The env-control API as the images serve it, for the package's HttpClient: GET /status, POST /restart.
# A restart empties the site's store (its pristine data); status says which URL the site was given.
ENV_CTRL = r"""#!/bin/sh
read -r method target version
while read -r line; do
  case "$line" in ""|"$(printf '\r')") break ;; esac
done
case "$method $target" in
  "GET /status") body="{\"success\": true, \"message\": \"running\", \"details\": {\"site_url\": \"$WA_ENV_CTRL_EXTERNAL_SITE_URL\"}}" ;;
  "POST /restart"*) rm -f /www/data/notes; body='{"success": true, "message": "restarted", "details": {}}' ;;
  *) body='{"success": false, "message": "no such command", "details": {}}' ;;
esac
printf 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %s\r\nConnection: close\r\n\r\n%s' \
  "${#body}" "$body"
"""


def _rootfs() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:

        def add(name: str, data: bytes = b"", mode: int = 0o644, kind: bytes = tarfile.REGTYPE, link: str = "") -> None:
            info = tarfile.TarInfo(name)
            info.mode, info.type, info.mtime, info.linkname = mode, kind, 0, link
            info.size = len(data) if kind == tarfile.REGTYPE else 0
            tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)

        for folder in ("bin", "tmp", "www", "www/cgi-bin", "www/data"):
            add(folder, mode=0o1777 if folder in ("tmp", "www/data") else 0o755, kind=tarfile.DIRTYPE)
        add("bin/busybox", find_busybox().read_bytes(), mode=0o755)
        for applet in ("sh", "nc", "cat", "head", "echo", "httpd", "rm", "printf"):
            add(f"bin/{applet}", kind=tarfile.SYMTYPE, link="busybox")
        add("www/index.html", b"<!doctype html><title>Forum</title><h1>Verified stand-in</h1>\n")
        add("www/login", b"<!doctype html><title>Log in</title><h1>Log in</h1>\n")  # the package's health path
        add("www/cgi-bin/notes", NOTES_CGI.encode(), mode=0o755)
        add("bin/envctrl", ENV_CTRL.encode(), mode=0o755)
    return buffer.getvalue()


def verified_standin(client, env_ctrl_port: int) -> str:
    """The stand-in image (imported once per content): the site on port 80, env-control on ``env_ctrl_port``."""
    data = _rootfs()
    serve = (f"/bin/busybox httpd -f -p 80 -h /www & site=$!; /bin/busybox nc -ll -p {env_ctrl_port} -e /bin/envctrl "
             "& ctrl=$!; trap 'kill $site $ctrl; exit 0' TERM; wait $site")
    changes = [f'CMD ["/bin/sh", "-c", "{serve}"]']
    tag = f"wagymtest/verified-standin:{hashlib.sha256(data + serve.encode()).hexdigest()[:12]}"
    repository, _, version = tag.partition(":")
    if not client.images.list(name=tag):
        client.api.import_image_from_data(data, repository=repository, tag=version, changes=changes)
    return tag


def free_pair(offset: int) -> int:
    """A free port whose neighbour at ``offset`` is free too (a site and its env-control port)."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port + offset))
            except OSError:
                continue
        return port
    raise RuntimeError("no two free neighbouring ports")


def test_the_verified_set_is_read_from_the_package_when_it_runs(monkeypatch):
    from webarena_verified.environments.container import config as package

    sites = verified_sites()
    assert list(sites) == list(SITES)  # the same sites, started in the same order
    for site, config in package.DEFAULT_CONTAINER_CONFIGS.items():
        ours = sites[site.value]
        assert (ours.image, ours.container_port, ours.host_port, ours.health_path) == (
            config.docker_img, config.container_port, config.host_port, config.health_check_path)
        assert (ours.env_ctrl_port, ours.host_env_ctrl_port) == (config.env_ctrl_port, config.host_env_ctrl_port)
        assert ours.configure == () and dict(ours.environment) == {VERIFIED_SITE_URL_VARIABLE: "{base_url}"}
        assert (ours.container, ours.env_var, ours.login) == (SITES[site.value].container, SITES[site.value].env_var,
                                                               SITES[site.value].login)
    assert sites["homepage"] == SITES["homepage"]  # not in the package: this repository's
    gitlab = package.DEFAULT_CONTAINER_CONFIGS[package.WebArenaSite.GITLAB]
    monkeypatch.setitem(package.DEFAULT_CONTAINER_CONFIGS, package.WebArenaSite.GITLAB,
                        gitlab.model_copy(update={"docker_img": "am1n3e/webarena-verified-gitlab:next"}))
    assert verified_sites()["gitlab"].image == "am1n3e/webarena-verified-gitlab:next"  # not a copy


def test_list_shows_the_verified_images_with_their_endpoints_and_sizes(capsys):
    assert main(["list", "--image-set", "verified"]) == 0
    out = capsys.readouterr().out
    assert "am1n3e/webarena-verified-shopping " in out and "http://127.0.0.1:7771" in out
    assert "~13.3 GB (WebArena's image: ~117 GB)" in out and "~31.6 GB (WebArena's image: ~155 GB)" in out
    assert main(["list", "--json", "--port", "gitlab=18023", "--image-set", "verified", "gitlab"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["url"] == "http://127.0.0.1:18023" and row["env_ctrl"] == "http://127.0.0.1:18024"  # moved with it
    assert row["health"] == "http://127.0.0.1:18023/users/sign_in"
    assert main(["list", "gitlab"]) == 0  # WebArena's set: no env-control endpoint
    assert "gitlab-populated-final-port8023" in (out := capsys.readouterr().out) and "18024" not in out


def test_env_exports_the_endpoints_the_env_finds_by_itself(capsys):
    assert main(["env", "--no-check", "--image-set", "verified", "--host", "sites.example", "--port", "forum=19999"]) == 0
    exports = dict(line.removeprefix("export ").split("=", 1) for line in capsys.readouterr().out.splitlines())
    assert exports["WA_REDDIT"] == "http://sites.example:19999" and exports["WA_REDDIT_ENV_CTRL"] == "http://sites.example:19998"
    site_urls = {name: exports[f"WA_{name.upper()}"] for name in SITES if f"WA_{name.upper()}" in exports}
    derived = env_ctrl_urls(site_urls, environ={})  # without the WA_*_ENV_CTRL variables
    assert {f"WA_{name.upper()}_ENV_CTRL": url for name, url in derived.items()} == {
        key: value for key, value in exports.items() if key.endswith("_ENV_CTRL")}
    assert main(["env", "--no-check"]) == 0  # WebArena's images have no endpoint to export
    assert "_ENV_CTRL" not in capsys.readouterr().out


def _notes(url: str, note: str | None = None) -> str:
    data = urllib.parse.urlencode({"note": note}).encode() if note is not None else None
    with urllib.request.urlopen(urllib.request.Request(f"{url}/cgi-bin/notes", data=data), timeout=10) as response:
        return response.read().decode()


def test_up_runs_a_verified_image_whose_endpoint_resets_the_site(docker_client, capsys):
    from webarena_verified.environments.container.config import DEFAULT_CONTAINER_CONFIGS
    from webarena_verified.environments.env_ctrl_client import HttpClient
    from webarena_verified.types.task import WebArenaSite

    config = DEFAULT_CONTAINER_CONFIGS[WebArenaSite.REDDIT]
    image = verified_standin(docker_client, config.env_ctrl_port)
    port = free_pair(config.host_env_ctrl_port - config.host_port)  # the forum's endpoint is one port below it
    common = ["--image-set", "verified", "--prefix", f"wagymverified{os.getpid() % 10000}-",
              "--image", f"forum={image}", "--port", f"forum={port}", "--no-progress"]
    try:
        assert main(["up", "forum", *common]) == 0  # healthy at the package's health path, /login
        assert "reddit: healthy after" in capsys.readouterr().out
        assert main(["env", "forum", *common]) == 0
        exports = dict(line.removeprefix("export ").split("=", 1) for line in capsys.readouterr().out.splitlines())
        site_url, endpoint = exports["WA_REDDIT"], exports["WA_REDDIT_ENV_CTRL"]
        assert endpoint == f"http://127.0.0.1:{port - 1}" == env_ctrl_urls({"reddit": site_url}, environ={})["reddit"]
        status = HttpClient(base_url=endpoint, timeout=10).status()
        assert status["success"] and status["details"]["site_url"] == site_url  # the image was told its URL
        _notes(site_url, "written by an earlier episode")
        assert "notes stored: 1" in _notes(site_url)
        assert SiteResetter({"reddit": endpoint}, timeout=60).reset(["reddit"]) == ["reddit"]
        assert "notes stored: 0" in _notes(site_url)  # pristine again
    finally:
        assert main(["down", "forum", *common]) == 0
