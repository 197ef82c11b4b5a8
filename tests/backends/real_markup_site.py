"""A small real site serving the real-markup fixture pages, for both backends.

``GET /<name>`` serves ``tests/fixtures/real_markup/<name>.html``; ``/echo`` shows what a
form sent (one ``<li>name=value</li>`` per pair), so a test can check what a submit
carried. The same WSGI app runs in-process for the direct backend and behind a real
HTTP server on loopback for Chromium.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

PAGES = Path(__file__).resolve().parent.parent / "fixtures" / "real_markup"


@Request.application
def fixture_app(request: Request) -> Response:
    if request.path == "/echo" or request.method == "POST":
        pairs = list(request.form.items(multi=True)) + list(request.args.items(multi=True))
        items = "".join(f"<li>{html.escape(k)}={html.escape(v)}</li>" for k, v in pairs)
        return Response(f"<!DOCTYPE html><html><head><title>Sent</title></head><body><h1>Sent</h1><ul>{items}</ul></body></html>",
                        mimetype="text/html")
    page = PAGES / f"{request.path.strip('/')}.html"
    if page.parent != PAGES or not page.is_file():
        return Response("<h1>Not found</h1>", status=404, mimetype="text/html")
    return Response(page.read_text(), mimetype="text/html")


@contextmanager
def serving_wsgi(app, name: str = "loopback-site") -> Iterator[str]:
    """Serve a WSGI ``app`` on a free loopback port in a thread; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def served():
    """Serve :func:`fixture_app` on a free loopback port; a context manager that yields its base URL."""
    return serving_wsgi(fixture_app, "real-markup-site")
