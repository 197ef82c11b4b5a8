"""Stand-ins for the real sites that serve the URLs some WebArena-Verified tasks expect.

One WSGI app per site, run in-process by the direct backend and behind a real HTTP server on
loopback for Chromium. The gitlab stand-in links the merge-request list of task 156 (assigned
to byteblaze, and a wrong one assigned to someone else) and holds the profile form of task
448 (``POST /-/profile`` with ``user[website_url]``, answered with a 302 as GitLab does); the
shopping_admin stand-in shows the best seller task 0 asks for.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

BESTSELLER = "Quest Lumaflex\u2122 Band"


def _page(title: str, body: str) -> Response:
    return Response(f"<!DOCTYPE html><html><head><title>{html.escape(title)}</title></head>"
                    f"<body><h1>{html.escape(title)}</h1>{body}</body></html>", mimetype="text/html")


@Request.application
def gitlab_app(request: Request) -> Response:
    if request.method == "POST" and request.path == "/-/profile":
        return Response("", status=302, headers={"Location": "/-/profile"})
    if request.method != "GET":
        return Response("", status=405)
    shown = html.escape(request.full_path)
    return _page("GitLab stand-in", f"""
      <p>You are at {shown}</p>
      <a href="/dashboard/merge_requests?assignee_username=byteblaze">Merge requests assigned to me</a>
      <a href="/dashboard/merge_requests?assignee_username=abisubramanya27">Merge requests of a colleague</a>
      <form method="post" action="/-/profile">
        <label for="website">Website url</label>
        <input id="website" type="text" name="user[website_url]" value="">
        <button type="submit">Update profile settings</button>
      </form>""")


@Request.application
def shopping_admin_app(request: Request) -> Response:
    return _page("Magento admin stand-in", f"<table><tr><th>Bestsellers 2022</th></tr>"
                                          f"<tr><td>{html.escape(BESTSELLER)}</td></tr></table>"
                                          '<a href="/admin/reports/">Reports</a>')


APPS = {"gitlab": gitlab_app, "shopping_admin": shopping_admin_app}
#: Where the direct backend routes them (nothing listens there).
DIRECT_URLS = {"gitlab": "http://gitlab.stand-in.test:8023", "shopping_admin": "http://admin.stand-in.test:7780/admin"}


@contextmanager
def served() -> Iterator[dict[str, str]]:
    """Serve every stand-in on a free loopback port; yields the site URLs (shopping_admin under /admin)."""
    servers = {name: make_server("127.0.0.1", 0, app, threaded=True) for name, app in APPS.items()}
    threads = [threading.Thread(target=s.serve_forever, name=f"stand-in-{n}", daemon=True) for n, s in servers.items()]
    for thread in threads:
        thread.start()
    try:
        urls = {name: f"http://127.0.0.1:{server.server_port}" for name, server in servers.items()}
        urls["shopping_admin"] += "/admin"
        yield urls
    finally:
        for server in servers.values():
            server.shutdown()
        for thread in threads:
            thread.join(timeout=10)
