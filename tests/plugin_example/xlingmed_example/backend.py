"""A backend: ``echo/<text>`` answers every request with ``<text>``, in process and for free."""

import time

from pydantic import BaseModel, ConfigDict

from xlingmed.models.base import ModelOptions
from xlingmed.types import Completion, GenerateRequest


class EchoModel:
    """Answers every request with the text after ``echo/`` (-M suffix=… appends to it)."""

    in_process = True
    open_weights = True
    free = True
    supports_logprobs = False
    max_concurrency = 4

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")
        suffix: str = ""

    def __init__(self, name: str, options: ModelOptions) -> None:
        self.model_id = f"echo/{name}"
        self.reply = name + self.Options(**dict(options.args)).suffix

    async def generate(self, request: GenerateRequest) -> Completion:
        start = time.perf_counter()
        words = len(self.reply.split())
        return Completion(self.reply, "stop", completion_tokens=words, latency_s=time.perf_counter() - start)

    async def aclose(self) -> None:
        pass
