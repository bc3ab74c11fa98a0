"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol and misbehaves on purpose.

``FaultServer(policy)`` runs a ``ThreadingHTTPServer`` in a thread. For every POST it calls
``policy(prompt, attempt)`` — the last user message and how many times that prompt was seen before (0 for the
first); a policy with ``with_payload = True`` also gets the request's JSON — which returns a ``Reply``: an HTTP
status, headers and a body; or ``hold=True``, never to answer (the client's own timeout is its only way out).
The server records every request (arrival time, prompt, attempt) and the peak number in flight (a request is in
flight from its arrival until its answer is about to be sent, so never longer than the client waits for it).

Tests that interrupt a run never race it: ``server.hold_after(n)`` answers ``n`` more requests and then holds every
further one, unanswered, until the test calls ``release()`` (or ``hold_after`` again); ``wait_held(k)`` returns once
``k`` requests are held. A run held there is mid-way for as long as the test likes, whatever the machine's load.
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
    hold: bool = False  # never answer: hold the connection until the server stops (a client timeout, for sure)


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
        # the gate: ``_allowed`` more requests are answered, then each one waits for the next generation
        self._gate = threading.Condition(self.lock)
        self._allowed: int | None = None
        self._generation = 0
        self.holding = 0  # requests held by the current gate
        self._stopped = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # headers and body go out in two writes: with Nagle's algorithm on, the second waits for the client's
            # delayed ACK (40 ms on Linux) on every kept-alive connection, which is most of a test's time
            disable_nagle_algorithm = True

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
                    outer._pass_gate()
                answered = False
                try:
                    if getattr(outer.policy, "with_payload", False):  # a policy that reads temperature, seed…
                        reply = outer.policy(prompt, attempt, payload)  # type: ignore[call-arg]
                    else:
                        reply = outer.policy(prompt, attempt)
                    with outer.lock:
                        outer.log.append((time.monotonic(), prompt, attempt, reply.status))
                    if reply.hold:
                        outer._stopped.wait()
                        return
                    with outer.lock:  # answered: no longer in flight, before the client can see the answer
                        outer.in_flight -= 1
                        answered = True
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
                    if not answered:
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

    def _pass_gate(self) -> None:
        """Called with ``lock`` held: go on if the gate allows one more answer, else wait until it opens."""
        if self._allowed is None:
            return
        if self._allowed > 0:
            self._allowed -= 1
            return
        generation = self._generation
        self.holding += 1
        self._gate.notify_all()
        self._gate.wait_for(lambda: self._generation != generation)

    def hold_after(self, n: int) -> None:
        """Answer ``n`` more requests, then hold each further one until ``release()``; requests held so far go on
        (to a client that may be gone) and do not count against the ``n``."""
        with self.lock:
            self._generation += 1
            self._allowed, self.holding = n, 0
            self._gate.notify_all()

    def release(self) -> None:
        """Let every held request go on, and answer all from now on."""
        with self.lock:
            self._generation += 1
            self._allowed, self.holding = None, 0
            self._gate.notify_all()

    def wait_held(self, k: int = 1, timeout: float = 300) -> None:
        """Return once ``k`` requests are held by the current gate. ``timeout`` only stops a test whose run died
        or hung (it raises): the moment this returns never depends on the machine's speed."""
        with self.lock:
            if not self._gate.wait_for(lambda: self.holding >= k, timeout):
                raise AssertionError(f"{self.holding} request(s) held after {timeout} s, expected {k}")

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopped.set()
        self.release()
        self._server.shutdown()
        self._server.server_close()
