"""An OpenAI-compatible chat endpoint on loopback whose "model" replays recorded oracle actions.

Run as ``python replay_endpoint.py DEMOS.jsonl PORT``: for a conversation whose first user
message starts with ``Task: <intent>``, the n-th reply is the n-th action of that task's
demonstration. It stands in for an LLM server (none can run here) so that a library's
real client, harness and env loop can be tested end to end.
"""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from webarena_gym.demos import read_demonstrations


def make_handler(actions_by_intent: dict[str, list[str]]):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet
            pass

        def _send(self, payload: dict) -> None:
            body = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            self._send({"object": "list", "data": [{"id": "oracle-replay", "object": "model", "owned_by": "tests"}]})

        def do_POST(self):
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            messages = request.get("messages", [])
            users = [m for m in messages if m.get("role") == "user"]
            first = users[0]["content"] if users else ""
            first = first if isinstance(first, str) else " ".join(p.get("text", "") for p in first)
            intent = first.split("\n", 1)[0].removeprefix("Task: ")
            actions = actions_by_intent.get(intent, [])
            turn = sum(1 for m in messages if m.get("role") == "assistant")
            reply = actions[turn] if turn < len(actions) else 'exit(message="")'
            head = {"id": f"chatcmpl-{time.monotonic_ns()}", "created": int(time.time()),
                    "model": request.get("model", "oracle-replay")}
            usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
            if not request.get("stream"):
                self._send(dict(head, object="chat.completion", usage=usage, choices=[
                    {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply}}]))
                return
            chunks = [
                dict(head, object="chat.completion.chunk",
                     choices=[{"index": 0, "delta": {"role": "assistant", "content": reply}, "finish_reason": None}]),
                dict(head, object="chat.completion.chunk", choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]),
                dict(head, object="chat.completion.chunk", choices=[], usage=usage),
            ]
            body = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def main() -> None:
    demos = read_demonstrations(sys.argv[1], strict=True).demonstrations
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), make_handler(
        {demo.intent: [turn.action for turn in demo.turns] for demo in demos}))
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
