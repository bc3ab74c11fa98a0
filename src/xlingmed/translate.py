"""Back-translation into English through any model, cached like every other generation.

XLingEval computes every consistency metric of es/zh/hi on English back-translations of the answers (spec
``xlingeval.md`` §3.2), because its encoders, tokenizers, stopwords and topic models are English. The authors
used googletrans (network-only, nondeterministic); their code also holds a disabled LLM path, whose prompt
(spec Appendix A.3: temperature 0, backticks stripped) is used here with whichever ``provider/model`` the
user names as ``--translator``. The translator id is recorded with every number it produced.
"""

from __future__ import annotations

import re

from xlingmed.languages import get_language
from xlingmed.types import GenerateRequest, Message

TRANSLATOR_SYSTEM = "Assistant is a translator, linguist, spelling corrector and improver."
TRANSLATE_TEMPLATE = (
    "Translate the following from {source} to {target}. The input is delimited with triple backticks. "
    "\nInput: ```{text}```\nOutput:"
)
_FENCE = re.compile(r"```")


def translation_request(
    text: str, source_lang: str, target_lang: str = "en", *, max_tokens: int = 1000, seed: int | None = None
) -> GenerateRequest:
    """The request that translates ``text`` from ``source_lang`` to ``target_lang`` (ISO codes), τ = 0.

    Raises:
        ConfigError: an unknown language code.
    """
    prompt = TRANSLATE_TEMPLATE.format(
        source=get_language(source_lang).name, target=get_language(target_lang).name, text=text
    )
    return GenerateRequest(
        messages=(Message("system", TRANSLATOR_SYSTEM), Message("user", prompt)),
        temperature=0.0,
        max_tokens=max_tokens,
        seed=seed,
    )


def clean_translation(text: str) -> str:
    """The translator's reply without triple backticks and surrounding whitespace (spec §3.2)."""
    return _FENCE.sub("", text).strip()
