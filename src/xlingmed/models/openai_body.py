"""The fields of an OpenAI-compatible chat or text completion that xlingmed reads, validated (pydantic), and the
first choice as a ``Completion``: text, refusal (or a content filter), finish reason, token counts and log-probs
(chat's ``content`` list, or ``/v1/completions``' parallel lists). A 200 whose body is not one fails validation."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from xlingmed.types import Completion, TokenLogprob


class _Fields(BaseModel):
    # from_attributes: LiteLLM's response objects (same attribute names as the SDK's) validate too
    model_config = ConfigDict(from_attributes=True)


class _TopLogprob(_Fields):
    token: str
    logprob: float


class _TokenLogprob(_Fields):
    token: str
    logprob: float
    top_logprobs: list[_TopLogprob] | None = None


class _Logprobs(_Fields):
    content: list[_TokenLogprob] | None = None  # chat
    tokens: list[str] | None = None  # /v1/completions: parallel lists, alternatives as {token: logprob}
    token_logprobs: list[float | None] | None = None
    top_logprobs: list[dict[str, float] | None] | None = None


class _Message(_Fields):
    content: str | None = None
    refusal: str | None = None


class _Choice(_Fields):
    message: _Message | None = None  # chat
    text: str | None = None  # /v1/completions
    finish_reason: str | None = None
    logprobs: _Logprobs | None = None


class _Usage(_Fields):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class ResponseBody(_Fields):
    """The fields of a chat or text completion that are read, validated (a 200 that is not one is malformed)."""

    choices: list[_Choice] = []
    usage: _Usage | None = None


def first_completion(body: ResponseBody, latency_s: float = 0.0) -> Completion:
    """The first choice of a validated body (which has one) as a Completion."""
    choice = body.choices[0]
    message = choice.message
    text = (message.content if message is not None else choice.text) or ""
    refusal = message.refusal if message is not None else None
    if choice.finish_reason == "content_filter" and not refusal:
        refusal = "content_filter"
    usage = body.usage
    return Completion(
        text=text,
        finish_reason=choice.finish_reason,
        prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
        completion_tokens=(usage.completion_tokens or 0) if usage else 0,
        logprobs=_logprobs(choice.logprobs),
        latency_s=latency_s,
        refusal=refusal,
    )


def _logprobs(logprobs: _Logprobs | None) -> tuple[TokenLogprob, ...] | None:
    if logprobs is None:
        return None
    content, tokens = logprobs.content, logprobs.tokens
    if not content and tokens:  # /v1/completions: parallel lists, alternatives as {token: logprob}
        values = logprobs.token_logprobs or []
        tops = logprobs.top_logprobs or []
        return tuple(
            TokenLogprob(
                token=t,
                logprob=float(v) if v is not None else float("nan"),
                top=dict(tops[i] or {}) if i < len(tops) else {},
            )
            for i, (t, v) in enumerate(zip(tokens, values, strict=False))
        )
    if not content:
        return None
    return tuple(
        TokenLogprob(token=t.token, logprob=t.logprob, top={alt.token: alt.logprob for alt in (t.top_logprobs or [])})
        for t in content
    )
