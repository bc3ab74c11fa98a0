"""MedArabiQ: seven Arabic medical tasks (Abu Daoud et al. 2025; shared/specs/medarabiq.md).

The licence forbids redistribution, so nothing of the data ships with xlingmed: ``--data-dir`` points at the
user's own copy of the seven published CSVs. Reader contract (spec §2): ``utf-8-sig`` (six files have a BOM, the
bias file does not), the ``csv`` module (quoted fields hold bare LF while records end in CRLF; the bias file has
lone CR inside fields), exact headers, stray unnamed empty columns dropped, and quirks *logged*, never "fixed":
prompts are built from the raw cell text, gold comparisons use stripped values.

Multiple-choice cells embed their options (``أ. …`` one per line, sometimes inline after a colon, sometimes
wrapped onto continuation lines); ``parse_options`` splits stem and options and maps every label to a canonical
Latin letter (``languages.normalise_label``). The gold label is the letter at the start of the answer cell; the
one fill-in-the-blank answer without a letter is matched against the options, else the English gold is used,
and the item is flagged.

Item ids are ``<task>-<row:03d>`` with 0-based data rows, shared by the Arabic and English views of the bilingual
fill-in-the-blank files, so their comparison is paired.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed.errors import ConfigError, DataError, DataNotFoundError
from xlingmed.languages import CANONICAL_LETTERS, get_language, normalise_label
from xlingmed.types import Choice, Item


@dataclass(frozen=True)
class TaskFile:
    """One published CSV: its name, exact header, the columns of each language, and its published sha256."""

    file: str
    header: tuple[str, ...]
    question: dict[str, str]  # lang -> column
    answer: dict[str, str]  # lang -> column
    kind: str  # "multiple_choice" | "bias" | "open"
    sha256: str
    expected_rows: tuple[int, ...] = (100,)
    category: str | None = None


_FITB = ("Question - Arabic", "Answer - Arabic", "Question - English", "Answer - English", "Category")
_FITB_Q = {"ar": "Question - Arabic", "en": "Question - English"}
_FITB_A = {"ar": "Answer - Arabic", "en": "Answer - English"}

# Spec §1: the files at the authors' HEAD 1d3d77a (2025-06-17).
TASKS: dict[str, TaskFile] = {
    "mcq": TaskFile(
        "multiple-choice-questions.csv",
        ("Question", "Answer", "Category"),
        {"ar": "Question"},
        {"ar": "Answer"},
        "multiple_choice",
        "32512d071c9d0291421961de778105e0262997830a3df39f81c0ac99b8e00824",
        category="Category",
    ),
    "mcq_bias": TaskFile(
        "multiple-choice-withbias.csv",
        (
            "Question",
            "Answer",
            "Category",
            "Bias Category",
            "Question with Bias",
            "Bias Education",
            "One-shot Demonstration",
            "Few-shot Demonstration",
        ),
        {"ar": "Question"},
        {"ar": "Answer"},
        "bias",
        "57d17288b96424ec8cdedd386f50567e747e0b96e3f355aeda0f193292e30dd9",
        expected_rows=(100, 98),
        category="Category",
    ),
    "fitb_choices": TaskFile(
        "fill-in-the-blank-choices.csv",
        _FITB,
        _FITB_Q,
        _FITB_A,
        "multiple_choice",
        "40cb672f8335cea8018beca8e6de2295a954127c76330fe602eaae4e942e161e",
        category="Category",
    ),
    "fitb_open": TaskFile(
        "fill-in-the-blank-nochoices.csv",
        _FITB,
        _FITB_Q,
        _FITB_A,
        "open",
        "3e4603b4460f4b73c30aeb9aa7ae7e03f57156de3818fd7092a11d4ee2e3f5f3",
        category="Category",
    ),
    "qa": TaskFile(
        "patient-doctor-qa.csv",
        ("Question_description", "Answer_details"),
        {"ar": "Question_description"},
        {"ar": "Answer_details"},
        "open",
        "ab68b3b74a63b27df887a3be804c9cb5fa33767acc58613461ea3f5c129f2598",
    ),
    "qa_gec": TaskFile(
        "patient-doctor-qa-gec.csv",
        ("GEC Question description", "GEC Answer details"),
        {"ar": "GEC Question description"},
        {"ar": "GEC Answer details"},
        "open",
        "bdddcda4baebc0dc0b1ea606c68e97873a3d7ebea3fac1fcfab94e7f9b1e4cfa",
    ),
    "qa_llm": TaskFile(
        "patient-doctor-qa-llm.csv",
        ("Modified question description", "Unmodified answer"),
        {"ar": "Modified question description"},
        {"ar": "Unmodified answer"},
        "open",
        "fc2d99fcfdb84d4bbbdb0587dd78b8184f255c1711bf507510987cf547de2b36",
    ),
}

# The five prompt variants of one bias item (paper Table 2 columns), and the CSV column of each.
BIAS_CONDITIONS: dict[str, str] = {
    "original": "Question",
    "biased": "Question with Bias",
    "education": "Bias Education",
    "one_shot": "One-shot Demonstration",
    "few_shot": "Few-shot Demonstration",
}
# Bias Category codes (spec §2.2, the order (i)–(vii) of the paper's §4.1.2).
BIAS_NAMES: dict[int, str] = {
    1: "confirmation",
    2: "recency",
    3: "frequency",
    4: "cultural",
    5: "false_consensus",
    6: "status_quo",
    7: "self_diagnosis",
}
PAPER_COMPAT_ROWS = 98  # the paper's Table 2 is k/98: the bias file before rows 98-99 were added
DATA_DIR_ENV = "XLINGMED_MEDARABIQ_DIR"


# --------------------------------------------------------------------------------------------------------------
# Reading a CSV


@dataclass
class Table:
    """A parsed CSV: named columns only, one dict per data row, and what was noticed on the way."""

    path: Path
    header: list[str]
    rows: list[dict[str, str]]
    quirks: list[str]
    bom: bool
    sha256: str


def read_medarabiq_csv(path: str | os.PathLike[str], header: Sequence[str]) -> Table:
    """Read one MedArabiQ CSV by the reader contract of spec §2.

    Args:
        path: the CSV file.
        header: the exact expected column names (order free); unnamed columns that are empty in every row are
            dropped (the bias file's trailing comma, the GEC file's ``,,,,``).

    Returns:
        A ``Table`` whose rows map each expected column to its raw cell text (not stripped).

    Raises:
        DataError: not UTF-8, a missing or unexpected column, an unnamed column with values, a row with another
            number of fields, or an empty cell; the message names the file, the row (as a spreadsheet shows it:
            header = row 1, so data row k is row k + 2; the CSV line is given too, as quoted fields span lines)
            and the column.
    """
    path = Path(path)
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(
            f"not UTF-8 (byte 0x{raw[exc.start]:02x} at line {line}, offset {exc.start}): {exc.reason}", file=str(path)
        ) from None
    records: list[tuple[int, list[str]]] = []
    # newline="": line ends inside quoted fields (bare LF, lone CR) stay data, as with open(..., newline="")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        for rec in reader:
            records.append((reader.line_num, rec))
    except csv.Error as exc:
        raise DataError(f"CSV syntax error near line {reader.line_num}: {exc}", file=str(path)) from None
    if not records:
        raise DataError("empty file (no header)", file=str(path))
    head = [h.strip() for h in records[0][1]]
    data = records[1:]
    quirks: list[str] = [] if bom else ["no UTF-8 BOM"]
    for k, (line, rec) in enumerate(data):
        if len(rec) != len(head):
            raise DataError(
                f"{len(rec)} fields where the header has {len(head)} (CSV line {line})", file=str(path), row=k + 2
            )
    keep: list[int] = []
    for j, name in enumerate(head):
        if name:
            keep.append(j)
            continue
        filled = [k for k, (_, rec) in enumerate(data) if rec[j].strip()]
        if filled:
            raise DataError(
                f"unnamed column {j + 1} has values (first at data row {filled[0]})", file=str(path), column=f"#{j + 1}"
            )
    if len(keep) < len(head):
        quirks.append(f"dropped {len(head) - len(keep)} unnamed empty column(s)")
    names = [head[j] for j in keep]
    missing = [h for h in header if h not in names]
    unexpected = [h for h in names if h not in header]
    if missing or unexpected or len(set(names)) != len(names):
        raise DataError(
            f"header {names} is not the published one {list(header)}"
            + (f"; missing {missing}" if missing else "")
            + (f"; unexpected {unexpected}" if unexpected else ""),
            file=str(path),
            row=None,
        )
    rows: list[dict[str, str]] = []
    for k, (line, rec) in enumerate(data):
        row = {head[j]: rec[j] for j in keep}
        for col, value in row.items():
            if not value.strip():
                raise DataError(f"empty cell (CSV line {line})", file=str(path), row=k + 2, column=col)
        rows.append(row)
    crlf_inside = sum(v.count("\r") for r in rows for v in r.values())
    if crlf_inside:
        quirks.append(f"{crlf_inside} carriage return(s) inside fields")
    padded = sum(1 for r in rows for v in r.values() if v != v.strip())
    if padded:
        quirks.append(f"{padded} cell(s) with leading/trailing whitespace (stripped in prompts and gold)")
    zw = sum(v.count("\u200b") for r in rows for v in r.values())
    if zw:
        quirks.append(f"{zw} zero-width space(s)")
    return Table(path, names, rows, quirks, bom, hashlib.sha256(raw).hexdigest())


# --------------------------------------------------------------------------------------------------------------
# Options inside a question cell


_LABEL = r"(?:هـ|[أاإآبجدهةA-Ha-h])"
_OPTION_LINE = re.compile(rf"^\s*({_LABEL})\s*[.)](?:\s*\.)*\s*(.*)$", re.S)
_INLINE_FIRST = re.compile(r"^(.*?[:：])\s*([أاإآA])\s*\.(?:\s*\.)*\s*(.+)$", re.S)


@dataclass(frozen=True)
class ParsedOptions:
    """A multiple-choice cell split into its stem and options; ``flags`` say what was irregular."""

    stem: str
    choices: tuple[Choice, ...]
    flags: tuple[str, ...]


def clean_mc_text(text: str) -> str:
    """Normalise line ends to LF, drop zero-width spaces, strip whitespace and unpaired literal quotes (§3.3 step 1)."""
    t = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u200b", "").strip()
    if t.startswith('"'):
        t = t[1:]
    if t.endswith('"'):
        t = t[:-1]
    return t.strip()


def parse_options(text: str) -> ParsedOptions:
    """Split a multiple-choice cell into stem and options (spec §3.3).

    A line that starts with a label and ``.``/``)`` opens an option (``أ.``, ``ا.``, ``هـ.``, ``A.``, doubled dots
    tolerated); the first option may also sit inline after a colon on the stem line; a later non-empty line
    without a label continues the previous option; blank lines are skipped. Labels must rise (A, B, C…): a line
    whose label is not after the previous one is continuation text; a label that skips one (A, B, C, E) opens
    an option as printed and flags the item.

    Returns:
        ``ParsedOptions``; flags: ``no_options``, ``fewer_than_two_options``, ``duplicate_option_text``,
        ``first_option_inline``, ``non_contiguous_labels``.
    """
    lines = clean_mc_text(text).split("\n")
    stem: list[str] = []
    opts: list[list[str]] = []  # [canonical, raw, text]
    flags: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        m = _OPTION_LINE.match(line)
        label = normalise_label(m.group(1)) if m else None
        previous = CANONICAL_LETTERS.index(opts[-1][0]) if opts else -1
        if m and label is not None and CANONICAL_LETTERS.index(label) > previous and (opts or m.group(2).strip()):
            if CANONICAL_LETTERS.index(label) != previous + 1 and "non_contiguous_labels" not in flags:
                flags.append("non_contiguous_labels")  # A, B, C, E: split as printed, flagged
            opts.append([label, m.group(1), m.group(2).strip()])
            continue
        if not opts:
            inline = _INLINE_FIRST.match(line)
            if inline and "\n" not in inline.group(1):
                stem.append(inline.group(1).strip())
                opts.append(["A", inline.group(2), inline.group(3).strip()])
                flags.append("first_option_inline")
                continue
            stem.append(line.strip())
        else:
            opts[-1][2] = f"{opts[-1][2]} {line.strip()}".strip()
    if not opts:
        flags.append("no_options")
    elif len(opts) < 2:
        flags.append("fewer_than_two_options")
    texts = [_norm(o[2]) for o in opts]
    if len(set(texts)) < len(texts):
        flags.append("duplicate_option_text")
    return ParsedOptions(
        "\n".join(stem), tuple(Choice(label=o[0], raw_label=o[1], text=o[2]) for o in opts), tuple(flags)
    )


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).rstrip(".").casefold()


def gold_label(answer: str, choices: Sequence[Choice]) -> tuple[str | None, str]:
    """The gold label of an answer cell such as ``د. البزل المتكرر``: (label, how).

    ``how`` is ``letter`` (a label at the start), ``text`` (no label: the text equals one option's), or
    ``none``.
    """
    cell = clean_mc_text(answer)
    m = _OPTION_LINE.match(cell)
    if m:
        label = normalise_label(m.group(1))
        if label is not None and (not m.group(2).strip() or any(c.label == label for c in choices)):
            return label, "letter"
    matches = [c.label for c in choices if _norm(c.text) == _norm(cell)]
    if len(matches) == 1:
        return matches[0], "text"
    return None, "none"


# --------------------------------------------------------------------------------------------------------------
# Items


def data_file(task: str, data_dir: str | os.PathLike[str] | None) -> Path:
    """The CSV of ``task`` in ``data_dir`` (else ``$XLINGMED_MEDARABIQ_DIR``, else ``$XLINGMED_DATA_DIR``).

    Raises:
        DataNotFoundError: no folder given, or the file is not in it. MedArabiQ is never downloaded: its licence
            forbids redistribution.
    """
    spec = TASKS[task]
    folder = data_dir or os.environ.get(DATA_DIR_ENV) or os.environ.get("XLINGMED_DATA_DIR")
    if not folder:
        raise DataNotFoundError(
            f"MedArabiQ ({spec.file}) is not redistributable and is never downloaded: pass --data-dir with your "
            f"own copy of the published CSVs (or set {DATA_DIR_ENV})"
        )
    path = Path(folder) / spec.file
    if not path.is_file():
        raise DataNotFoundError(f"{path} not found: --data-dir must hold the published MedArabiQ file {spec.file}")
    return path


def load_items(
    task: str,
    data_dir: str | os.PathLike[str] | None,
    languages: Sequence[str],
    *,
    limit: int | None = None,
    paper_compat: bool = False,
) -> tuple[list[Item], dict[str, Any]]:
    """Load one MedArabiQ task as Items (one per data row and language).

    Args:
        task: ``mcq``, ``mcq_bias``, ``fitb_choices``, ``fitb_open``, ``qa``, ``qa_gec``, ``qa_llm``.
        data_dir: folder with the published CSVs (see ``data_file``).
        languages: ``ar``; the two fill-in-the-blank tasks also hold ``en`` (their parallel English columns).
        limit: the first ``limit`` data rows.
        paper_compat: ``mcq_bias`` only: use rows 0–97, the 98 items of the paper's Table 2 (spec §1).

    Returns:
        (items ordered by row then language, provenance: file, sha256, ``version`` ("published version" when the
        sha256 equals the published file's, else "unknown version"), rows, quirks, flagged items).

    Raises:
        ConfigError: a language the task's file does not hold.
        DataError, DataNotFoundError: see ``read_medarabiq_csv`` and ``data_file``; also an answer cell whose
            gold label cannot be found (file, row, column named).
    """
    spec = TASKS[task]
    for code in languages:
        get_language(code)
        if code not in spec.question:
            raise ConfigError(
                f"medarabiq/{task} has no {get_language(code).name} text; its languages: {', '.join(spec.question)}"
            )
    path = data_file(task, data_dir)
    table = read_medarabiq_csv(path, spec.header)
    n_rows = len(table.rows)
    quirks = list(table.quirks)
    if n_rows not in spec.expected_rows:
        quirks.append(f"{n_rows} data rows (published: {spec.expected_rows[0]})")
    rows = list(enumerate(table.rows))
    if paper_compat and task == "mcq_bias":
        rows = rows[:PAPER_COMPAT_ROWS]
    if limit is not None:
        rows = rows[:limit]
    bias_context: dict[int, list[str]] = _bias_context(table.rows) if spec.kind == "bias" else {}
    items: list[Item] = []
    for k, row in rows:
        for code in languages:
            items.append(_item(task, spec, path, k, row, code, bias_context))
    flagged = {f"{it.item_id}/{it.lang}": it.meta["flags"] for it in items if it.meta["flags"]}
    provenance = {
        "file": str(path),
        "sha256": table.sha256,
        "published_sha256": spec.sha256,
        "version": "published version" if table.sha256 == spec.sha256 else "unknown version",
        "bom": table.bom,
        "rows_in_file": n_rows,
        "rows_used": len(rows),
        "paper_compat": paper_compat if task == "mcq_bias" else None,
        "quirks": quirks,
        "flagged_items": flagged,
    }
    return items, provenance


def _item(
    task: str,
    spec: TaskFile,
    path: Path,
    k: int,
    row: dict[str, str],
    lang: str,
    bias_context: dict[int, list[str]],
) -> Item:
    qcol, acol = spec.question[lang], spec.answer[lang]
    question, answer = row[qcol], row[acol]
    meta: dict[str, Any] = {"source_file": path.name, "row": k, "flags": []}
    if spec.category:
        meta["category"] = row[spec.category].strip()
    choices: tuple[Choice, ...] = ()
    gold: str | None = None
    reference = answer.strip()
    if spec.kind in ("multiple_choice", "bias"):
        parsed = parse_options(question)
        meta["flags"] += list(parsed.flags)
        meta["stem"] = parsed.stem
        if "no_options" in parsed.flags:
            raise DataError("no options found in the question text", file=str(path), row=k + 2, column=qcol)
        choices = parsed.choices
        gold, how = gold_label(answer, choices)
        if how == "text":
            meta["flags"].append("answer_missing_letter")
        if gold is None and lang != "en" and "en" in spec.answer:
            # FITB row 86: an Arabic answer without a letter whose text is no option; the parallel English gold
            # letter is the same (spec §2.3), so it is used and the item flagged.
            en_gold, _ = gold_label(row[spec.answer["en"]], parse_options(row[spec.question["en"]]).choices)
            if en_gold is not None:
                gold = en_gold
                meta["flags"].append("gold_from_english")
        if gold is None:
            raise DataError(
                f"no option label in the answer {answer.strip()[:40]!r}", file=str(path), row=k + 2, column=acol
            )
        if all(c.label != gold for c in choices):
            meta["flags"].append("gold_not_among_options")
        reference = answer.strip()
    if spec.kind == "bias":
        code_raw = row["Bias Category"].strip()
        if not code_raw.isdigit() or int(code_raw) not in BIAS_NAMES:
            raise DataError(
                f"bias code {code_raw!r} is not one of 1–7", file=str(path), row=k + 2, column="Bias Category"
            )
        code = int(code_raw)
        meta["bias_code"] = code
        meta["bias_name"] = BIAS_NAMES[code]
        # the interface of perturbations.bias: "original" and "<condition>|<bias>"
        meta["variants"] = {
            (cond if cond == "original" else f"{cond}|{BIAS_NAMES[code]}"): row[col]
            for cond, col in BIAS_CONDITIONS.items()
        }
        biased = parse_options(row["Question with Bias"])
        if [c.label for c in biased.choices] != [c.label for c in choices]:
            meta["flags"].append("biased_question_options_differ")
        meta["flags"] += bias_context.get(k, [])
    return Item(
        item_id=f"{task}-{k:03d}",
        benchmark=f"medarabiq/{task}",
        lang=lang,
        question=question,
        reference=reference,
        choices=choices,
        gold_label=gold,
        meta=meta,
    )


def _squash(text: str) -> str:
    return " ".join(clean_mc_text(text).split())


def _bias_context(rows: Sequence[dict[str, str]]) -> dict[int, list[str]]:
    """Flags that need the whole bias file (spec §2.2 quirks 1–3): mitigation text of another bias code, one-shot
    identical to few-shot, demonstrations that end with the original instead of the biased question."""
    out: dict[int, list[str]] = {}

    def first_line(text: str) -> str:
        return _squash(text.replace("\r", "\n").strip().split("\n")[0])

    by_code: dict[str, Counter[str]] = {}
    for r in rows:
        by_code.setdefault(r["Bias Category"].strip(), Counter())[first_line(r["Bias Education"])] += 1
    modal = {code: c.most_common(1)[0][0] for code, c in by_code.items()}
    for k, r in enumerate(rows):
        flags: list[str] = []
        code = r["Bias Category"].strip()
        edu = first_line(r["Bias Education"])
        if edu != modal.get(code) and any(edu == m for c, m in modal.items() if c != code):
            flags.append("mitigation_text_from_other_bias")
        if _squash(r["One-shot Demonstration"]) == _squash(r["Few-shot Demonstration"]):
            flags.append("one_shot_equals_few_shot")
        original, biased = _squash(r["Question"]), _squash(r["Question with Bias"])
        one_shot = _squash(r["One-shot Demonstration"])
        if one_shot.endswith(original) and not one_shot.endswith(biased):
            flags.append("mitigation_uses_original_question")
        if flags:
            out[k] = flags
    return out


# --------------------------------------------------------------------------------------------------------------
# Protocol defaults (paper §3.2, App. B; spec §4.1)

MC_TASKS = ("mcq", "mcq_bias", "fitb_choices")
OPEN_TASKS = ("fitb_open", "qa", "qa_gec", "qa_llm")
# Names of the paper's closed (API) models and their families; everything else counts as open weights.
_CLOSED = re.compile(r"(^|[/_-])(gpt|o[1-9]|claude|gemini|deepseek|chatgpt)", re.I)
# Default max_tokens per task: unstated in the paper; a letter needs few, a term a few words, an answer more
# (spec §9.7).
MAX_TOKENS = {"mcq": 16, "mcq_bias": 16, "fitb_choices": 16, "fitb_open": 64, "qa": 512, "qa_gec": 512, "qa_llm": 512}


def model_class(model_id: str, declared: str = "auto") -> str:
    """``open`` or ``closed``: ``declared`` unless ``auto``, else ``closed`` for the API families the paper ran
    (GPT, Claude, Gemini, DeepSeek) and ``open`` for the rest (every in-process GGUF)."""
    if declared in ("open", "closed"):
        return declared
    _, _, name = model_id.partition("/")
    return "closed" if _CLOSED.search(name) and not model_id.startswith("llamacpp/") else "open"


def default_temperature(task: str, klass: str) -> float:
    """The paper's temperature (§3.2): classification tasks (MCQ, bias, both FITB) 0.0 for open models and 0.2
    for closed ones; patient–doctor Q&A 0.4 open, 0.2 closed."""
    if klass == "closed":
        return 0.2
    return 0.4 if task in ("qa", "qa_gec", "qa_llm") else 0.0


def describe(task: str, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """Per language: rows, flagged items and mean whitespace words of question and answer (stripped)."""
    spec = TASKS[task]
    items, prov = load_items(task, data_dir, tuple(spec.question))
    out = []
    for lang in spec.question:
        sel = [it for it in items if it.lang == lang]
        q = [len(it.question.split()) for it in sel]
        a = [len(it.reference.split()) for it in sel]
        out.append(
            {
                "lang": lang,
                "questions": len(sel),
                "question_words_mean": round(sum(q) / len(q), 2) if q else None,
                "answer_words_mean": round(sum(a) / len(a), 2) if a else None,
                "flagged": sum(1 for it in sel if it.meta["flags"]),
                "version": prov["version"],
            }
        )
    return out
