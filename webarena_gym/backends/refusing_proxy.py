"""A proxy address where every connection is refused: how a Chromium context is kept on its task's sites.

Each browser context is created with this proxy and the task's sites on the proxy's bypass list
(:meth:`~webarena_gym.backends.base.SiteMap.direct_origins`). Chromium loads the task's own pages
directly, with nothing between it and the site, and fails any other request inside the browser
(``net::ERR_PROXY_CONNECTION_FAILED``) before it leaves the machine. Unlike request interception,
this costs nothing per request and leaves the browser's HTTP cache on.

The address is a loopback port this process keeps bound and never listens on, so a
connection to it is refused at once. A remote browser on another machine gets the same
port on its own loopback, which is refused as long as nothing listens there.
"""

from __future__ import annotations

import socket
import threading

_lock = threading.Lock()
_held: socket.socket | None = None

#: How Chromium reports a request sent to the refusing proxy (plain HTTP and HTTPS tunnels alike).
REFUSED_ERRORS = ("net::ERR_PROXY_CONNECTION_FAILED", "net::ERR_TUNNEL_CONNECTION_FAILED")


def refusing_proxy_server() -> str:
    """``http://127.0.0.1:PORT``, where PORT is held by this process and refuses every connection."""
    global _held
    with _lock:
        if _held is None:
            held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            held.bind(("127.0.0.1", 0))  # bound, never listening: a connection gets a reset at once
            _held = held
        return f"http://127.0.0.1:{_held.getsockname()[1]}"


def was_refused(failure: str | None) -> bool:
    """Whether a failed request's error text says that the refusing proxy stopped it."""
    return bool(failure) and any(error in failure for error in REFUSED_ERRORS)
