"""How fast a remote backend is asked: adaptive concurrency, rate limits and retry delays.

A long evaluation against a rate-limited API must neither hammer it nor crawl. ``AdaptiveConcurrency`` is the
TCP-style AIMD rule: halve the requests in flight when the server says it is overloaded (429, 503), add one
back per window of successes, never above the configured ceiling; a ``Retry-After`` pauses every request of
that backend, since the server's limit is shared. ``RateLimits`` wraps ``aiolimiter`` for optional
requests-per-minute and tokens-per-minute ceilings. ``RetryPolicy`` gives capped exponential backoff with full
jitter (AWS Architecture Blog, "Exponential Backoff and Jitter", 2015), honouring ``Retry-After`` up to a cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass

from aiolimiter import AsyncLimiter


class AdaptiveConcurrency:
    """A semaphore whose size follows the server's health (additive increase, multiplicative decrease).

    Args:
        ceiling: the most requests in flight (``--max-concurrency``); the limit starts there.
        floor: the fewest (default 1).

    Use ``async with limiter.slot() as started:`` around one request, then ``limiter.overloaded(started,
    retry_after_s)`` or ``limiter.succeeded()``. Overload signals from requests that started before the last
    decrease are ignored, so one burst of 429s halves the limit once, not once per request.
    """

    def __init__(self, ceiling: int, floor: int = 1) -> None:
        if ceiling < 1 or floor < 1 or floor > ceiling:
            raise ValueError(f"need 1 <= floor <= ceiling, got floor={floor}, ceiling={ceiling}")
        self.ceiling = ceiling
        self.floor = floor
        self._limit = float(ceiling)
        self._in_flight = 0
        self._cond = asyncio.Condition()
        self._last_decrease = float("-inf")
        self._paused_until = 0.0
        self.peak_in_flight = 0
        self.decreases = 0

    @property
    def limit(self) -> int:
        """Requests allowed in flight now."""
        return max(self.floor, int(self._limit))

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def slot(self) -> _Slot:
        return _Slot(self)

    async def _acquire(self) -> float:
        async with self._cond:
            while True:
                wait = self._paused_until - time.monotonic()
                if wait > 0:
                    # a Retry-After pause: sleep it out, then look again (it may have been extended)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._cond.wait(), timeout=wait)
                    continue
                if self._in_flight < self.limit:
                    break
                await self._cond.wait()
            self._in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
            return time.monotonic()

    async def _release(self) -> None:
        async with self._cond:
            self._in_flight -= 1
            self._cond.notify_all()

    def succeeded(self) -> None:
        """One healthy answer: grow by 1/limit, i.e. by one slot after ``limit`` successes."""
        self._limit = min(float(self.ceiling), self._limit + 1.0 / max(self._limit, 1.0))

    def overloaded(self, started: float, retry_after_s: float | None = None) -> None:
        """The server pushed back (429/503): halve the limit once per burst; pause everyone for Retry-After."""
        if retry_after_s is not None and retry_after_s > 0:
            self._paused_until = max(self._paused_until, time.monotonic() + retry_after_s)
        if started >= self._last_decrease:
            self._limit = max(float(self.floor), self._limit / 2.0)
            self._last_decrease = time.monotonic()
            self.decreases += 1


class _Slot:
    def __init__(self, limiter: AdaptiveConcurrency) -> None:
        self._limiter = limiter

    async def __aenter__(self) -> float:
        return await self._limiter._acquire()

    async def __aexit__(self, *exc: object) -> None:
        await self._limiter._release()


class RateLimits:
    """Optional requests-per-minute and tokens-per-minute ceilings (leaky buckets from ``aiolimiter``).

    Requests are spaced evenly (one every 60/rpm seconds, no burst: providers also count per second); tokens may
    come in a burst of one minute's worth, since one request can be larger than a second's share. Tokens are
    counted before sending, as the prompt estimate plus ``max_tokens`` (what providers reserve).
    """

    def __init__(self, rpm: float | None = None, tpm: float | None = None) -> None:
        self._rpm = AsyncLimiter(1, 60.0 / rpm) if rpm else None
        self._tpm = AsyncLimiter(tpm, 60.0) if tpm else None
        self._tpm_cap = float(tpm or 0)

    async def acquire(self, tokens: int) -> None:
        if self._rpm is None and self._tpm is None:
            return
        if self._rpm is not None:
            await self._rpm.acquire()
        if self._tpm is not None:
            # a request larger than a minute's budget waits for a full bucket instead of failing forever
            await self._tpm.acquire(min(float(tokens), self._tpm_cap))


@dataclass(frozen=True)
class RetryPolicy:
    """How many times and how long to wait before resending a failed request.

    Attributes:
        max_retries: resends after the first try (0 = try once); then the request is recorded as failed.
        base_s: the first backoff ceiling, seconds; doubles per attempt.
        cap_s: the longest single wait, seconds, also for a server's ``Retry-After``.
    """

    max_retries: int = 5
    base_s: float = 0.5
    cap_s: float = 60.0

    def delay(self, attempt: int, retry_after_s: float | None = None, rng: random.Random | None = None) -> float:
        """Seconds to wait before attempt ``attempt + 1`` (``attempt`` counts from 0).

        ``Retry-After`` wins when the server sent one (capped); otherwise full jitter:
        uniform(0, min(cap, base · 2^attempt)).
        """
        if retry_after_s is not None and retry_after_s >= 0:
            return min(retry_after_s, self.cap_s)
        ceiling = min(self.cap_s, self.base_s * (2.0**attempt))
        return (rng or random).uniform(0.0, ceiling)


def estimate_tokens(text: str) -> int:
    """Rough token count for plans and budgets: ≈ 4 ASCII characters per token, and one token per other
    character (Chinese, Hindi and Arabic text takes about that or less), so the estimate errs high."""
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return max(1, (ascii_chars + 3) // 4 + (len(text) - ascii_chars))
