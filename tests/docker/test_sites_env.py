"""``webarena-gym sites env`` exports only the sites that answer, against real HTTP servers on loopback.

No docker engine is needed: the exports name URLs, and the stand-ins are plain HTTP servers
on the ports the command is told the sites use.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from webarena_gym.docker_sites import SITES
from webarena_gym.docker_sites.cli import main

from .docker_standin import free_port


@contextmanager
def site_answering(status: int) -> Iterator[int]:
    """A loopback HTTP server that answers every GET with ``status``; yields its port."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def ports():
    """A port per site: forum answers 200, shopping 503 (an application error), gitlab 302 (a sign-in
    redirect, which counts as up), the others nothing."""
    with site_answering(200) as forum, site_answering(503) as shopping, site_answering(302) as gitlab:
        chosen = {name: free_port() for name in SITES}
        chosen.update(reddit=forum, shopping=shopping, gitlab=gitlab)
        yield chosen


def run_env(capsys, ports, *extra):
    options = [option for name, port in ports.items() for option in ("--port", f"{name}={port}")]
    code = main(["env", *options, *extra])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def test_env_exports_only_the_sites_that_answer_and_says_which_it_left_out(capsys, ports, tmp_path):
    code, lines, err = run_env(capsys, ports, "--auth-dir", str(tmp_path))
    assert code == 0
    assert sorted(lines) == [
        f"export WA_AUTH_DIR={tmp_path}",
        f"export WA_GITLAB=http://127.0.0.1:{ports['gitlab']}",
        f"export WA_REDDIT=http://127.0.0.1:{ports['reddit']}",
    ]
    assert f"left out WA_SHOPPING (shopping): http://127.0.0.1:{ports['shopping']}/ answered HTTP 503" in err
    assert f"left out WA_MAP (map): http://127.0.0.1:{ports['map']}/ did not answer" in err
    assert "WA_REDDIT" not in err and "WA_GITLAB" not in err
    assert "`webarena-gym sites up shopping" in err  # how to get the others


def test_env_fails_when_no_site_answers(capsys, ports):
    code, lines, err = run_env(capsys, ports, "map", "wikipedia", "shopping")
    assert code == 1 and lines == []  # nothing for `eval "$(webarena-gym sites env)"` to take in
    assert "error: none of the sites shopping, wikipedia, map answers" in err
    assert "webarena-gym sites up" in err and "--no-check" in err


def test_env_no_check_exports_every_site(capsys, ports):
    code, lines, err = run_env(capsys, ports, "--no-check")
    assert code == 0 and err == ""
    assert len([line for line in lines if line.startswith("export WA_")]) == len(SITES) + 1
    assert f"export WA_MAP=http://127.0.0.1:{ports['map']}" in lines
