"""The network trace of an episode: every request and response, as HAR entries.

WebArena-Verified scores most tasks from the requests an episode made (its
``NetworkEventEvaluator`` reads a HAR file's ``log.entries``). Both backends record into a
:class:`NetworkTraceRecorder`: the direct backend each WSGI call it makes (redirects
included, one entry per hop, as a browser's HAR has them), the Playwright backend every
request its browser context finished or saw fail. The entries carry what the evaluator
reads: method, URL, request headers, form or JSON bodies, status, response headers and
cookies, the redirect target, and JSON or text response bodies up to :data:`MAX_BODY_CHARS`.

>>> recorder = NetworkTraceRecorder()
>>> recorder.record(method="GET", url="http://127.0.0.1:8023/", request_headers={"Accept": "text/html"},
...                 status=200, response_headers=[("Content-Type", "text/html")])
>>> [entry["request"]["url"] for entry in recorder.entries]
['http://127.0.0.1:8023/']
>>> recorder.har()["log"]["version"]
'1.2'
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import os
from collections.abc import Iterable, Mapping
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

logger = logging.getLogger(__name__)

#: Response bodies longer than this are recorded without their text (HTML pages are not read
#: by the evaluator; JSON answers of the sites' APIs are, and are short).
MAX_BODY_CHARS = 200_000
#: Response types whose text is kept.
_TEXT_TYPES = ("application/json", "text/plain", "application/x-www-form-urlencoded")

HeaderList = Iterable[tuple[str, str]] | Mapping[str, str]


def _headers(headers: HeaderList | None) -> list[dict[str, str]]:
    items = headers.items() if isinstance(headers, Mapping) else (headers or ())
    return [{"name": str(name), "value": str(value)} for name, value in items]


def _cookies(set_cookie_values: Iterable[str]) -> list[dict[str, str]]:
    cookies = []
    for header in set_cookie_values:
        try:
            jar = SimpleCookie(header)
        except CookieError:
            continue
        cookies.extend({"name": name, "value": morsel.value} for name, morsel in jar.items())
    return cookies


def _header_value(headers: list[dict[str, str]], name: str) -> str:
    return next((h["value"] for h in headers if h["name"].lower() == name), "")


class NetworkTraceRecorder:
    """The requests and responses of the current episode, in HAR 1.2 entry form.

    ``clear()`` at the start of every episode; :attr:`entries` read at its end.
    """

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self._pending: set[asyncio.Task] = set()

    def clear(self) -> None:
        """Forget the entries of the last episode."""
        self.entries = []

    def record(self, *, method: str, url: str, request_headers: HeaderList | None = None,
               post_data: str | None = None, post_mime: str = "", status: int,
               status_text: str = "", response_headers: HeaderList | None = None,
               body: str | None = None, redirect_url: str = "") -> None:
        """Add one request and its response."""
        request_list = _headers(request_headers)
        response_list = _headers(response_headers)
        mime = _header_value(response_list, "content-type")
        if not redirect_url and 300 <= status < 400:
            redirect_url = _header_value(response_list, "location")
        request: dict[str, Any] = {
            "method": method.upper(),
            "url": url,
            "httpVersion": "HTTP/1.1",
            "headers": request_list,
            "queryString": [{"name": k, "value": v} for k, v in parse_qsl(urlsplit(url).query, keep_blank_values=True)],
            "cookies": [],
            "headersSize": -1,
            "bodySize": len(post_data or ""),
        }
        if post_data is not None:
            request["postData"] = {"mimeType": post_mime or _header_value(request_list, "content-type"),
                                   "text": post_data}
        content: dict[str, Any] = {"size": len(body) if body is not None else -1, "mimeType": mime}
        if body is not None and len(body) <= MAX_BODY_CHARS and any(t in mime for t in _TEXT_TYPES):
            content["text"] = body
        set_cookies = [h["value"] for h in response_list if h["name"].lower() == "set-cookie"]
        self.entries.append({
            "startedDateTime": dt.datetime.now(dt.timezone.utc).isoformat(),
            "time": 0,
            "request": request,
            "response": {
                "status": int(status),
                "statusText": status_text,
                "httpVersion": "HTTP/1.1",
                "headers": response_list,
                "cookies": _cookies(set_cookies),
                "content": content,
                "redirectURL": redirect_url,
                "headersSize": -1,
                "bodySize": content["size"],
            },
            "cache": {},
            "timings": {"send": 0, "wait": 0, "receive": 0},
        })

    # -- Playwright ---------------------------------------------------------------------
    def attach(self, context: Any) -> None:
        """Record every request a Playwright (async API) browser context finishes or sees fail."""
        context.on("requestfinished", self._schedule)
        context.on("requestfailed", self._schedule)

    def _schedule(self, request: Any) -> None:
        task = asyncio.ensure_future(self._record_playwright(request))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def settle(self) -> None:
        """Wait for the entries still being read from the browser (call on the browser's loop)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def _record_playwright(self, request: Any) -> None:
        try:
            response = await request.response()
            headers = await request.all_headers()
            post_data = request.post_data
            if response is None:  # failed: no answer, which the evaluator reads as status 0
                self.record(method=request.method, url=request.url, request_headers=headers,
                            post_data=post_data, status=0, status_text=request.failure or "")
                return
            response_headers = await response.headers_array()
            body = None
            mime = (response.headers.get("content-type") or "")
            if any(t in mime for t in _TEXT_TYPES) and not 300 <= response.status < 400:
                try:
                    body = await response.text()
                except Exception:  # a body the browser did not keep (a redirect, a navigation away)
                    body = None
            self.record(method=request.method, url=request.url, request_headers=headers, post_data=post_data,
                        status=response.status, status_text=response.status_text,
                        response_headers=[(h["name"], h["value"]) for h in response_headers], body=body)
        except Exception as exc:  # a closed context mid-read: the entry is lost, and said so
            logger.info("A request of the episode could not be recorded (%s): %s", request.url, exc)

    # -- output -----------------------------------------------------------------------
    def har(self) -> dict[str, Any]:
        """The trace as a HAR 1.2 document."""
        return {"log": {"version": "1.2", "creator": {"name": "webarena-gym", "version": "0"},
                        "pages": [], "entries": list(self.entries)}}

    def write(self, path: str | os.PathLike[str]) -> Path:
        """Write the trace as a HAR file (folders made as needed); returns its path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.har(), ensure_ascii=False), encoding="utf-8")
        return path


__all__ = ["MAX_BODY_CHARS", "NetworkTraceRecorder"]
