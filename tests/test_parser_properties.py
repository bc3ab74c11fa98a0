"""Property-based tests (hypothesis) of every parser that reads a model's reply: judge labels, yes/no,
multiple-choice letters and the rubric. Whatever a model writes, a parser returns a value from its allowed set
and never raises; and a reply that states the answer in the documented form is always read correctly."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlingmed.languages import LANGUAGES, normalise_label
from xlingmed.tasks.correctness.judge import LABELS, OPTIONS, parse_judgement
from xlingmed.tasks.multiple_choice import MARKERS, extract_letter
from xlingmed.tasks.rubric.judge import DIMENSIONS, parse_rubric
from xlingmed.tasks.rubric.judge import LABELS as RUBRIC_LABELS
from xlingmed.tasks.verifiability import parse_paper, parse_strict

# any text a model might produce: every script we evaluate, markdown, digits, punctuation, newlines
anything = st.text(
    alphabet=st.one_of(
        st.characters(min_codepoint=0x20, max_codepoint=0x7E),
        st.sampled_from("\n\t，。？！।॥ـأبجدهوабв你好不是正确हाँनहींसही¿¡áéñü*`'\"“”«»"),
    ),
    max_size=300,
)
prose = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz ,;"), max_size=120)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- correctness judge: four labels + no response --------------------------------------------------------------


@SETTINGS
@given(anything, st.sampled_from(["paper", "paper+fallback"]))
def test_judge_label_is_always_one_of_the_five(text: str, parser: str) -> None:
    parsed = parse_judgement(text, parser)
    assert parsed.value in LABELS
    assert parsed.method in {"empty", "paper_tail", "fallback_last_option", "fallback_last_line", "unparsed"}


@SETTINGS
@given(prose, st.sampled_from(OPTIONS), st.sampled_from(["", ".", "\n", " "]))
def test_judge_reads_the_option_on_the_last_line(reasoning: str, option: tuple[str, str], end: str) -> None:
    label, string = option
    for parser in ("paper", "paper+fallback"):
        assert parse_judgement(f"{reasoning}.\n{string}{end}", parser).value == label


@SETTINGS
@given(anything)
def test_judge_fallback_only_adds_labels(text: str) -> None:
    paper = parse_judgement(text, "paper")
    if paper.value != "no_response":
        assert parse_judgement(text, "paper+fallback").value == paper.value


@SETTINGS
@given(prose, st.sampled_from(OPTIONS), prose)
def test_judge_fallback_finds_an_option_anywhere(before: str, option: tuple[str, str], after: str) -> None:
    label, string = option
    text = f"{before}. I choose: {string.upper()}. {after}. More. Text. Here."  # not in the tail, other case
    assert parse_judgement(text, "paper+fallback").value == label


# -- verifiability: yes / no / unknown -------------------------------------------------------------------------


@SETTINGS
@given(anything, st.sampled_from(["en", "es", "zh", "hi"]))
def test_yes_no_parsers_return_1_0_or_minus_1(text: str, lang: str) -> None:
    assert parse_paper(text).value in (1, 0, -1)
    assert parse_strict(text, lang).value in (1, 0, -1)


@SETTINGS
@given(
    st.sampled_from(["en", "es", "zh", "hi"]),
    st.data(),
    st.sampled_from(["", "*", "**", '"', "`", " \n"]),
    st.sampled_from([" ", ".", ",", "!", "\n", ""]),
    prose,
)
def test_strict_parser_reads_the_first_word_in_every_language(
    lang: str, data: st.DataObject, prefix: str, sep: str, rest: str
) -> None:
    yes = data.draw(st.sampled_from(LANGUAGES[lang].yes_words))
    no = data.draw(st.sampled_from(LANGUAGES[lang].no_words))
    tail = f"{sep}{rest}" if sep else ""
    if not sep and rest[:1].isalnum():
        tail = ""  # "Yesterday" is not "Yes"
    assert parse_strict(f"{prefix}{yes.capitalize()}{tail}", lang).value == 1
    assert parse_strict(f"{prefix}{no.capitalize()}{tail}", lang).value == 0


@SETTINGS
@given(st.sampled_from(["Yes", "yes", "YES", "Yes.", "Yes!", "**Yes**", "yes,"]))
def test_paper_parser_reads_a_bare_yes(reply: str) -> None:
    assert parse_paper(reply).value == 1


# -- multiple-choice letters -----------------------------------------------------------------------------------

valid_sets = st.integers(min_value=2, max_value=6).map(lambda n: ["A", "B", "C", "D", "E", "F"][:n])


@SETTINGS
@given(anything, valid_sets, st.sampled_from(["first_char", "regex", "invalid"]))
def test_letter_is_a_valid_option_or_none(text: str, valid: list[str], fallback: str) -> None:
    parsed = extract_letter(text, valid, fallback=fallback)
    assert parsed.value is None or parsed.value in valid
    assert parsed.method in {"marker", "first_char", "regex", "invalid"}
    assert (parsed.value is None) == (parsed.method == "invalid")


@SETTINGS
@given(anything, valid_sets, st.data(), st.sampled_from(MARKERS), st.sampled_from(["", " ", "**", " ("]))
def test_the_last_marker_decides(text: str, valid: list[str], data: st.DataObject, marker: str, pad: str) -> None:
    letter = data.draw(st.sampled_from(valid))
    script = data.draw(st.sampled_from(["latin", "arabic"]))
    shown = letter if script == "latin" else LANGUAGES["ar"].option_letters[ord(letter) - ord("A")]
    reply = f"{text}\n{marker}{pad}{shown}) because"
    assert extract_letter(reply, valid).value == letter
    assert normalise_label(shown) == letter


@SETTINGS
@given(valid_sets, st.data(), prose)
def test_first_char_reads_a_leading_letter(valid: list[str], data: st.DataObject, rest: str) -> None:
    letter = data.draw(st.sampled_from(valid))
    assert extract_letter(f"{letter}. {rest}", valid, markers=()).value == letter


# -- rubric ----------------------------------------------------------------------------------------------------


@SETTINGS
@given(anything)
def test_rubric_scores_are_1_to_5_or_missing(text: str) -> None:
    scores, parsed = parse_rubric(text)
    assert all(v is None or (isinstance(v, int) and 1 <= v <= 5) for v in scores.scores.values())
    assert parsed.method in {"complete", "partial", "unparsed"}
    assert (parsed.method == "complete") == scores.complete


@SETTINGS
@given(
    st.permutations(DIMENSIONS),
    st.lists(st.integers(min_value=0, max_value=9), min_size=4, max_size=4),
    st.lists(prose.filter(lambda s: s.strip() != ""), min_size=4, max_size=4),
    st.sampled_from(["{name}: {score} - {why}", "**{name}**: {score}/5 – {why}", "- {name}: {score} — {why}"]),
)
def test_rubric_reads_every_documented_layout(
    order: list[str], values: list[int], whys: list[str], layout: str
) -> None:
    lines = [layout.format(name=RUBRIC_LABELS[d], score=v, why=w) for d, v, w in zip(order, values, whys, strict=True)]
    scores, parsed = parse_rubric("Here is my evaluation.\n" + "\n".join(lines) + "\n")
    for d, v in zip(order, values, strict=True):
        assert scores.scores[d] == (v if 1 <= v <= 5 else None)
        assert (d in scores.out_of_range) == (not 1 <= v <= 5)
    in_range = sum(1 <= v <= 5 for v in values)
    assert parsed.method == ("complete" if in_range == 4 else "partial" if in_range else "unparsed")
