"""MedAlpaca's prompts for XLingEval's three tasks (spec xlingeval.md §6.2, §6.3; Appendix A.6).

The authors prompted MedAlpaca with the Alpaca template, sent verbatim (no chat template):
``{primer}\\n\\n### Instruction:\\n{instruction}\\n\\n### Input:\\n{input}\\n\\n### Response:\\n{output_prefix}``.
xlingmed builds the same text and sends it as a ``raw_prompt`` request, which the in-process engines (``hf/``,
``llamacpp/``, ``vllm/``) give to the model as is.

Decisions where the authors' code is ambiguous (spec §6.3 [DECIDE]), recorded in the run's config:

* Consistency and verifiability primer: the authors' HEAD sends the literal placeholder ``LANGUAGE_NAME`` (the
  substitution's result was discarded). xlingmed uses their per-language primers from before 2023-10-23, the
  ones in use when the paper's results were produced, and the placeholder's evident intent (the language's
  English name substituted) for any other language.
* Response extraction (§6.2): the authors decoded the whole sequence, split on ``### Response:`` plus the
  output prefix and removed ``<unk>`` and ``</s>``. xlingmed's engines return only the continuation, with special
  tokens skipped, so there is nothing to split or remove.
"""

from __future__ import annotations

from xlingmed.languages import get_language
from xlingmed.types import GenerateRequest, Item, Message

TEMPLATE = "{primer}\n\n### Instruction:\n{instruction}\n\n### Input:\n{input}\n\n### Response:\n{output_prefix}"

CORRECTNESS_PRIMER = "Write a response that appropriately answers the question."  # English for every language
CORRECTNESS_PREFIX = "Output:"
# the correctness instruction is the GPT answer prompt (tasks/common.py ANSWER_SYSTEM), spec §6.3

# before 2023-10-23 (spec §6.3): one primer per language; the HEAD's English text with the language substituted
# for the others
PRIMERS = {
    "en": "Write a response in English language that appropriately answers the question",
    "es": "Escribe una respuesta en español que responda apropiadamente a la pregunta.",
    "zh": "用中文回答以下问题。",
    "hi": "निम्नलिखित प्रश्न का उत्तर हिन्दी में दीजिए।",
}
PRIMER_OTHER = "Write a response in {language} that appropriately answers the question"
CONSISTENCY_INSTRUCTION = "Answer this question in {language}."
VERIFIABILITY_INSTRUCTION = "Answer me 'Yes' or 'No'."
VERIFIABILITY_INPUT = "Question: {question}\nResponse: {answer}"
ANSWER_PREFIX = "The answer to the question is:"

# the authors' sampling (spec Appendix B): do_sample with these, fp16, left padding; 0.001 stands in for 0
# because transformers cannot sample at temperature 0
TOP_K = 50
TOP_P = 0.9
MAX_NEW_TOKENS = 512
TEMPERATURES = (0.001, 0.25, 0.5, 0.75, 1.0)
GREEDY_TEMPERATURE = 0.001


def alpaca(primer: str, instruction: str, input_text: str, output_prefix: str) -> str:
    """The Alpaca prompt of spec §6.2 (a single string)."""
    return TEMPLATE.format(primer=primer, instruction=instruction, input=input_text, output_prefix=output_prefix)


def primer(lang: str) -> str:
    """The consistency and verifiability primer of ``lang`` (see the module docstring's decision)."""
    return PRIMERS.get(lang) or PRIMER_OTHER.format(language=get_language(lang).name)


def correctness_prompt(item: Item, instruction: str) -> str:
    """Correctness (§6.3): the English primer, the GPT answer prompt as instruction, the question as input."""
    return alpaca(CORRECTNESS_PRIMER, instruction, item.question, CORRECTNESS_PREFIX)


def consistency_prompt(item: Item) -> str:
    """Consistency (§6.3): "Answer this question in {Language}." with the question as input."""
    language = get_language(item.lang).name
    return alpaca(primer(item.lang), CONSISTENCY_INSTRUCTION.format(language=language), item.question, ANSWER_PREFIX)


def verifiability_prompt(item: Item, answer: str) -> str:
    """Verifiability (§6.3): "Answer me 'Yes' or 'No'." with ``Question: …\\nResponse: …`` as input."""
    return alpaca(
        primer(item.lang),
        VERIFIABILITY_INSTRUCTION,
        VERIFIABILITY_INPUT.format(question=item.question, answer=answer),
        ANSWER_PREFIX,
    )


def request(
    prompt: str,
    *,
    temperature: float,
    max_tokens: int | None,
    seed: int | None,
    sample_index: int = 0,
    logprobs: bool = False,
    top_logprobs: int = 0,
) -> GenerateRequest:
    """A verbatim-prompt request. ``top_p``/``top_k`` come from the run (``--preset medalpaca`` sets the
    authors' 0.9 and 50), like every other task's."""
    return GenerateRequest(
        messages=(Message("user", prompt),),
        temperature=temperature,
        max_tokens=max_tokens,
        seed=seed,
        sample_index=sample_index,
        logprobs=logprobs,
        top_logprobs=top_logprobs,
        raw_prompt=True,
    )
