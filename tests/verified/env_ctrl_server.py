"""A loopback stand-in for the env-control API of WebArena-Verified's images.

It answers what the package's ``HttpClient`` asks (``GET /status``, ``POST /restart?wait=1``,
``POST /start``, ``POST /stop``, ``POST /init``) with the ``{"success", "message", "details"}``
JSON the images send, counts every request it is sent, and can be told to fail its restarts
(an HTTP 500 with a JSON body, as the images answer a failed command).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class EnvCtrlServer:
    """``with EnvCtrlServer() as server:`` serves on ``server.url``; ``server.requests`` lists ``(method, path, query)``."""

    def __init__(self, *, fail_restart: bool = False) -> None:
        self.fail_restart = fail_restart
        self.requests: list[tuple[str, str, dict[str, list[str]]]] = []
        self.restarts = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def _answer(self) -> None:
                parts = urlsplit(self.path)
                outer.requests.append((self.command, parts.path, parse_qs(parts.query)))
                status, body = outer.respond(self.command, parts.path, parse_qs(parts.query))
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="env-ctrl", daemon=True)

    def respond(self, method: str, path: str, query: dict[str, list[str]]) -> tuple[int, dict]:
        if method == "GET" and path == "/status":
            return 200, {"success": True, "message": "Environment is running", "details": {"restarts": self.restarts}}
        if method == "POST" and path == "/restart":
            if self.fail_restart:
                return 500, {"success": False, "message": "mysql did not come back", "details": {}}
            self.restarts += 1
            return 200, {"success": True, "message": "Environment restarted",
                         "details": {"waited": query.get("wait") == ["1"]}}
        if method == "POST" and path in ("/start", "/stop", "/init"):
            return 200, {"success": True, "message": f"{path[1:]} done", "details": {}}
        return 404, {"success": False, "message": f"no route {method} {path}", "details": {}}

    def __enter__(self) -> EnvCtrlServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)
