"""The lease service: an HTTP service on the docker host that hands replicas to episodes.

Env workers anywhere reach it with ``WA_LEASES=http://host:port`` (the client is
:mod:`webarena_gym.backends.site_leases`). Requests and answers are JSON:

- ``GET /sites``: ``{"sites": {site: url of its first replica}}``
- ``GET /status``: ``{"replicas": [{replica, site, url, state, holders, since, for_s, recycled}]}``
- ``POST /leases`` ``{sites, writes, holder, ttl}``: 200 ``{lease_id, urls, replicas, states}`` (the
  replicas' saved login states, by file name);
  409 ``{counts}`` when some site has no replica to give now; 404 ``{missing, serves}``
- ``POST /leases/<id>/heartbeat``; ``POST /leases/<id>/release`` ``{dirty}`` (404: no such lease)

A replica that comes back dirty (a writing episode, or a lease whose holder stopped
sending heartbeats) is recycled in a background thread by the ``recycle`` callable.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from .leases import LeaseBook

logger = logging.getLogger(__name__)


class LeaseService:
    """Serves a :class:`LeaseBook` over HTTP and recycles dirty replicas.

    Args:
        book: The replicas.
        recycle: ``(site, index) -> None``, returns once the replica is pristine (None: dirty replicas stay dirty).
        host / port: Where to listen (port 0: any free port; see :attr:`url`).
        sweep_every: Seconds between checks for expired leases.
    """

    def __init__(self, book: LeaseBook, recycle: Callable[[str, int], Any] | None, *, host: str = "127.0.0.1",
                 port: int = 0, sweep_every: float = 0.5):
        self.book, self._recycle_replica, self.sweep_every = book, recycle, sweep_every
        self.recycle_seconds: list[float] = []
        self._server = ThreadingHTTPServer((host, port), _handler(self))
        self._server.daemon_threads = True
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._recycling: list[threading.Thread] = []

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> LeaseService:
        for target, name in ((self._server.serve_forever, "lease-http"), (self._sweep, "lease-sweep")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        logger.info("lease service at %s for %s", self.url, ", ".join(self.book.sites))
        return self

    def serve_forever(self) -> None:
        """Run until interrupted (the ``sites lease-service`` command)."""
        self.start()
        try:
            self._stop.wait()
        finally:
            self.close()

    def close(self, *, wait: float = 300.0) -> None:
        """Stop serving; recycles under way finish first (up to ``wait`` seconds), so that no
        container is still being swapped when the caller removes the replicas."""
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()
        deadline = time.monotonic() + wait
        for thread in list(self._recycling):
            thread.join(timeout=max(0.0, deadline - time.monotonic()))

    def __enter__(self) -> LeaseService:
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _sweep(self) -> None:
        while not self._stop.wait(self.sweep_every):
            for site, index in self.book.expire():
                logger.warning("%s-%d: its holder stopped sending heartbeats; recycling it", site, index)
                self.recycle(site, index)

    def recycle(self, site: str, index: int) -> None:
        """Recycle a dirty replica in the background."""
        if self._recycle_replica is None:
            return
        self.book.recycling(site, index)
        thread = threading.Thread(target=self._run_recycle, args=(site, index), name=f"recycle-{site}-{index}", daemon=True)
        self._recycling = [item for item in self._recycling if item.is_alive()] + [thread]
        thread.start()

    def _run_recycle(self, site: str, index: int) -> None:
        started = time.monotonic()
        try:
            self._recycle_replica(site, index)
        except Exception:
            logger.exception("%s-%d: recycling failed; it stays dirty (see `webarena-gym sites status`)", site, index)
            self.book.recycled(site, index, ok=False)
            return
        self.recycle_seconds.append(time.monotonic() - started)
        self.book.recycled(site, index)
        logger.info("%s-%d: recycled in %.1f s", site, index, self.recycle_seconds[-1])

    # -- requests -----------------------------------------------------------------------
    def answer(self, method: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        parts = [part for part in path.split("?")[0].split("/") if part]
        if method == "GET" and parts == ["sites"]:
            return 200, {"sites": {site: self.book.replica(site, 1).url for site in self.book.sites}}
        if method == "GET" and parts == ["status"]:
            return 200, {"replicas": self.book.rows()}
        if method == "POST" and parts == ["leases"]:
            return self._lease(body)
        if method == "POST" and len(parts) == 3 and parts[0] == "leases":
            lease_id, action = parts[1], parts[2]
            if action == "heartbeat":
                return (200, {}) if self.book.heartbeat(lease_id) else (404, {"error": f"no lease {lease_id}"})
            if action == "release":
                dirty = self.book.release(lease_id, dirty=bool(body.get("dirty", True)))
                if dirty is None:
                    return 404, {"error": f"no lease {lease_id} (it expired?)"}
                for site, index in dirty:
                    self.recycle(site, index)
                return 200, {"recycling": [f"{site}-{index}" for site, index in dirty]}
        return 404, {"error": f"no such endpoint: {method} {path}"}

    def _lease(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        sites = body.get("sites")
        if not isinstance(sites, list) or not sites or not all(isinstance(site, str) for site in sites):
            return 400, {"error": f"'sites' must be a list of site names, got {sites!r:.80}"}
        if missing := self.book.missing(sites):
            return 404, {"missing": missing, "serves": self.book.sites}
        ttl = float(body.get("ttl") or 60.0)
        lease = self.book.acquire(sites, writes=bool(body.get("writes", True)), holder=str(body.get("holder", "?")), ttl=ttl)
        if lease is None:
            return 409, {"counts": self.book.counts(sites)}
        replicas = {site: self.book.replica(site, index) for site, index in lease.replicas.items()}
        return 200, {
            "lease_id": lease.lease_id,
            "urls": {site: replica.url for site, replica in replicas.items()},
            "replicas": {site: replica.name for site, replica in replicas.items()},
            # the login states themselves, so that workers on other machines need no shared folder
            "states": {site: _states(replica.auth_dir) for site, replica in replicas.items() if replica.auth_dir},
        }


def _states(folder: str) -> dict[str, Any]:
    states = {}
    for path in sorted(Path(folder).glob("*_state.json")):
        try:
            states[path.name] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            logger.warning("unreadable login state %s; the episode starts without it", path)
    return states


def _handler(service: LeaseService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _reply(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}") if length else {}
                code, answer = service.answer(method, self.path, body if isinstance(body, dict) else {})
            except (ValueError, TypeError) as exc:
                code, answer = 400, {"error": str(exc)}
            data = json.dumps(answer).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self._reply("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._reply("POST")

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            logger.debug("%s " + format, self.address_string(), *args)

    return Handler


def docker_lease_service(deployment: Any, counts: dict[str, int], *, host: str = "127.0.0.1", port: int = 0,
                         port_step: int | None = None, auth_dir: str = "", engine: str | None = None,
                         timeout: float | None = None) -> LeaseService:
    """A lease service over the replicas :func:`~.replicas.replicas_up` started, recycling through docker.

    ``auth_dir``: per-replica login states live in ``<auth_dir>/<site>-<i>/`` (``sites login``
    with the replica's deployment writes them); leases name that folder.
    """
    from .engine import connect
    from .replicas import PORT_STEP, recycle, replica_auth_dir, replica_urls

    step = PORT_STEP if port_step is None else port_step
    urls = replica_urls(deployment, counts, port_step=step)
    auth_dirs = {site: [str(replica_auth_dir(auth_dir, site, i).resolve()) for i in range(1, len(list_) + 1)]
                 if auth_dir and deployment.site(site).login is not None else []
                 for site, list_ in urls.items()}
    local = threading.local()

    def recycle_replica(site: str, index: int) -> None:
        if getattr(local, "client", None) is None:
            local.client = connect(engine)
        recycle(local.client, deployment, site, index, port_step=step, timeout=timeout, auth_dir=auth_dir or None)

    return LeaseService(LeaseBook(urls, auth_dirs), recycle_replica, host=host, port=port)
