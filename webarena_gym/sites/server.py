"""Serve the embedded sites over real HTTP (for Playwright, and for people).

One threaded WSGI server per site, bound to loopback. A :class:`WorldRouter` in front of
each app picks the world named by the ``wa_world`` cookie, so one server hosts many
isolated worlds (one per browser context) and a person without the cookie gets a
default world of their own.
"""

from __future__ import annotations

import errno
import logging
import socket
import threading
from collections.abc import Iterable
from http.cookies import SimpleCookie
from typing import Any

from werkzeug.serving import make_server

from ..errors import ConfigurationError
from .spec import SITE_MODULES, app_for, get_site
from .webapp import SITE_URLS_KEY, WORLD_COOKIE, WORLD_KEY
from .world import World, WorldPool

logger = logging.getLogger(__name__)


class WorldRouter:
    """WSGI middleware: bind each request to the world its ``wa_world`` cookie names."""

    def __init__(self, app: Any, pool: WorldPool, site_urls: dict[str, str], default_world: World):
        self.app = app
        self.pool = pool
        self.site_urls = site_urls
        self.default_world = default_world

    def __call__(self, environ: dict, start_response: Any) -> list[bytes]:
        cookie = SimpleCookie(environ.get("HTTP_COOKIE", ""))
        token = cookie[WORLD_COOKIE].value if WORLD_COOKIE in cookie else None
        world = (self.pool.get(token) if token else None) or self.default_world
        environ[WORLD_KEY] = world
        environ[SITE_URLS_KEY] = self.site_urls
        with world.lock:  # one request at a time per world: SQLite connections are not thread-safe
            return list(self.app(environ, start_response))


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host:port`` (0: a free port), or an OSError that says why not.

    werkzeug binds its own sockets by printing the error and exiting the process, which a library must not do.
    """
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise OSError(errno.EINVAL, f"a port is a number in 0..65535, not {port!r}")
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    return socket.create_server((host, port), family=family)


class SiteServer:
    """All (or some) embedded sites served on loopback.

    Args:
        sites: Site names to serve (default: all).
        host: Interface to bind; loopback by default.
        ports: Port per site; default WebArena's ports, or ephemeral ports with ``ephemeral=True``.
        ephemeral: Bind every site to a free port chosen by the OS (tests, parallel runs).
        pool: The worlds to route to (default: a new pool).

    >>> with SiteServer(sites=["homepage"], ephemeral=True) as server:
    ...     server.base_urls["homepage"].startswith("http://127.0.0.1:")
    True
    """

    def __init__(
        self,
        sites: Iterable[str] | None = None,
        *,
        host: str = "127.0.0.1",
        ports: dict[str, int] | None = None,
        ephemeral: bool = False,
        pool: WorldPool | None = None,
    ):
        self.sites = list(sites) if sites is not None else list(SITE_MODULES)
        for name in self.sites:
            get_site(name)  # validates the name
        self.host = host
        self.ports = dict(ports or {})
        self.ephemeral = ephemeral
        self.pool = pool or WorldPool()
        self.default_world = World(token="default")
        self.base_urls: dict[str, str] = {}
        self._servers: list[Any] = []
        self._threads: list[threading.Thread] = []

    def start(self) -> SiteServer:
        if self._servers:
            return self
        bound = []
        for name in self.sites:
            spec = get_site(name)
            port = 0 if self.ephemeral else self.ports.get(name, spec.default_port)
            router = WorldRouter(app_for(name), self.pool, self.base_urls, self.default_world)
            try:
                listener = listen(self.host, port)
            except OSError as exc:
                for server in self._servers:  # bound, not serving yet: shutdown() would wait for a loop never begun
                    server.server_close()
                self._servers.clear()
                hint = ("Stop whatever uses the port, or pass ephemeral=True (CLI: --ephemeral) to pick free ports"
                        if exc.errno == errno.EADDRINUSE else "Pass an address of this machine as host (CLI: --host)")
                raise ConfigurationError(f"Cannot serve {name} on {self.host}:{port}: {exc}. {hint}.") from exc
            with listener:  # the server holds its own copy of the socket
                server = make_server(self.host, listener.getsockname()[1], router, threaded=True,
                                     fd=listener.fileno())
            self._servers.append(server)
            bound.append((name, server))
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address, as URLs write it
        for name, server in bound:
            self.base_urls[name] = f"http://{host}:{server.port}{get_site(name).url_prefix}"
            thread = threading.Thread(target=server.serve_forever, name=f"serve-{name}", daemon=True)
            thread.start()
            self._threads.append(thread)
        logger.info("Serving embedded sites: %s", self.base_urls)
        return self

    def stop(self) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)
        self._servers.clear()
        self._threads.clear()

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
