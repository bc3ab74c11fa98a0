"""Human rating of machine translations (XLingEval App. A, Table A2).

XLingEval chose its translation engine per language by having annotators rate sampled translations of the
benchmark questions on a five-point Likert scale (1 = strongly disagree … 5 = strongly agree) on two dimensions:

1. Fluency: "Is the [TARGET LANGUAGE] version a good translation of the English text?"
2. Meaning: "Does the [TARGET LANGUAGE] version faithfully convey the same meaning as the English text?"

and reported, per target language, the mean of each dimension per engine and one Cohen's κ (Table A2).

Input: translated benchmark files (``xlingmed translate``; any table ``read_table`` reads), one row per (item,
language): ``item_id``, ``lang``, ``question`` (``reference`` for open questions, ``options`` + ``answer`` for
multiple choice), ``source_lang`` and ``translator`` (both empty on the source rows, the original language; the
source's code and the engine's ``provider/model`` on translated rows). A translated row pairs with the source row
of the same ``item_id`` whose ``lang`` is its ``source_lang``, in any of the files given.

``build_translation_set`` writes a set folder (staged, then renamed: never half-written, never overwritten):

* ``set.json``: ``kind: "translation"``, the files read (path, sha256), fields, per_language, seed, per target
  language the engines and how many items each had / all had / were drawn, the engines (``translators``), the
  scale and the two questions;
* ``items.jsonl``: one rating item per (item_id, target language, field, engine), in a seeded shuffled order (the
  engines mixed): ``id`` (``item_id:lang:field:translator``), ``item_id``, ``lang``, ``source_lang``, ``field``,
  ``source`` (the text in the source language), ``translation``, ``translator``, ``source_file``, ``row`` and the
  file's quality-estimation context where present (``qe_chrf``, ``qe_bertscore``, ``flagged``, ``flag_reason``),
  none of which but the two texts and the languages is shown to the annotator (the rating is blind);
* ``annotators.json``: annotator name → secret token (the only copy; file mode 0600);
* ``ratings.sqlite``: created by the first rating (``ratings.py``).

``xlingmed annotate serve SET`` serves it (``server.py``); ``translation_table`` turns the ratings into Table A2.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xlingmed.annotate.agreement import inter_rater_kappa
from xlingmed.annotate.ratings import DIMENSIONS, SCALE, SCALE_NAMES, Rating
from xlingmed.annotate.sample import AnnotationSet, check_new_set, write_set
from xlingmed.annotate.translation_files import TranslatedRow, pair_rows, read_rows
from xlingmed.errors import ConfigError, DataError
from xlingmed.hashing import sha256_file
from xlingmed.languages import LANGUAGES

TRANSLATION_FIELDS = ("question", "reference", "options")
QUESTIONS = {
    "fluency": "Is the {target} version a good translation of the {source} text?",
    "meaning": "Does the {target} version faithfully convey the same meaning as the {source} text?",
}
FIELD_NAMES = {"question": "Question", "reference": "Expert answer", "options": "Answer options"}


def question_text(dimension: str, target_lang: str, source_lang: str = "en") -> str:
    """The paper's question for ``dimension`` (``fluency`` | ``meaning``) with [TARGET LANGUAGE] (and the source,
    English in the paper) filled by the languages' English names."""
    return QUESTIONS[dimension].format(target=language_name(target_lang), source=language_name(source_lang))


def language_name(code: str) -> str:
    """The English name of a language code (the code itself when the registry does not know it)."""
    return LANGUAGES[code].name if code in LANGUAGES else code


def build_translation_set(
    files: Sequence[Path],
    out_dir: Path,
    *,
    fields: Sequence[str] = ("question",),
    per_language: int = 50,
    seed: int = 0,
    annotators: Sequence[str] = ("a1", "a2"),
) -> AnnotationSet:
    """Draw translations of benchmark items for human rating (XLingEval App. A: 50 questions per dataset, every
    engine's translation of each, rated for fluency and meaning) → a translation-rating set folder.

    Per target language, ``per_language`` item ids are drawn (seeded, per language) among the items every engine
    of that language translated, so the engines are compared on the same questions (all of them when fewer);
    each drawn item gives one rating item per field and engine.

    Args:
        files: translated benchmark files (``.jsonl``, ``.csv``…), typically one per engine; the source rows may
            be in any of them (repeated in several is fine when their texts agree).
        out_dir: the set folder to create (must not exist yet).
        fields: the texts to rate, from ``question``, ``reference`` (open questions: the expert answer) and
            ``options`` (multiple choice: the options, as ``A. text`` lines).
        per_language: item ids drawn per target language, ≥ 1.
        seed: fixes the items drawn and their (shuffled) order.
        annotators: names; each gets a secret token.

    Returns:
        the set (``kind == "translation"``), as ``load_annotation_set`` reads it.

    Raises:
        ConfigError: no file, unknown or repeated fields, ``per_language`` < 1, bad annotator names, or ``out_dir``
            exists.
        DataNotFoundError: a file that does not exist.
        DataError: a file that does not parse or lacks a column; a bad cell (unknown language, empty item id,
            translator without source language or the reverse, unreadable options, an empty source text); the same
            (item_id, lang, translator) twice (both files named); a translated row without its source row; source
            rows of one item that differ between files; nothing translated — file, row (1-based data row + 1, as a
            spreadsheet shows it) and column named.
    """
    if not files:
        raise ConfigError("no translated file given")
    fields = list(fields)
    unknown = [f for f in fields if f not in TRANSLATION_FIELDS]
    if not fields or unknown or len(set(fields)) != len(fields):
        raise ConfigError(f"--fields: distinct names from {', '.join(TRANSLATION_FIELDS)}, got {fields}")
    if isinstance(per_language, bool) or not isinstance(per_language, int) or per_language < 1:
        raise ConfigError(f"--per-language must be an integer ≥ 1, got {per_language!r}")
    return _build(files, out_dir, fields, per_language, seed, check_new_set(out_dir, annotators))


def _build(
    files: Sequence[Path], out_dir: Path, fields: list[str], per_language: int, seed: int, names: list[str]
) -> AnnotationSet:
    """``build_translation_set`` once its arguments are checked (``names``: the annotators)."""
    paths = [Path(f) for f in files]
    rows = [r for p in paths for r in read_rows(p, fields)]
    sources, translations = pair_rows(rows, fields)

    langs = list(dict.fromkeys(r.lang for r in translations.values()))
    engines_all = list(dict.fromkeys(r.translator for r in translations.values()))
    if not langs:
        raise DataError(
            "no translated row (rows with a translator and a source_lang)", file=", ".join(str(p) for p in paths)
        )
    items: list[dict[str, Any]] = []
    per_lang: dict[str, dict[str, Any]] = {}
    for lang in langs:
        engines = [e for e in engines_all if any(k[1] == lang and k[2] == e for k in translations)]
        ids = {e: {k[0] for k in translations if k[1] == lang and k[2] == e} for e in engines}
        common = sorted(set.intersection(*ids.values()))
        drawn = sorted(random.Random(f"{seed}:{lang}").sample(common, min(per_language, len(common))))
        per_lang[lang] = {
            "translators": engines,
            "translated": {e: len(v) for e, v in ids.items()},
            "translated_by_all": len(common),
            "sampled": len(drawn),
        }
        items += _rating_items(lang, drawn, fields, engines, sources, translations)
    random.Random(seed).shuffle(items)  # annotators see languages and engines mixed
    settings = {
        "kind": "translation",
        "files": [{"path": str(p.resolve()), "sha256": sha256_file(p)} for p in paths],
        "fields": fields,
        "per_language": per_language,
        "seed": seed,
        "languages": per_lang,
        "translators": engines_all,
        "scale": {str(k): v for k, v in SCALE_NAMES.items()},
        "questions": dict(QUESTIONS),
        "n_items": len(items),
    }
    return write_set(out_dir, settings, items, names)


def _rating_items(
    lang: str, drawn: list[str], fields: list[str], engines: list[str],
    sources: dict[tuple[str, str], TranslatedRow], translations: dict[tuple[str, str, str], TranslatedRow],
) -> list[dict[str, Any]]:  # fmt: skip
    """One rating item per drawn item id × field × engine of ``lang``: the source text beside its translation."""
    items = []
    for item_id in drawn:
        for fld in fields:
            for engine in engines:
                t = translations[(item_id, lang, engine)]
                items.append(
                    {
                        "id": f"{item_id}:{lang}:{fld}:{engine}",
                        "item_id": item_id,
                        "lang": lang,
                        "source_lang": t.source_lang,
                        "field": fld,
                        "source": sources[(item_id, t.source_lang)].texts[fld],
                        "translation": t.texts[fld],
                        "translator": engine,
                        "source_file": t.file.name,
                        "row": t.row,
                        **t.context,
                    }
                )
    return items


def _translation_set(annotation_set: AnnotationSet) -> None:
    if annotation_set.kind != "translation":
        raise ConfigError(f"{annotation_set.path} is a {annotation_set.kind} set, not a translation-rating set")


def translation_table(annotation_set: AnnotationSet, ratings: Sequence[Rating]) -> list[dict[str, Any]]:
    """Translation quality per target language (XLingEval App. A, Table A2), and a final ``all`` row.

    Ratings of items not in the set or by someone not among its annotators are ignored; the fields rated
    (question, reference, options) are pooled.

    Returns:
        one row per target language (the set's order) and ``all``, flat columns:

        * ``lang``; ``n_questions`` (distinct item ids rated), ``n_items`` (rating items — item × field × engine —
          with at least one rating), ``n_annotators``, ``n_ratings``;
        * ``fluency:<engine>`` then ``meaning:<engine>`` for every engine of the set (``<engine>`` its
          ``provider/model`` id, e.g. ``fluency:openai/gpt-4o``): the mean score (1–5) over that engine's rated
          items × annotators; ``None`` where it has none (an engine not used for that language);
        * ``n_ratings:<engine>``: the number of ratings each mean is over;
        * ``kappa``, ``kappa_kind`` (``cohen`` for exactly two annotators, scikit-learn; ``fleiss`` for three or
          more, statsmodels): agreement between the annotators on the rating items every one of them rated,
          fluency and meaning pooled (each item gives two ratings per annotator), as the paper gives one κ per
          language; ``kappa_weighted``: quadratic-weighted Cohen's κ on the same ratings (two annotators only,
          else ``None``); ``n_kappa_items``: those rating items. κ is ``None`` (never NaN) when undefined: fewer
          than two annotators, no item all rated, or every rating the same score.

    Raises:
        ConfigError: a judge-check set (its table is ``agreement_table``).
    """
    _translation_set(annotation_set)
    items = {it["id"]: it for it in annotation_set.items}
    engines = list(annotation_set.settings.get("translators", []))
    by_item: dict[str, dict[str, Rating]] = defaultdict(dict)
    for r in ratings:
        if r.item in items and r.annotator in annotation_set.annotators:
            by_item[r.item][r.annotator] = r
    langs = list(annotation_set.settings.get("languages") or dict.fromkeys(it["lang"] for it in items.values()))
    rows = []
    for lang in [*langs, "all"]:
        scope = {i: by for i, by in sorted(by_item.items()) if lang == "all" or items[i]["lang"] == lang}
        rows.append(_table_row(lang, scope, items, engines))
    return rows


def _table_row(
    lang: str, scope: dict[str, dict[str, Rating]], items: dict[str, dict[str, Any]], engines: list[str]
) -> dict[str, Any]:
    """One row of ``translation_table``: the ratings of ``scope`` (rating item → annotator → rating)."""
    annotators = sorted({a for by in scope.values() for a in by})
    row: dict[str, Any] = {
        "lang": lang,
        "n_questions": len({(items[i]["item_id"], items[i]["lang"]) for i in scope}),
        "n_items": len(scope),
        "n_annotators": len(annotators),
        "n_ratings": sum(len(by) for by in scope.values()),
    }
    per_engine = {
        e: [r for i, by in scope.items() if items[i]["translator"] == e for r in by.values()] for e in engines
    }
    for dim in DIMENSIONS:
        for e in engines:
            scores = [getattr(r, dim) for r in per_engine[e]]
            row[f"{dim}:{e}"] = sum(scores) / len(scores) if scores else None
    for e in engines:
        row[f"n_ratings:{e}"] = len(per_engine[e])
    units = {(i, d): {a: getattr(r, d) for a, r in by.items()} for i, by in scope.items() for d in DIMENSIONS}
    kappa = inter_rater_kappa(units, annotators, SCALE)
    weighted = inter_rater_kappa(units, annotators, SCALE, weights="quadratic")
    row.update(
        kappa=kappa["kappa"],
        kappa_kind=kappa["kappa_kind"],
        kappa_weighted=weighted["kappa"] if len(annotators) == 2 else None,
        n_kappa_items=kappa["n_kappa_items"] // len(DIMENSIONS),
    )
    return row


def rating_records(annotation_set: AnnotationSet, ratings: Sequence[Rating]) -> list[dict[str, Any]]:
    """Every rating with its item's languages, field and engine (``ratings.csv``): ``annotator``, ``item``,
    ``item_id``, ``lang``, ``source_lang``, ``field``, ``translator``, ``fluency``, ``meaning``."""
    items = {it["id"]: it for it in annotation_set.items}
    out = []
    for r in ratings:
        it = items.get(r.item, {})
        out.append(
            {"annotator": r.annotator, "item": r.item, **{k: it.get(k) for k in ("item_id", "lang", "source_lang",
             "field", "translator")}, "fluency": r.fluency, "meaning": r.meaning}
        )  # fmt: skip
    return out
