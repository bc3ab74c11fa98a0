"""Spending guards: ``--max-requests`` and ``--max-cost`` with per-model token prices.

A run that would go over budget stops before sending the request that would cross the line; requests already
in flight finish and are cached, so the same command resumes where it stopped. The cost check is conservative:
before sending, a request is charged its estimated prompt tokens plus its full ``max_tokens``; after it
returns, the estimate is replaced by the tokens the server reports (``usage``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from xlingmed.errors import ConfigError
from xlingmed.models.base import is_free
from xlingmed.models.pacing import estimate_tokens
from xlingmed.types import Completion, GenerateRequest


@dataclass(frozen=True)
class Price:
    """USD per million prompt (input) and completion (output) tokens."""

    prompt: float
    completion: float

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (prompt_tokens * self.prompt + completion_tokens * self.completion) / 1e6


def parse_prices(specs: Mapping[str, object] | list[str] | None) -> dict[str, Price]:
    """``["openai/gpt-4o=2.5,10"]`` or ``{"openai/gpt-4o": [2.5, 10]}`` → ``{model: Price}`` (USD / 1M tokens).

    Raises:
        ConfigError: a spec that is not ``provider/model=IN,OUT`` with two non-negative numbers.
    """
    if not specs:
        return {}
    pairs: list[tuple[str, object]] = []
    if isinstance(specs, Mapping):
        pairs = [(str(k), v) for k, v in specs.items()]
    else:
        for spec in specs:
            model, sep, text = str(spec).partition("=")
            if not sep:
                raise ConfigError(f"prices: {spec!r} must be provider/model=IN,OUT (USD per 1M tokens)")
            pairs.append((model.strip(), text))
    out: dict[str, Price] = {}
    for model, value in pairs:
        parts: Any = value.split(",") if isinstance(value, str) else value
        try:
            pin, pout = (float(p) for p in parts)
        except (TypeError, ValueError):
            raise ConfigError(
                f"prices: {model}: expected two numbers IN,OUT (USD per 1M prompt, completion tokens), got {value!r}"
            ) from None
        if not (0 <= pin < math.inf and 0 <= pout < math.inf) or "/" not in model:  # NaN fails both: no bypass
            raise ConfigError(f"prices: {model}={value!r}: need provider/model and two finite, non-negative prices")
        out[model] = Price(pin, pout)
    return out


def request_tokens(request: GenerateRequest) -> int:
    """Estimated prompt tokens of ``request`` (see ``estimate_tokens``)."""
    return sum(estimate_tokens(m.content) for m in request.messages)


@dataclass
class Budget:
    """What this invocation may still send. ``None`` limits are unlimited.

    Raises (``check_prices``):
        ConfigError: ``max_cost`` set but a remote model has no price.
    """

    max_requests: int | None = None
    max_cost: float | None = None
    prices: dict[str, Price] = field(default_factory=dict)
    price_sources: dict[str, str] = field(default_factory=dict)  # model → where a price not from --price came from
    sent: int = 0
    spent: float = 0.0
    reserved: float = 0.0
    stopped: str | None = None

    def price(self, model_id: str) -> Price:
        if model_id in self.prices:
            return self.prices[model_id]
        return Price(0.0, 0.0)  # in-process models cost nothing; remote ones are checked by check_prices

    def check_prices(self, model_ids: list[str]) -> None:
        if self.max_cost is None:
            return
        missing = [m for m in model_ids if m not in self.prices and not is_free(m)]
        if missing:
            raise ConfigError(
                f"--max-cost needs a price for {', '.join(missing)}: add --price MODEL=IN,OUT "
                "(USD per 1M prompt and completion tokens)"
            )

    def estimate(self, model_id: str, request: GenerateRequest) -> float:
        return self.price(model_id).cost(request_tokens(request), request.limit())

    def try_reserve(self, model_id: str, request: GenerateRequest) -> float | None:
        """Reserve the worst-case cost of one request; ``None`` (and ``stopped`` set) when over budget."""
        if self.stopped is not None:
            return None
        if self.max_requests is not None and self.sent >= self.max_requests:
            self.stopped = f"--max-requests {self.max_requests} reached"
            return None
        est = self.estimate(model_id, request)
        if self.max_cost is not None and self.spent + self.reserved + est > self.max_cost:
            self.stopped = (
                f"--max-cost {self.max_cost:g} USD reached (spent {self.spent:.4f}, next request up to {est:.4f})"
            )
            return None
        self.sent += 1
        self.reserved += est
        return est

    def settle(self, model_id: str, reserved: float, completion: Completion) -> None:
        """Replace a reservation by the cost the server reports (failed requests are charged what they used)."""
        self.reserved -= reserved
        self.spent += self.price(model_id).cost(completion.prompt_tokens, completion.completion_tokens)
