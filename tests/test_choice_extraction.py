"""parsing.choice: the option a reply chose, or that it chose none, in every script; parse counts and warnings."""

from __future__ import annotations

import medarabiq_fixtures as fx
import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from xlingmed.benchmarks.medarabiq import load_items, parse_options
from xlingmed.errors import ConfigError
from xlingmed.languages import LANGUAGES, normalise_label
from xlingmed.parsing.choice import METHODS, extract_choice
from xlingmed.parsing.methods import WARN_SHARE, kind_of, parse_counts
from xlingmed.parsing.text import fold as _fold

OPTS = {"A": "lipase", "B": "penicillinase", "C": "fibrinolysin", "D": "hyaluronidase", "E": "proteinase"}
V = list("ABCDE")


@pytest.mark.parametrize(
    ("reply", "value", "method"),
    [
        ("Answer: C", "C", "phrase"),
        ("الإجابة الصحيحة هي: ب", "B", "phrase"),
        ("الجواب: ج", "C", "phrase"),
        ("La respuesta correcta es la C.", "C", "phrase"),
        ("答案是C。", "C", "phrase"),
        ("正确答案：C", "C", "phrase"),
        ("सही उत्तर है: C", "C", "phrase"),
        ("The correct answer is (C).", "C", "phrase"),
        ("Answer: **C. Fibrinolysin**", "C", "phrase"),
        ("The correct answer is fibrinolysin.", "C", "phrase"),
        ("I think the answer is fibrinolysin and not penicillinase", "C", "phrase"),
        ("The correct letter is: C", "C", "marker"),
        ("الحرف الصحيح هو: د", "D", "marker"),
        ("C", "C", "standalone"),
        ("(C)", "C", "standalone"),
        ("**C**", "C", "standalone"),
        ("c", "C", "standalone"),
        ("ج.", "C", "standalone"),
        ("هـ", "E", "standalone"),
        ("ا", "A", "standalone"),
        ("Option C", "C", "standalone"),
        ("الخيار ج", "C", "standalone"),
        ("选项C", "C", "standalone"),  # "option C" alone (选 alone is no answer phrase: it opens 选项, option)
        ("٣", "C", "standalone"),  # Arabic-Indic three: the third option
        ("३", "C", "standalone"),  # Devanagari three
        ("C. Fibrinolysin", "C", "standalone"),
        ("The best choice here is C.", "C", "conclusion"),
        ("Fibrinolysin (C) is correct.", "C", "conclusion"),
        # Persian "the answer is this: A", closing a paragraph; "most likely"; an answer before its explanation
        ("بیمار تب دارد و علائم عفونت دیده می شود. پاسخ این است: C .", "C", "phrase"),
        ("به نظر می‌رسد **فیبرینولیزین** (گزینه [C]) به احتمال زیاد علت است.", "C", "conclusion"),
        ("گزینه [C] fibrinolysin\n\nتوضیح:\n- گزینه [A]: نادرست است.\n- گزینه [B]: نادرست است.", "C", "answer_line"),
        # a typographic apostrophe, an arrow before the label, the choice named after the label
        ("The history weighs against lipase.\n\nI’d go with C.", "C", "phrase"),
        ("Reasoning about the enzymes.\n\n→ C", "C", "answer_line"),
        ("C would be my choice.", "C", "conclusion"),
        # the stated answer is a letter the item has no option for: none, never an earlier statement
        ("The answer is B, I thought.\n\nOn reflection, final answer: F.", None, "invalid"),
        # a label and a copula written after it, opening the reply
        ("Cです。\n\nフィブリノリジンは血栓を溶かす。", "C", "answer_line"),
        # a true/false-statement question's answer
        ("La afirmación incorrecta es la B, pues la incidencia aumenta.", "B", "phrase"),
        ("The incorrect statement is D, as the enzyme is absent here.", "D", "phrase"),
        ("The answer is not A; it is C.", "C", "phrase"),
        ("fibrinolysin", "C", "option_text"),
        ("ＦＩＢＲＩＮＯＬＹＳＩＮ。", "C", "option_text"),  # full-width letters fold
        ("It must be fibrinolysin given the clot lysis.", "C", "last_line"),  # named in passing: a fallback
        # a reply of one sentence that ends on one option states it, in the exam's words
        ("The clot is dissolved by fibrinolysin.", "C", "sole_statement"),
        ("Is the clot dissolved by fibrinolysin?", "C", "last_line"),  # a question states nothing
        # the answer first, its label and text alone on a line, then reasons that compare it with another option
        ("(c) Fibrinolysin\n\nIt acts faster than lipase in this setting, unlike lipase.", "C", "answer_line"),
        ("fibrinolysn", "C", "option_match"),  # a typo: a clear best fuzzy match, counted as a fallback
        # never a guess
        ("Therefore, the correct answer would be (A) and (C).", None, "ambiguous"),  # two bracketed labels joined
        ("The answer is (B), (D), and (E), as all three apply.", None, "ambiguous"),
        ("The correct answer is:\n**A: lipase**\nAnd\n**D: hyaluronidase**", None, "ambiguous"),  # a list, "And"
        ("Therefore, I select Option A considering its broad use.", "A", "phrase"),  # "A" after "Option": a label
        # a closing sentence ends on one label after a copula; another option's text in its subject does not count
        ("Reading the notes, the enzyme that lipase activity does not explain here is (C).", "C", "closing_statement"),
        # the reply closes on a sentence that is a boxed label alone, after reasoning on the same line
        ("Lipase acts on fats, unlike proteinase and penicillinase. \\boxed{B}", "B", "answer_line"),
        # a bold label on its own line right under the discussion of the options ends it: the answer
        ("- A: lipase – acts on fats.\n- B: penicillinase – splits penicillin.\n- C: fibrinolysin – lyses clots, "
         "and so we select it.\n**C**", "C", "answer_line"),
        # the question and its options echoed, on one line or closing on the last: no answer stated
        ("Which enzyme dissolves clots: A) lipase B) penicillinase C) fibrinolysin D) hyaluronidase E) proteinase",
         None, "ambiguous"),
        ("Which enzyme dissolves clots… B) penicillinase, C) hyaluronidase. D) fibrinolysin. E) proteinase.", None,
         "ambiguous"),
        # letters set in bold inside words spell a name out; they are no labels
        ("The most likely answer is:\n**(B) PCN-ase**\n"
         "That is, **P**eni**C**illi**N**ase, an **E**nzyme.", "B", "phrase"),
        ("Doctors usually weigh every option; I cannot choose.", None, "refused"),
        ("الإجابة تعتمد على الحالة", None, "invalid"),  # "ال" is the article, not option A
        ("e.g. more tests", None, "invalid"),
        ("A patient would need more tests", None, "invalid"),
        ("", None, "invalid"),
        ("F", None, "invalid"),  # not one of the item's options
        ("A) lipase is wrong, C) is right", "C", "last_line"),  # the negation removes A
        ("Answer: B. Correct answer: C", "C", "phrase"),  # the final commitment wins
        ("fibrinolysin or penicillinase", None, "ambiguous"),
        ("The answer is B (fibrinolysin)", None, "ambiguous"),  # the label and the text name different options
        ("Take 2 tablets of lipase-free formula", "A", "last_line"),  # no option number; in passing: a fallback
    ],
)
def test_robust_extraction(reply: str, value: str | None, method: str) -> None:
    parsed = extract_choice(reply, V, options=OPTS, reading="lenient")
    assert (parsed.value, parsed.method) == (value, method)
    strict = extract_choice(reply, V, options=OPTS)  # the default: a fallback's guess gives no option
    fallback = method in ("last_line", "option_match")
    assert (strict.value, strict.method) == ((None, "guess_withheld") if fallback else (value, method))


def test_option_text_is_not_read_as_a_label_inside_it() -> None:
    # MedArabiQ MCQ row 6 of the fixture: option D's text is "A+C"
    options = {"A": "x", "B": "y", "C": "z", "D": "A+C"}
    parsed = extract_choice("A+C", list("ABCD"), options=options)
    assert (parsed.value, parsed.method) == ("D", "option_text")
    # a reply that is one option's text and another option's label names two options
    parsed = extract_choice("D", list("ABCD"), options={"A": "B12", "B": "C", "C": "D", "D": "E"})
    assert (parsed.value, parsed.method) == (None, "ambiguous")


def test_the_papers_rule_and_the_old_defaults_by_name() -> None:
    def read(reply: str, parser: str) -> tuple[str | None, str]:
        parsed = extract_choice(reply, V, parser=parser)
        return parsed.value, parsed.method

    assert read("الإجابة الصحيحة هي: ب", "first_char") == ("A", "first_char")
    assert read("Doctors weigh it", "first_char") == ("D", "first_char")
    assert read("Answer: C", "paper") == (None, "invalid")
    assert read("The correct letter is: (C)", "paper") == ("C", "marker")
    assert read("The answer is B", "regex") == ("B", "regex")
    with pytest.raises(ConfigError, match="unknown multiple-choice parser"):
        extract_choice("C", V, parser="lenient")


def test_non_contiguous_labels_are_split_as_printed_and_flagged(tmp_path) -> None:  # type: ignore[no-untyped-def]
    parsed = parse_options("Stem?\nA. one\nB. two\nC. three\nE. five")
    assert [c.label for c in parsed.choices] == ["A", "B", "C", "E"]
    assert [c.text for c in parsed.choices] == ["one", "two", "three", "five"]
    assert "non_contiguous_labels" in parsed.flags
    fx.write_all(tmp_path)
    items = load_items("fitb_choices", tmp_path, ("ar", "en"))[0]
    row = [it for it in items if it.item_id == f"fitb_choices-{fx.FITB_NON_CONTIGUOUS:03d}"]
    assert [c.label for c in row[0].choices] == [c.label for c in row[1].choices] == ["A", "B", "C", "E"]
    assert all("non_contiguous_labels" in it.meta["flags"] for it in row)
    others = [it for it in items if it not in row]
    assert not any("non_contiguous_labels" in it.meta["flags"] for it in others)


# ---- property: a label is read only where the reply shows it ---------------------------------------------------

PROSE = st.lists(
    st.sampled_from(list("abcdefgh ABCDEFGH.,;:()*-\n") + list("أبجدهوال ٣३") + ["الإجابة", "Answer:", " option "]),
    max_size=30,
).map("".join)


def _shows(reply: str, label: str, options: dict[str, str]) -> bool:
    """``label`` occurs in ``reply`` as a standalone label (any script), as its option number, or as its text."""
    k = ord(label) - ord("A")
    forms = {
        label,
        label.lower(),
        LANGUAGES["ar"].option_letters[k],
        str(k + 1),
        "٠١٢٣٤٥٦٧٨٩"[k + 1],
        "०१२३४५६७८९"[k + 1],
    }
    if label == "A":
        forms |= {"ا", "إ", "آ"}
    if label == "E":
        forms |= {"ة"}
    for m in regex.finditer(r"[\p{L}\p{N}]+", reply):
        if m.group() in forms and normalise_label(m.group()) == label:
            return True
    return _fold(options[label]) in _fold(reply)


@settings(max_examples=400, deadline=None)
@given(PROSE, st.lists(st.sampled_from(["lipase", "insulin", "vitamin c", "الكبد", "肝脏"]), min_size=4, max_size=4,
                       unique=True))  # fmt: skip
def test_no_label_that_the_reply_does_not_show(reply: str, texts: list[str]) -> None:
    options = dict(zip("ABCD", texts, strict=True))
    parsed = extract_choice(reply, list("ABCD"), options=options)
    assert parsed.method in METHODS
    assert (parsed.value is None) == (parsed.method in ("invalid", "ambiguous", "guess_withheld", "thinking_only"))
    if parsed.value is not None:
        assert _shows(reply, parsed.value, options), (reply, parsed)


# ---- parse counts ------------------------------------------------------------------------------------------------


def test_parse_counts_and_warnings() -> None:
    rows = [{"lang": "en", "parse_method": "phrase"}] * 96 + [{"lang": "en", "parse_method": "invalid"}] * 4
    rows += [{"lang": "ar", "parse_method": "standalone"}] * 90 + [{"lang": "ar", "parse_method": "first_char"}] * 10
    rows += [{"lang": "ar", "parse_method": None, "error": "timeout"}] * 7
    counts = parse_counts(rows, ["en", "ar"])
    assert counts["methods"]["ar"] == {"standalone": 90, "first_char": 10, "error": 7}
    assert counts["kinds"]["en"] == {"read": 96, "fallback": 0, "unread": 4, "refused": 0, "error": 0}
    assert counts["n"] == {"en": 100, "ar": 100}  # failed requests are not the parser's
    assert counts["not_read_share"] == {"en": 0.04, "ar": 0.10}
    assert WARN_SHARE == 0.05 and len(counts["warnings"]) == 1 and counts["warnings"][0].startswith("ar: 10.0%")
    assert kind_of("some_new_method") == "unread"  # never counted as read by default


def test_each_parser_declares_its_methods_and_a_parsed_carries_its_kind() -> None:
    from xlingmed.parsing.methods import declared
    from xlingmed.parsing.yes_no import parse_medalpaca
    from xlingmed.types import Parsed, declare_parse_methods

    assert extract_choice("The answer is (B).", "ABCD").kind == "read"
    assert parse_medalpaca("Yes, it does.") == Parsed(1, "medalpaca_yes")  # read (was counted unread before 0.2)
    assert parse_medalpaca("Yes, it does.").kind == "read" and declared()["medalpaca_unknown"] == "unread"
    with pytest.raises(ValueError, match="undeclared parse method 'guessed'"):
        Parsed("A", "guessed")  # a parser cannot return a method nobody classified
    with pytest.raises(ValueError, match="declared as read and as fallback"):
        declare_parse_methods({"marker": "fallback"})  # a second parser cannot reclassify another's method


@pytest.mark.parametrize(
    ("reply", "value", "method"),
    [
        ("A, C", "A,C", "label_list"),
        ("Answer: C and A", "A,C", "label_list"),
        ("答え：B、D", "B,D", "label_list"),
        ("Réponse : A et C", "A,C", "label_list"),
        ("A and C are both wrong; B is right, as is D.\n**B, D**", "B,D", "label_list"),  # the last line of labels
        ("The answer is C.", "C", "phrase"),  # one option: read as one (wrong against a set of two), never widened
        ("I cannot tell.", None, "invalid"),
    ],
)
def test_several_right_options_are_read_as_the_set_the_reply_names(reply: str, value: str | None, method: str) -> None:
    from xlingmed.parsing.several import extract_choices

    parsed = extract_choices(reply, list("ABCDE"))
    assert (parsed.value, parsed.method) == (value, method)


def test_a_persian_option_copied_in_arabic_letters_is_the_same_option() -> None:
    # the set spells the option with Arabic yeh (ي), the reply with Persian yeh (ی), or the other way round
    options = {"A": "لوله رحم", "B": "واژن", "C": "پيشابراه آلتی", "D": "اپيدیدیم"}
    reply = "کدامیک از موارد زیر مشتق می‌شوند:\n\n[C] پیشابراه آلتی\n\nپیشابراه آلتی از این مجاری مشتق می‌شود."
    parsed = extract_choice(reply, list("ABCD"), options=options)
    assert (parsed.value, parsed.method) == ("C", "answer_line")


_MEALS = {"A": "Small, frequent meals", "B": "Metformin", "C": "Acarbose", "F": "Continuous glucose monitoring",
          "J": "A glucagon emergency kit"}


@pytest.mark.parametrize(
    ("reply", "value", "method"),
    [
        # the line under "…is:" states the answer; the explanation under it names other options as adjuncts
        ("The most appropriate intervention here is:\n**(A) Small, frequent meals**\nThis steadies glucose; "
         "monitoring (F) and a glucagon kit (J) are useful adjuncts.", "A", "conclusion"),
        # several options listed under it, one a line: no one answer
        ("The most appropriate steps are:\n- (A) Small, frequent meals\n- (F) Continuous glucose monitoring\n"
         "Both help.", None, "ambiguous"),
    ],
)
def test_the_line_under_a_conclusion_that_ends_in_a_colon(reply: str, value: str | None, method: str) -> None:
    parsed = extract_choice(reply, list("ABCDEFGHIJ"), options=_MEALS)
    assert (parsed.value, parsed.method) == (value, method)


def test_a_sentence_that_negates_states_no_option() -> None:
    # one sentence ending on an option's text, negated anywhere in it: no statement (only lenient's fallback reads it)
    parsed = extract_choice("The clot is not dissolved by fibrinolysin.", V, options=OPTS)
    assert (parsed.value, parsed.method) == (None, "guess_withheld")
