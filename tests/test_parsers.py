"""Parser tables: the judge's four labels and the verifiability yes/no (spec §2.2, §5.3, Appendix D)."""

from __future__ import annotations

import math

import pytest

from xlingmed.tasks.correctness.judge import OPTIONS, parse_judgement
from xlingmed.tasks.verifiability import clean_reply, p_yes, parse_medalpaca, parse_paper, parse_strict
from xlingmed.types import TokenLogprob

MORE = "Answer 2 provides more comprehensive and appropriate information"
LESS = "Answer 2 provides less comprehensive and appropriate information"


@pytest.mark.parametrize(
    ("reply", "label", "method"),
    [
        (f"Reasoning... blah.\n3) {MORE}", "more", "paper_tail"),
        ("Reasoning... blah.\nOption 3", "no_response", "unparsed"),
        (f"{MORE}. One. Two. Three. Four.", "no_response", "unparsed"),
        (f"blah\nChosen option: {LESS}.", "less", "paper_tail"),
        ("", "no_response", "empty"),
        (MORE.lower(), "no_response", "unparsed"),  # case-sensitive
        # options are tested in the order 1 -> 4, whatever order they appear in
        (f"{LESS}. {OPTIONS[0][1]}", "neither", "paper_tail"),
        (f"Two sentences. {OPTIONS[1][1]}", "contradictory", "paper_tail"),
    ],
)
def test_paper_judge_parser(reply: str, label: str, method: str) -> None:
    parsed = parse_judgement(reply)
    assert (parsed.value, parsed.method) == (label, method)


def test_fallback_takes_last_option_anywhere() -> None:
    reply = f"First I thought {LESS.lower()}, but then {MORE}. A. B. C. D."
    assert parse_judgement(reply).value == "no_response"
    parsed = parse_judgement(reply, "paper+fallback")
    assert (parsed.value, parsed.method) == ("more", "fallback_last_option")
    with pytest.raises(ValueError, match="unknown judge parser"):
        parse_judgement("x", "lenient")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Yes.", 1),
        ("No.", 0),
        ("Sí", 1),
        ("是的", 1),
        ("正确", 1),
        ("不正确", 0),
        ("हाँ", 1),
        ("नहीं", 0),
        ("The answer is yes", 1),
        ("**Unknown**", 0),
        ("I don't know", 0),
        ("Yes, but not always", -1),
        ("Correct", -1),
        ("Incorrect", -1),
        ("False", -1),
        ("Entailment", -1),
        ("是", -1),
    ],
)
def test_paper_yes_no_table(reply: str, expected: int) -> None:
    assert parse_paper(reply).value == expected


@pytest.mark.parametrize(
    ("reply", "method", "kind"),
    [
        ("No.", "paper_no_phrase", "read"),
        ("No es la respuesta.", "paper_no_phrase", "read"),
        ("不正确", "paper_no_phrase", "read"),
        ("I am not sure.", "paper_no_substring", "fallback"),  # the paper's No, from inside "not"
        ("**Unknown**", "paper_no_substring", "fallback"),
        ("I cannot tell", "paper_no_substring", "fallback"),
    ],
)
def test_a_no_read_from_inside_a_word_keeps_the_papers_value_and_counts_as_fallback(
    reply: str, method: str, kind: str
) -> None:
    parsed = parse_paper(reply)
    assert (parsed.value, parsed.method, parsed.kind) == (0, method, kind)


def test_clean_reply_strips_punctuation_and_capitalises() -> None:
    assert clean_reply("'YES.'") == "Yes"
    assert clean_reply("नहीं।") == "नहीं"


@pytest.mark.parametrize(
    ("reply", "lang", "expected"),
    [
        ("Yes", "en", 1),
        ("**No**, because", "en", 0),
        ("Nonsense", "en", -1),
        ("Not sure", "en", -1),
        ("Sí, es correcta", "es", 1),
        ("No", "es", 0),
        ("是的，这个答案正确", "zh", 1),
        ("不正确", "zh", 0),
        ("否", "zh", 0),
        ("हाँ, यह सही है", "hi", 1),
        ("नहीं", "hi", 0),
        ("Yes", "hi", 1),
        ("Unknown", "en", -1),
    ],
)
def test_strict_parser(reply: str, lang: str, expected: int) -> None:
    assert parse_strict(reply, lang).value == expected


def test_p_yes_from_first_content_token() -> None:
    lps = (
        TokenLogprob(" ", -0.01, {" ": -0.01}),
        TokenLogprob("Yes", math.log(0.6), {"Yes": math.log(0.6), "No": math.log(0.2), "The": math.log(0.1)}),
    )
    assert p_yes(lps, "en") == pytest.approx(0.75)
    assert p_yes(None, "en") is None
    assert p_yes((TokenLogprob("The", -0.1, {"The": -0.1}),), "en") is None
    zh = (TokenLogprob("是", math.log(0.3), {"是": math.log(0.3), "不": math.log(0.1)}),)
    assert p_yes(zh, "zh") == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("reply", "value", "method"),
    [
        # realistic MedAlpaca continuations of "### Response:\nThe answer to the question is:"
        (" Yes", 1, "medalpaca_yes"),
        (" No.", 0, "medalpaca_no"),
        ("\nYes, the response is factually correct.", 1, "medalpaca_yes"),
        (" Not entailment", 0, "medalpaca_no"),
        (" Entailment", 1, "medalpaca_yes"),
        (" Yes. No other treatment is needed.", -1, "medalpaca_both"),  # both words: never a guess
        (" yes", -1, "unparsed"),  # case-sensitive, as the authors' code
        ("Unknown without more context", -1, "medalpaca_unknown"),
        ("Depends on the dose", -1, "medalpaca_unknown"),
        (" Sí, es correcta", -1, "unparsed"),  # the MedAlpaca sets are English only (spec Appendix C)
        (" 是的", -1, "unparsed"),
        (" हाँ", -1, "unparsed"),
        # an echoed prompt: only the text after the last "Response" counts
        ("Question: Is it safe? No idea.\nResponse: Yes", 1, "medalpaca_yes"),
        ("", -1, "unparsed"),
    ],
)
def test_medalpaca_parser(reply: str, value: int, method: str) -> None:
    parsed = parse_medalpaca(reply)
    assert (parsed.value, parsed.method) == (value, method)
