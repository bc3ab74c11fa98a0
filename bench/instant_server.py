"""A minimal OpenAI-compatible chat-completions server that answers instantly (no model), for harness benchmarks.

    python bench/instant_server.py --port 8765 [--reply "The correct letter is: A"]

Every POST to /v1/chat/completions gets the same small completion, so what a benchmark measures is the cost of the
client side (the harness), not of a model. Runs on uvicorn + starlette (installed with llama-cpp-python[server]).
"""

from __future__ import annotations

import argparse
import json

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


def make_app(reply: str) -> Starlette:
    body = json.dumps(
        {
            "id": "chatcmpl-instant",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply}}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 4, "total_tokens": 16},
        }
    ).encode()

    async def chat(request: Request) -> Response:
        await request.body()  # read the request as a real server must
        return Response(body, media_type="application/json")

    async def models(request: Request) -> Response:
        return Response(b'{"object": "list", "data": [{"id": "m", "object": "model"}]}', media_type="application/json")

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"]), Route("/v1/models", models)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--reply", default="Yes, because the answer is correct.")
    args = ap.parse_args()
    uvicorn.run(make_app(args.reply), host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
