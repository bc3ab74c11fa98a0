"""A local server with OpenAI's documented Batch API endpoints (the only way to test batches offline).

``BatchServer(policy, polls=N)`` answers ``POST /v1/files`` (multipart upload, ``purpose=batch``),
``POST /v1/batches``, ``GET /v1/batches/{id}`` (``validating`` → ``in_progress`` → ``completed`` after ``polls``
retrievals; ``expire`` ends it ``expired`` with only part of the lines answered), ``GET /v1/files/{id}/content``
(output and error JSONL), and ``POST /v1/chat/completions`` for single requests; and Anthropic's
``POST /v1/messages/batches``, ``GET /v1/messages/batches/{id}`` (``in_progress`` → ``ended``), its results JSONL
and ``POST /v1/messages``. Every line and every single
request is answered by ``policy(prompt, attempt)`` from ``fault_server``. ``server.polled`` is set at the first
retrieval of a batch: a test that interrupts a run waiting on its batch does it then, never after a delay.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import Counter
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fault_server import Policy


def _prompt(body: dict[str, Any]) -> str:
    if "prompt" in body:
        return str(body["prompt"])
    content = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
    if isinstance(content, list):  # Anthropic's content blocks, as LiteLLM sends them
        content = "".join(block.get("text", "") for block in content)
    return str(content)


def anthropic_reply(reply: Any) -> tuple[int, dict[str, Any]]:
    """A policy's OpenAI-shaped reply as Anthropic would send it: a message, or an error of the matching type."""
    body = json.loads(reply.body)
    if reply.status == 200:
        text = body["choices"][0]["message"]["content"]
        return 200, {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
                     "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
                     "usage": {"input_tokens": 10, "output_tokens": 2}}  # fmt: skip
    kind = "invalid_request_error" if reply.status == 400 else "api_error"
    return reply.status, {"type": "error", "error": {"type": kind, "message": body["error"]["message"]}}


class BatchServer:
    """``with BatchServer(policy) as server:``; ``server.url`` is the ``/v1`` base URL."""

    def __init__(self, policy: Policy, polls: int = 2, expire_after: int | None = None) -> None:
        self.policy = policy
        self.polls = polls
        self.expire_after = expire_after  # answer only this many lines, then end "expired"
        self.lock = threading.Lock()
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.retrievals: Counter[str] = Counter()
        self.seen: Counter[str] = Counter()  # prompt → times answered (batch lines and single requests)
        self.single_requests = 0
        self.keys_seen: list[str] = []  # x-api-key of every Anthropic request
        self.anthropic_results: dict[str, bytes] = {}
        self.ids = itertools.count(1)
        self.polled = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # as fault_server.py: no 40 ms delayed-ACK wait per kept-alive request

            def _send(self, status: int, body: str | bytes, ctype: str = "application/json") -> None:
                data = body.encode() if isinstance(body, str) else body
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path.endswith("/files"):
                    msg = BytesParser(policy=HTTP).parsebytes(
                        f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode() + raw
                    )
                    content = next(part.get_payload(decode=True) for part in msg.iter_parts() if part.get_filename())
                    fid = outer.add_file(content)
                    meta = {"id": fid, "object": "file", "bytes": len(content), "created_at": 0,
                            "filename": "in.jsonl", "purpose": "batch", "status": "processed"}  # fmt: skip
                    self._send(200, json.dumps(meta))
                elif self.path.endswith("/messages/batches"):  # Anthropic's Message Batches
                    outer.keys_seen.append(self.headers.get("x-api-key", ""))
                    with outer.lock:
                        bid = f"msgbatch_{next(outer.ids)}"
                        outer.batches[bid] = {"id": bid, "type": "message_batch", "processing_status": "in_progress",
                                              "results_url": None, "requests": json.loads(raw)["requests"]}  # fmt: skip
                    self._send(200, json.dumps({k: v for k, v in outer.batches[bid].items() if k != "requests"}))
                elif self.path.endswith("/messages"):  # one Anthropic message (LiteLLM's single path)
                    outer.keys_seen.append(self.headers.get("x-api-key", ""))
                    outer.single_requests += 1
                    status, body = anthropic_reply(outer.answer(_prompt(json.loads(raw))))
                    self._send(status, json.dumps(body))
                elif self.path.endswith("/batches"):
                    req = json.loads(raw)
                    bid = f"batch_{next(outer.ids)}"
                    with outer.lock:
                        outer.batches[bid] = {"id": bid, "object": "batch", "endpoint": req["endpoint"],
                                              "input_file_id": req["input_file_id"], "completion_window": "24h",
                                              "created_at": 0, "status": "validating"}  # fmt: skip
                    self._send(200, json.dumps(outer.batches[bid]))
                else:  # a single chat or text completion
                    body = json.loads(raw)
                    outer.single_requests += 1
                    reply = outer.answer(_prompt(body))
                    self._send(reply.status, reply.body)

            def do_GET(self) -> None:
                parts = self.path.rstrip("/").split("/")
                if "messages" in parts and parts[-1] == "results":
                    self._send(200, outer.anthropic_results[parts[-2]], "application/x-jsonl")
                elif "messages" in parts:
                    self._send(200, json.dumps(outer.retrieve_anthropic(parts[-1])))
                elif "batches" in parts:
                    self._send(200, json.dumps(outer.retrieve(parts[-1])))
                elif parts[-1] == "content":
                    self._send(200, outer.files[parts[-2]], "application/octet-stream")
                else:
                    self._send(404, json.dumps({"error": {"message": "not found"}}))

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.root = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.url = f"{self.root}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def add_file(self, content: bytes) -> str:
        with self.lock:
            fid = f"file_{next(self.ids)}"
            self.files[fid] = content
        return fid

    def answer(self, prompt: str) -> Any:
        with self.lock:
            attempt = self.seen[prompt]
            self.seen[prompt] += 1
        return self.policy(prompt, attempt)

    def retrieve(self, bid: str) -> dict[str, Any]:
        batch = self.batches[bid]
        self.retrievals[bid] += 1
        self.polled.set()
        if batch["status"] in ("completed", "expired"):
            return batch
        if self.retrievals[bid] < self.polls:
            batch["status"] = "in_progress"
            return batch
        out, err = [], []
        lines = self.files[batch["input_file_id"]].decode().splitlines()
        for n, line in enumerate(x for x in lines if x.strip()):
            if self.expire_after is not None and n >= self.expire_after:
                break
            entry = json.loads(line)
            reply = self.answer(_prompt(entry["body"]))
            response = {"status_code": reply.status, "request_id": f"r{n}", "body": json.loads(reply.body)}
            row = {"id": f"req_{n}", "custom_id": entry["custom_id"], "error": None, "response": response}
            (out if reply.status == 200 else err).append(json.dumps(row))
        batch["output_file_id"] = self.add_file(("\n".join(out) + "\n").encode()) if out else None
        batch["error_file_id"] = self.add_file(("\n".join(err) + "\n").encode()) if err else None
        batch["status"] = "expired" if self.expire_after is not None else "completed"
        return batch

    def retrieve_anthropic(self, bid: str) -> dict[str, Any]:
        batch = self.batches[bid]
        self.retrievals[bid] += 1
        self.polled.set()
        if batch["processing_status"] == "in_progress" and self.retrievals[bid] >= self.polls:
            rows = []
            for n, entry in enumerate(batch["requests"]):
                if self.expire_after is not None and n >= self.expire_after:
                    rows.append({"custom_id": entry["custom_id"], "result": {"type": "expired"}})
                    continue
                status, body = anthropic_reply(self.answer(_prompt(entry["params"])))
                result = {"type": "succeeded", "message": body} if status == 200 else {"type": "errored", "error": body}
                rows.append({"custom_id": entry["custom_id"], "result": result})
            self.anthropic_results[bid] = ("\n".join(json.dumps(r) for r in rows) + "\n").encode()
            batch["processing_status"] = "ended"
            batch["results_url"] = f"{self.root}/v1/messages/batches/{bid}/results"
        return {k: v for k, v in batch.items() if k != "requests"}

    def __enter__(self) -> BatchServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def interrupted_while_polling(model: Any, requests: list[Any], server: BatchServer) -> None:
    """``model.generate_batch(requests)`` cancelled, as Ctrl-C cancels a run, once it polls the batch it submitted
    (``server.polled``); the model is closed after."""
    import asyncio
    import contextlib

    async def go() -> None:
        task = asyncio.ensure_future(model.generate_batch(requests))
        try:
            polled = await asyncio.to_thread(server.polled.wait, 300)  # 300 s only stop a hung test
            assert polled and not task.done(), "the batch was never polled"
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        finally:
            await model.aclose()

    asyncio.run(go())
