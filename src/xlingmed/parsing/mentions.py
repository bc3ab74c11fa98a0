"""Where a reply names an option: by its label ("C", "(C)", "option C", "الخيار ج", "选项C") or by its text, and
whether that mention chooses it.

A mention does not choose its option when it is negated ("not C", "C is incorrect", "ليست ج", "Cではない"; the
negation carries over a list: "A, B and C are wrong"), and a letter is no label at all when it completes a term
("hepatitis B", "vitamin D", "B型", "E. coli", "type A") or is an article or pronoun ("A patient", "I think").
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import regex

from xlingmed.languages import normalise_label
from xlingmed.parsing.literals import ARTICLES, FOLLOWERS, Literals, find_words, literals
from xlingmed.parsing.text import UNSPACED, WORD, FoldedText, lower, unspaced

_DIGITS = r"[0-9٠-٩۰-۹०-९]{1,2}"
# What may stand between a phrase and its label: spaces, markdown, quotes, brackets, colons, dashes, "is".
DECOR = regex.compile(r"""[\s*_"'`“”‘’«»\[\(\{:\-–—=>~]*""")
# Where a clause ends: a negation does not reach across it.
# (NFKC has made "，" a ","; in Chinese and Japanese no space follows it)
_CLAUSE_END = regex.compile(r"[.;!?\n。！？؛؟।]|,(?=\s|[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}])|[，、]")
_NUMBER_BEON = regex.compile(r"(?<!\p{N})\p{N}(?=번(?!째))")  # "2번", not "2번째" (the second)
_SUPPOSITION_END = regex.compile(rf"{_CLAUSE_END.pattern}|[:：]")
# What may follow a letter that stands alone as a label.
_AFTER_LETTER = ".):,;،؛!?*]\"”'’»。、！？：；）」』】\n|"
_OR = regex.compile(r"\s+(?:أو|او|و|או)\s")
_LETTER = regex.compile(r"\p{L}")
_WORD_RE = regex.compile(WORD)
_WORD_AT_END = regex.compile(rf"{WORD}$")
_UNSPACED_RE = regex.compile(UNSPACED)
# the word after a capital: a genus's species ("E. coli"), or the noun after an article ("A patient"); not a
# variable of a formula ("C. x=2, y=2": option C, stated with its value)
_NEXT_WORD = regex.compile(r"(\.?)\s+([a-zà-öø-ÿ](?:[\p{L}\p{M}'’-]+|(?!\s*[=<>≤≥+*/^_,)])))")
_BOLD_GLUED = regex.compile(rf"[*_]+(?!{UNSPACED})[\p{{L}}\p{{N}}]")
_WORD_BEFORE = regex.compile(rf"({WORD}+)[\s\-]*[(\[（]?\s*$")
_OWN_TEXT_LEAD = regex.compile(r"[\s.):*\-–—]*(?:\*\*)?[\s(]*")
GLUE = regex.compile(r"^[\s.):：*_\-–—(\[\]（）「」]*$")
_SEPARATOR = regex.compile(
    r"^[\s,、，/&*]*(?:and|or|y|e|o|ou|et|und|oder|و|או|ו|和|或|及|및|और|या|na|au|и|или|ve|veya|en|of)?[\s,、，*]*$"
)


@lru_cache(maxsize=1)
def counting_words() -> frozenset[str]:
    """Every language's option words that also count things (``Language.counting_words``): a number after one is
    a label only where no word follows it ("the answer 2 days later", "number 5 patients" are quantities)."""
    from xlingmed.languages import LANGUAGES

    return frozenset(w.lower() for lang in LANGUAGES.values() for w in lang.counting_words)


@lru_cache(maxsize=8)
def _label_patterns(
    chars: str,
) -> tuple[regex.Pattern[str], regex.Pattern[str], regex.Pattern[str], regex.Pattern[str]]:
    """The label patterns of a label alphabet (``chars``: every script's letters, or none on a numbered exam),
    compiled once: a label at a position, an enclosed label, a letter standing alone, an article before a label or
    a word ("la C", "a alternativa C")."""
    at = regex.compile(rf"({chars}|{_DIGITS})(?!(?!{UNSPACED}){WORD})")
    enclosed = regex.compile(
        # "(C)" but not "lipoproteína(a)" or "IL-6(B)": a bracket glued to a word is part of a term
        rf"(?<!(?!{UNSPACED})[\p{{L}}\p{{N}}])(?:\(\s*({chars})\s*\)|\[\s*({chars})\s*\])"
        # "**C**" but not "**F**lexion" (a letter set in bold inside a word spells it out)
        rf"|\*\*\s*({chars})\s*[.):]?\s*\*\*(?!(?!{UNSPACED})[\p{{L}}\p{{N}}])|[\"“'‘«]({chars})[\"”'’»]"
    )
    # a letter alone: no letter, digit or joiner on either side, except the letters of scripts without spaces
    # ("答案是C", "Cです")
    edge = rf"(?!{UNSPACED})[\p{{L}}\p{{M}}\p{{N}}_\-/+&'’]"
    loose = regex.compile(rf"(?<!{edge}|\.){chars}(?!{edge})")
    article = regex.compile(rf"(?:{'|'.join(ARTICLES)})\s+(?=({chars}|{_DIGITS})(?!{WORD})|\p{{L}}+)")
    return at, enclosed, loose, article


@lru_cache(maxsize=4096)
def _folded_option(text: str) -> str:
    """An option's text folded (``FoldedText``), once per text: every reply to an item is read against it."""
    return FoldedText(text).text.strip()


@dataclass(frozen=True)
class Mention:
    """An option named at ``[start, end)`` of the normalised reply; ``by_text``: by its text, not its label."""

    label: str
    start: int
    end: int
    by_text: bool = False


# a cue followed by its own opposite is a question, not a conclusion ("is correct or incorrect", "or not")
_EITHER_WAY = regex.compile(r"\s+or\s+(?:not\b|in|un|wrong)")


@dataclass
class Reader:
    """One normalised reply with its options: finds the mentions in any span of it."""

    text: str
    valid: Sequence[str]
    options: Mapping[str, str]
    numbered: bool = False  # the prompt numbered the options: a number after an answer phrase is one
    letters: bool = True  # the prompt labelled the options with letters: a letter may be a label
    lower: bool = False  # the prompt's letters were lower case (a-e): "正解は c である" names option C

    def __post_init__(self) -> None:
        self.low = lower(self.text)
        self.lit: Literals = literals()
        # an exam that numbers its options (1-5, ①-⑤) has no letter labels: "B 원장", "Dr. A" are people
        self.label_chars = self.lit.label_chars if self.letters else "(?!)"
        self.folded = FoldedText(self.text)
        self._label_at_re, self._enclosed, self._loose, self._article = _label_patterns(self.label_chars)
        self.option_texts = self._option_texts()
        self.longest_option = max(map(len, self.option_texts.values()), default=0)
        self.option_initials = frozenset(t[0] for t in self.option_texts.values())

    @cached_property
    def phrase_spans(self) -> list[tuple[int, int]]:
        """Where the reply's answer phrases are (``find_words``)."""
        return find_words(self.low, self.lit.phrases)

    @cached_property
    def cue_spans(self) -> list[tuple[int, int]]:
        """Where the reply's conclusion cues are (``find_words``), less those that ask rather than conclude: "why
        each option is correct or incorrect", "whether B is correct or not"."""
        spans = find_words(self.low, self.lit.cues)
        return [(a, b) for a, b in spans if not _EITHER_WAY.match(self.low, b)] if " or " in self.low else spans

    # ---- labels -------------------------------------------------------------------------------------------------

    def label_at(self, pos: int, *, strict_case: bool = True, number: bool = False) -> Mention | None:
        """The label right at ``pos`` (after decoration, up to two option words or articles): after a phrase or an
        option word. With ``strict_case`` a lower-case Latin letter counts only before punctuation. A number is an
        option's number only after an option word ("option 3", "3번" is read as "번" follows it) or with
        ``number`` (the whole reply): after "Answer:" it fills a blank or ends a calculation."""
        i = DECOR.match(self.text, pos).end()
        worded = number or self.numbered
        named = False  # an option word stands right before the label ("Option A"), read here
        for _ in range(2):
            head = self.low[i : i + 16]
            for w in self.lit.option_words_by_first.get(head[:1], ()):
                if head.startswith(w) and (unspaced(w) or not _WORD_RE.match(self.low[i + len(w) : i + len(w) + 1])):
                    i = DECOR.match(self.text, i + len(w)).end()
                    worded = named = True
                    break
            else:
                # an article only before an option word or a label: "la C", "a alternativa C" ("ni A." is A)
                art = self._article.match(head)  # "la C", "la 1:" (numbered options)
                after_art = head[art.end() :] if art else ""
                if art and (art.group(1) or any(after_art.startswith(w) for w in self.lit.option_words)):
                    i += art.end()
                    continue
                break
        m = self._label_at_re.match(self.text, i)
        if not m:
            return None
        if i > 0 and _LETTER.match(self.text[i - 1]) and not unspaced(self.text[i - 1]):
            return None  # glued to the word before it ("الإجابةa"); Chinese has no spaces ("答案是C")
        raw = m.group(1)
        if raw.isdigit() and not (worded or self.low[m.end() : m.end() + 1] == "번"):
            return None
        after = self.text[m.end() : m.end() + 1]
        if strict_case and not self.lower and raw.islower() and raw.isascii() and after and after not in ".):]*,;،\n":
            return None
        label = normalise_label(raw)
        if label is None or label not in self.valid:
            return None
        if not raw.isdigit() and not (named and raw.isupper()) and not self.label_follows(label, m.end()):
            return None  # a number is no article ("5 yohimbine"), a letter may be ("A patient"), not after an
            # option word ("I select Option A considering…")
        return Mention(label, m.start(), m.end())

    def label_follows(self, label: str, end: int) -> bool:
        """False where a Latin capital is an initial or an article/pronoun: "E. coli", "C. difficile" (a genus:
        the letter, a full stop and a lower-case word that does not start the option's text), "A patient", "I
        think", "E poi" (A, E and I before a lower-case word that is no follower, ``FOLLOWERS``)."""
        m = _NEXT_WORD.match(self.text[end : end + 40])
        if not m or not label.isascii():
            return True
        word = m.group(2).lower()
        option = self.option_texts.get(label, "")
        if option and option.split(" ")[0] == FoldedText(word).text.strip():
            return True
        if m.group(1):
            return False
        return label not in "AEI" or word in FOLLOWERS

    def labels(self, lo: int, hi: int) -> list[Mention]:
        """Every label named in ``[lo, hi)``: enclosed ("(C)", "**C**"), after an option word ("option C"),
        standing alone ("C is correct", "C.", "Cです"); lower-case Latin only enclosed or before the option's text."""
        found: dict[int, Mention] = {}
        t = self.text
        for m in self._enclosed.finditer(t, lo, hi):
            g = next(i for i in range(1, 5) if m.group(i))
            label = normalise_label(m.group(g))
            if label is not None and label in self.valid and not self.is_term(m.start(), m.end()):
                found.setdefault(m.start(g), Mention(label, m.start(g), m.end(g)))  # not "Figure (a)", "写真(a)"
        for s, e in find_words(self.low[lo:hi], self.lit.option_words):
            at = self.label_at(lo + e, number=True)  # "option 2 is correct", "the third option" (option 3)
            if (
                at is not None
                and self.text[at.start : at.end].isdigit()
                and self.low[lo + s : lo + e] in counting_words()
                and not self._number_stands(at.end)
            ):
                continue  # "the answer 2 days later", "number 5 patients": a quantity
            if at is not None and at.end <= hi:
                found.setdefault(at.start, at)
        if self.numbered and "번" in self.low[lo:hi]:
            for m in _NUMBER_BEON.finditer(t, lo, hi):  # "따라서 2번이 옳은 설명입니다": Korean's "number 2"
                if not t[t.rfind("\n", 0, m.start()) + 1 : m.start()].strip(" \t*_-•#>"):
                    continue  # "5번 :" opening its line heads that option's discussion (``parsing.reply``)
                at = self.label_at(m.start())
                if at is not None:
                    found.setdefault(at.start, at)
        for m in self._loose.finditer(t, lo, hi):
            if m.start() in found:
                continue
            label = normalise_label(m.group())
            if label is None or label not in self.valid or self.is_term(m.start(), m.end()):
                continue
            nxt = t[m.end() : m.end() + 1]
            if nxt in "*_" and _BOLD_GLUED.match(t, m.end()):
                continue  # "**F**lexion": a letter set in bold inside the word it spells out
            if m.group().isascii() and m.group().islower():
                if not (nxt in ".):" and self.text_follows(label, m.end() + 1)):
                    continue
            elif not m.group().isascii() and not (nxt == "" or nxt in _AFTER_LETTER or _OR.match(t, m.end())):
                continue  # a letter of Arabic or Hebrew script counts alone only before punctuation or "or"
            elif (
                nxt and not (nxt.isspace() or nxt in _AFTER_LETTER or _UNSPACED_RE.match(nxt))
            ) or not self.label_follows(label, m.end()):
                continue
            found[m.start()] = Mention(label, m.start(), m.end())
        return [found[k] for k in sorted(found)]

    def _number_stands(self, end: int) -> bool:
        """A number ending at ``end`` stands as a label: no lower-case word follows it, or one that leaves it a
        label ("option 2 is correct", "opción 3 y 4")."""
        m = _NEXT_WORD.match(self.text[end : end + 40])
        return m is None or m.group(2).lower() in FOLLOWERS

    def text_follows(self, label: str, pos: int) -> bool:
        option = self.option_texts.get(label)
        if not option:
            return False
        return FoldedText(self.text[pos : pos + len(option) + 8]).text.strip().startswith(option)

    def words_of_option_follow(self, label: str, pos: int, n: int = 3) -> bool:
        """The first ``n`` words after ``pos`` run on, in order, inside option ``label``'s text ("a. early
        postoperative ambulation is …" for "Perform early postoperative ambulation"): the label names it."""
        option = self.option_texts.get(label)
        words = regex.findall(rf"{WORD}+", FoldedText(self.text[pos : pos + 200]).text)[:n]
        if not option or len(words) < n:
            return False
        return regex.search(rf"(?<!{WORD}){regex.escape(' '.join(words))}(?!{WORD})", option) is not None

    def is_term(self, start: int, end: int) -> bool:
        """The letter at ``[start, end)`` completes a term: "vitamin D", "hepatitis B", "B型", "B cells"."""
        before = self.low[max(0, start - 30) : start]
        word = _WORD_BEFORE.search(before)
        if word and (word.group(1) in self.lit.term_words or word.group(1).rstrip(".") in self.lit.term_words):
            return True
        if before.rstrip().rstrip("([（").rstrip().endswith(self.lit.unspaced_term_words):
            return True
        after = self.low[end : end + 20]
        return after.startswith(self.lit.unspaced_term_suffixes) or self.lit.spaced_term_suffix.match(after) is not None

    # ---- option texts -------------------------------------------------------------------------------------------

    def _option_texts(self) -> dict[str, str]:
        out = {}
        for label, text in self.options.items():
            folded = _folded_option(text)
            if label in self.valid and folded:
                out[label] = folded
        return out

    def texts(self, lo: int, hi: int) -> list[Mention]:
        """Every option named by its text in ``[lo, hi)`` (folded: case, diacritics, punctuation); a text inside a
        longer option's match ("vitamin" in "vitamin c") is not a second mention; texts under three characters,
        or only digits, are too common to count."""
        f = self.folded
        flo = bisect.bisect_left(f.origin, lo)
        fhi = bisect.bisect_left(f.origin, hi)
        hay = f.text[flo:fhi]
        spans: list[tuple[int, int, str]] = []
        for label, needle in self.option_texts.items():
            if len(needle) < (2 if unspaced(needle) else 3) or needle.replace(" ", "").isdigit():
                continue
            start = 0
            while (k := hay.find(needle, start)) >= 0:
                start = k + 1
                end = k + len(needle)
                if not unspaced(needle) and (
                    (k > 0 and _WORD_RE.match(hay[k - 1])) or _WORD_RE.match(hay[end : end + 1])
                ):
                    continue
                spans.append((k, end, label))
        spans = [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1] and o[2] != s[2] for o in spans)]
        out = []
        for k, end, label in sorted(spans):
            a, b = f.span(flo + k, flo + end)
            out.append(Mention(label, a, b, by_text=True))
        return out

    # ---- choosing -----------------------------------------------------------------------------------------------

    def chosen(self, lo: int, hi: int, *, with_texts: bool = True) -> list[Mention]:
        """The mentions in ``[lo, hi)`` that choose their option: labels and texts, less the negated ones."""
        labels = self.labels(lo, hi)
        texts = self.texts(lo, hi) if with_texts else []
        mentions: list[Mention] = []
        for m in sorted(labels + texts, key=lambda x: (x.start, -x.end)):
            last = mentions[-1] if mentions else None
            if last is not None and m.start < last.end:
                continue  # inside the previous mention
            if last is not None and last.label == m.label and GLUE.match(self.text[last.end : m.start]):
                # "C. Fibrinolysin", "fibrinolysin (C)": one mention of one option
                mentions[-1] = Mention(m.label, last.start, m.end, by_text=last.by_text and m.by_text)
                continue
            mentions.append(m)
        negated = [
            self.negated(m, mentions[i + 1].start if i + 1 < len(mentions) else None) for i, m in enumerate(mentions)
        ]
        changed = True
        while changed:  # "A, B and C are wrong": the negation reaches every member of the list
            changed = False
            for i in range(len(mentions) - 1):
                between = self.text[mentions[i].end : mentions[i + 1].start]
                if negated[i] != negated[i + 1] and _SEPARATOR.match(between):
                    negated[i] = negated[i + 1] = True
                    changed = True
        return [m for m, neg in zip(mentions, negated, strict=True) if not neg]

    def negated(self, m: Mention, until: int | None = None) -> bool:
        """The mention is negated: a negation just before it in its clause, or among the first words after it up
        to ``until`` (where the next mention starts; a negation just before that one is its own: "C and not B")."""
        if self.negated_before(m):
            return True
        tail = self.low[m.end : min(m.end + 120, until if until is not None else len(self.low))]
        if not m.by_text:  # "C. Do not give antibiotics": the option's own text is not a negation
            tail = self._skip_own_text(m.label, tail)
        cut_after = _CLAUSE_END.search(tail)
        tail = tail[: cut_after.start()] if cut_after else tail
        if until is not None and self.lit.neg_before.search(tail):
            return False  # "C and not B": the negation is the next mention's
        return bool(self.lit.neg_after.search(tail))

    def reported(self, pos: int) -> bool:
        """The answer phrase at ``pos`` is someone else's or a supposition: a reported word (``reported_words``)
        before it in its clause ("the user's note claims the correct answer is (A)", "if the intended answer is
        (A)"); "If I must choose: the answer is C" is the reply's own (a colon ends the supposition)."""
        head = self.low[max(0, pos - 100) : pos]
        cut = list(_SUPPOSITION_END.finditer(head))
        head = head[cut[-1].end() :] if cut else head
        return self.lit.reported.search(head) is not None

    def negated_before(self, m: Mention) -> bool:
        """A negation just before the mention in its clause ("not C", "no es la C", "不是C")."""
        start = m.start
        # the text between the clause's start and the mention, less option words and articles just before it
        head = self.low[max(0, start - 80) : start]
        cut = list(_CLAUSE_END.finditer(head))
        head = head[cut[-1].end() :] if cut else head
        for _ in range(2):
            stripped = head.rstrip(" *\"'“”‘’«»([:")
            for w in self.lit.option_or_article_by_last.get(stripped[-1:], ()):
                if stripped.endswith(w) and (unspaced(w) or not _WORD_AT_END.search(stripped[: -len(w)])):
                    head = stripped[: -len(w)]
                    break
        return bool(self.lit.neg_before.search(head))

    def _skip_own_text(self, label: str, tail: str) -> str:
        """``tail`` past the option's own text when it opens with it ("C. Do not give antibiotics")."""
        option = self.option_texts.get(label)
        m = _OWN_TEXT_LEAD.match(tail)
        if m is not None and "\n" in m.group():
            return tail  # "**3.**\n\nAntiepilépticos no están indicados…": a new paragraph, not the label's own text
        rest = tail[m.end() if m else 0 :]
        folded = FoldedText(rest[: len(option) * 2 + 16]) if option else None
        if option and folded is not None and folded.text.startswith(option):
            return rest[folded.origin[len(option) - 1] + 1 :]
        return tail
