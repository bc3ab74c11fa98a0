"""The model's own turn in a reply: past its reasoning block, up to the first end-of-turn token.

Local models run with a raw chat template often write past their turn ("c<|end|><|user|>問題: …<|assistant|>a"),
leave special tokens in the text ("b<unused95>b", "e<|END_RESPONSE|>"), and reasoning models wrap their thinking
in ``<think>…</think>``. The answer is what the model said in its turn after its thinking: a reply whose thinking
never closed said nothing final (issue 59: a careful reader labels it "commits to none", whatever options the
thinking weighed).
"""

from __future__ import annotations

import re
from functools import lru_cache

import regex

from xlingmed.languages import LANGUAGES

# tokens that end a turn in the chat templates of common open models (Phi, Qwen/ChatML, Llama 3, Gemma, Cohere,
# Mistral/Llama 2, GPT-2 style), and the next speaker's tag when the end token was dropped
_END_OF_TURN = regex.compile(
    r"<\|(?:end|im_end|eot_id|endoftext|END_RESPONSE|END_OF_TURN_TOKEN|user|im_start|start_header_id)[^<>|\n]{0,20}"
    r"(?:\|>|(?=<))|<end_of_turn>|<start_of_turn>|</s>|<eos>"
    # GAOKAO-Bench's end-of-answer mark after the answer ("[正确答案]B<eoa>"; a model that goes on to invent
    # questions and answer them answered there), not the prompt's words about it ("写在[正确答案]和<eoa>之间")
    r"|(?<=[A-Za-z0-9)\]】]\s{0,3})<eoa>",
)
# <eoa>: the end-of-answer mark GAOKAO-Bench-style prompts ask for, where it ends no answer (the prompt echoed)
_SPECIAL = regex.compile(r"<\|[^<>|\n]{1,40}\|>|<unused\d{1,4}>|<(?:bos|pad|s|eoa)>")
_THINK_OPEN = regex.compile(r"<(?:think|thinking|reasoning)>", regex.I)
_THINK_CLOSE = regex.compile(r"</(?:think|thinking|reasoning)>", regex.I)


_EXCEL_ESCAPE = regex.compile(r"_x(00[01][0-9a-fA-F])_")


def _unescape(m: regex.Match[str]) -> str:
    return chr(int(m.group(1), 16))


@lru_cache(maxsize=1)
def _run_on_patterns() -> tuple[re.Pattern[str], re.Pattern[str], regex.Pattern[str]]:
    """A line that opens a question ("## Medical Question", "Question:", "السؤال:"), a short line that answers
    one ("**Answer:** D", "The answer is B", "Correct letter: ١", "الإجابة: ب"), and a line that presents an
    example (a few-shot prompt echoed: its answer is the example's)."""
    questions = {"question", *(lang.field_label("question").lower().rstrip(":： ") for lang in LANGUAGES.values())}
    answers = {"answer", "final answer", "correct letter", "the correct letter is",
               *(lang.field_label("answer").lower().rstrip(":： ") for lang in LANGUAGES.values())}  # fmt: skip
    q = "|".join(regex.escape(w) for w in sorted(questions, key=len, reverse=True))
    a = "|".join(regex.escape(w) for w in sorted(answers, key=len, reverse=True))
    # re for the two that scan every line of every reply: it finds line starts several times faster than regex
    return (
        re.compile(
            rf"(?im)^[ \t#*_>]*(?:(?:medical|clinical|next|new)[ \t]+)?(?:{q})(?:[ \t]*\d{{1,3}})?[ \t*_]*(?:[:：]|$)"
        ),
        # "The answer is (G)." closes a line of reasoning as well as standing on its own
        re.compile(rf"(?im)(?:^[ \t#*_>]*(?:{a})[ \t*_]*[:：]|the answer is)[ \t*_]*[^\n]{{1,40}}$"),
        regex.compile(r"(?i)example|ejemplo|exemple|beispiel|مثال|例"),
    )


def _cut_run_on(text: str) -> str:
    """``text`` up to a question that opens after the reply's answer line: the model answered and ran on into a
    question it made up ("**Answer:** D\n\n## Medical Question\n\nA 30-year-old…"). An answer line under an
    example (a few-shot prompt the model echoed) does not count."""
    question, answer, example = _run_on_patterns()
    for a in answer.finditer(text):  # the first answer line not under an example, then the first question after it
        if example.search(text, max(0, a.start() - 80), a.start()):
            continue
        for q in question.finditer(text, a.end()):
            if not _quoted(text, q.start()):
                return text[: q.start()]
        return text
    return text


def _quoted(text: str, at: int) -> bool:
    """The question line at ``at`` is one the reply quotes, not one it made up: the line before it introduces it
    ("The user's last question is here:") or it is cut short ("Question: ... How many stones…")."""
    before = text[:at].rstrip()
    line = text[at : text.find("\n", at) if "\n" in text[at:] else len(text)]
    return before.endswith((":", "：")) or "..." in line or "…" in line


def own_turn(text: str) -> str | None:
    """``text`` past its last closed reasoning block, cut at the first end-of-turn token that follows some text,
    without other special tokens; ``None`` where the reply is reasoning that never closed (no final answer).
    Control characters a spreadsheet escaped ("_x000d_": openpyxl's carriage return, in logs kept as .xlsx) are
    unescaped."""
    if "_x00" in text:
        text = _EXCEL_ESCAPE.sub(_unescape, text)
    if len(text) > 40 and "\n" in text:
        text = _cut_run_on(text)
    if "<" not in text:
        return text
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end() :]
    elif _THINK_OPEN.search(text):
        return None
    for m in _END_OF_TURN.finditer(text):
        if _SPECIAL.sub("", text[: m.start()]).strip():
            text = text[: m.start()]
            break
    return str(_SPECIAL.sub("\n", text))  # "b<unused95>b": two lines, not the word "bb"


# a reply never ends on a word, a comma, an open bracket or an operator ("…the expression is a <")
_NEVER_LAST = frozenset(",:、，：")
_CUT = regex.compile(r"[\p{L}\p{N},、，(<=+/]")
CUT_MIN_CHARS = 1000  # a reply this long that ends inside a sentence ran into its token limit (256 tokens: ~1,000)


def stops_mid_sentence(t: str, cut_off: bool = False) -> bool:
    """A long reply cut before its end: ``cut_off`` (it stopped at its token limit) or its last line ends inside a
    sentence (a letter, a digit or a comma, no full stop, bracket or markup). Replies whose prompt demanded an
    answer line and which ran out of tokens deliberating look like this. A reply cut inside a code block it opened
    after prose that ended ("…points towards option A.\n\n```json\n{\"reasoning\": …") had concluded: not cut."""
    if len(t) < CUT_MIN_CHARS:
        return False
    if t.count("```") % 2:
        return not _ENDED.search(t[: t.rfind("```")])
    if cut_off:
        return True
    if t.rstrip()[-1:] in _NEVER_LAST:
        return True  # "…So,", "…Option D:": a reply never ends on a comma or a colon
    if not _CUT.match(t.rstrip()[-1:]):
        return False  # the last character (a search for "…\s*$" would try every position of a long reply)
    last = t.rstrip().rsplit("\n", 1)[-1]
    word = last.rsplit(None, 1)[-1].strip("*_()[]") if last.strip() else ""
    if _NO_FULL_STOP.match(last.rstrip()[-1:]):
        return False  # Thai, Lao, Khmer and Burmese end a sentence with a space, not a full stop
    if len(word) == 1 and "A" <= word <= "J":
        return False  # "…the answer is C"
    return len(last) > 40 or len(last.split()) >= 3  # "Wait, but I'm": a thought cut short


_NO_FULL_STOP = regex.compile(r"[\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}]")


_ENDED = regex.compile(r"[.!?。！？)\]」』*]\s*$")
