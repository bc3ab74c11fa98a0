"""OpenAI's Batch API (``openai/… -M batch=true``): JSONL upload (``files.create(purpose="batch")``),
``batches.create``, ``batches.retrieve`` until it ends, then its output and error files. The common part (ledger,
resends) is ``models/batch.py``."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from xlingmed.models.batch import PERMANENT_STATUS
from xlingmed.types import Completion

FINAL = frozenset({"completed", "failed", "expired", "cancelled"})


class OpenAIBatches:
    """``client``: an ``openai.AsyncOpenAI``; ``read``: the backend's reader of a 200 body (chat or text
    completion JSON) into a ``Completion``."""

    def __init__(self, client: Any, read: Callable[[dict[str, Any]], Completion]) -> None:
        self.client = client
        self.read = read
        self._ended: dict[str, Any] = {}

    def endpoint(self, body: dict[str, Any]) -> str:
        return "/v1/completions" if "prompt" in body else "/v1/chat/completions"

    async def submit(self, keys: Sequence[str], bodies: Sequence[dict[str, Any]]) -> str:
        lines = [
            json.dumps({"custom_id": k, "method": "POST", "url": self.endpoint(b), "body": b}, ensure_ascii=False)
            for k, b in zip(keys, bodies, strict=True)
        ]
        upload = await self.client.files.create(
            file=("xlingmed-batch.jsonl", ("\n".join(lines) + "\n").encode("utf-8")), purpose="batch"
        )
        batch = await self.client.batches.create(
            input_file_id=upload.id, endpoint=self.endpoint(bodies[0]), completion_window="24h"
        )
        return str(batch.id)

    async def ended(self, batch_id: str) -> bool:
        batch = await self.client.batches.retrieve(batch_id)
        if batch.status in FINAL:
            self._ended[batch_id] = batch
            return True
        return False

    async def results(self, batch_id: str) -> dict[str, Completion]:
        batch = self._ended.pop(batch_id)
        out: dict[str, Completion] = {}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            content = await self.client.files.content(file_id)
            for line in content.text.split("\n"):  # not splitlines(): a reply may hold U+2028 raw
                if line.strip():
                    key, comp = self._line(json.loads(line))
                    out[key] = comp
        return out

    def _line(self, line: dict[str, Any]) -> tuple[str, Completion]:
        key = str(line.get("custom_id"))
        response = line.get("response") or {}
        status = int(response.get("status_code") or 0)
        body = response.get("body") or {}
        if status == 200 and isinstance(body, dict):
            return key, self.read(body)
        err = (body.get("error") if isinstance(body, dict) else None) or line.get("error") or {}
        message = err.get("message", "") if isinstance(err, dict) else str(err)
        return key, Completion(
            text="", error=f"batch line failed ({status or 'no status'}): {message}"[:500],
            permanent=status in PERMANENT_STATUS,
        )  # fmt: skip
