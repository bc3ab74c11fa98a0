"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol and misbehaves on purpose.

``FaultServer(policy)`` runs a ``ThreadingHTTPServer`` in a thread. For every POST it calls
``policy(prompt, attempt)`` — the last user message and how many times that prompt was seen before (0 for the
first); a policy with ``with_payload = True`` also gets the request's JSON — which returns a ``Reply``: an HTTP
status, headers and a body, or a delay (to trigger client timeouts).
The server records every request (arrival time, prompt, attempt) and the peak number in flight.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def completion_body(text: str | None, *, refusal: str | None = None, finish_reason: str = "stop") -> str:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if refusal is not None:
        message["refusal"] = refusal
    return json.dumps(
        {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [{"index": 0, "finish_reason": finish_reason, "message": message, "logprobs": None}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
        }
    )


def ok(text: str) -> Reply:
    return Reply(200, completion_body(text))


def error(status: int, message: str = "fault", headers: dict[str, str] | None = None) -> Reply:
    return Reply(status, json.dumps({"error": {"message": message, "type": "fault", "code": status}}), headers or {})


def deterministic_answer(prompt: str) -> str:
    """A stable reply that depends on the prompt only (so interrupted and uninterrupted runs can be compared)."""
    h = hashlib.sha256(prompt.encode()).hexdigest()
    return ("Yes" if int(h[0], 16) % 2 else "No") + f", because {h[:12]}."


Policy = Callable[[str, int], Reply]


class FaultServer:
    """Start with ``with FaultServer(policy) as server:``; ``server.url`` is the ``/v1`` base URL."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.lock = threading.Lock()
        self.seen: Counter[str] = Counter()
        self.log: list[tuple[float, str, int, int]] = []  # (arrival, prompt, attempt, status)
        self.in_flight = 0
        self.peak_in_flight = 0
        self.headers_seen: list[dict[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                payload = json.loads(self.rfile.read(length) or b"{}")
                prompt = next(
                    (m["content"] for m in reversed(payload.get("messages", [])) if m.get("role") == "user"), ""
                )
                with outer.lock:
                    attempt = outer.seen[prompt]
                    outer.seen[prompt] += 1
                    outer.in_flight += 1
                    outer.peak_in_flight = max(outer.peak_in_flight, outer.in_flight)
                    outer.headers_seen.append({k.lower(): v for k, v in self.headers.items()})
                try:
                    if getattr(outer.policy, "with_payload", False):  # a policy that reads temperature, seed…
                        reply = outer.policy(prompt, attempt, payload)  # type: ignore[call-arg]
                    else:
                        reply = outer.policy(prompt, attempt)
                    with outer.lock:
                        outer.log.append((time.monotonic(), prompt, attempt, reply.status))
                    if reply.delay_s:
                        time.sleep(reply.delay_s)
                    body = reply.body.encode()
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)
                finally:
                    with outer.lock:
                        outer.in_flight -= 1

            def log_message(self, *args: object) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that hung up mid-reply is part of the test

        self._server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def calls(self) -> int:
        return sum(self.seen.values())

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
