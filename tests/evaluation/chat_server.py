"""A real HTTP server on loopback speaking OpenAI's chat-completions protocol, for the eval tests.

What it answers is up to a *responder*: ``responder(request, number) -> Reply`` where
``request`` is the decoded JSON body and ``number`` counts requests from 1. Every request
is recorded (``server.requests``). The server runs in a thread of the test process.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from webarena_gym.suites.embedded import embedded_tasks


@dataclass
class Reply:
    """One HTTP answer: a completion with ``content`` (the default), or any status, headers and raw body."""

    content: str | None = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    wait_for: threading.Event | None = None  # hold the answer until this is set (a server that hangs)
    usage: tuple[int, int] = (7, 3)


Responder = Callable[[dict[str, Any], int], Reply]


def completion(content: str | None, model: str, usage: tuple[int, int]) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
    }


class ChatServer:
    """``with ChatServer(responder) as server: server.url`` -> ``http://127.0.0.1:PORT/v1``."""

    def __init__(self, responder: Responder):
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.release = threading.Event()  # set on exit: frees any held request
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server API
                length = int(self.headers.get("Content-Length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                with outer.lock:
                    outer.requests.append(request)
                    number = len(outer.requests)
                reply = outer.responder(request, number)
                if reply.wait_for is not None:
                    while not (reply.wait_for.wait(0.05) or outer.release.is_set()):
                        pass
                body = reply.body if reply.body is not None else json.dumps(
                    completion(reply.content, request.get("model", ""), reply.usage)).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up on a held request
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def intents(self) -> list[str]:
        """The task intent of each request, in order."""
        return [intent_of(request) for request in self.requests]

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def intent_of(request: dict[str, Any]) -> str:
    """The task's intent, from the first user message ("Task: ..." before the page, or after it)."""
    first_user = next(m["content"] for m in request["messages"] if m["role"] == "user")
    if first_user.startswith("Task: "):
        return first_user.split("\n", 1)[0].removeprefix("Task: ")
    return first_user.rsplit("\n\nTask: ", 1)[-1]


def answer_key(split: str = "test") -> dict[str, str]:
    """{intent: an answer the evaluators accept} for the embedded string-match tasks."""
    key = {}
    for task in embedded_tasks(split):
        answers = task.eval.reference_answers
        if tuple(task.eval.eval_types) != ("string_match",) or answers is None:
            continue
        if answers.exact_match:
            key[task.intent] = answers.exact_match
        elif answers.must_include:
            items = [answers.must_include] if isinstance(answers.must_include, str) else answers.must_include
            key[task.intent] = ", ".join(item.split(" |OR| ")[0] for item in items)
    return key


def answering(key: dict[str, str]) -> Responder:
    """A model that knows the answers: exits at once with the key's answer (or "N/A")."""

    def respond(request: dict[str, Any], number: int) -> Reply:
        answer = key.get(intent_of(request), "N/A")
        return Reply(f'exit(message="{answer}")')

    return respond


def pick_tasks() -> tuple[list[int], list[int], dict[str, str]]:
    """Per site, one task the answer key solves and one it cannot (a url_match task).

    Returns (all ids, solved ids, the answer key).
    """
    key = answer_key()
    chosen, solved = [], []
    for site in ("shopping", "reddit", "map"):
        tasks = [t for t in embedded_tasks("test") if t.sites == (site,)]
        hit = next(t for t in tasks if t.intent in key and t.eval.reference_answers.exact_match)
        miss = next(t for t in tasks if tuple(t.eval.eval_types) == ("url_match",))
        chosen += [hit.task_id, miss.task_id]
        solved.append(hit.task_id)
    return sorted(chosen), solved, key
