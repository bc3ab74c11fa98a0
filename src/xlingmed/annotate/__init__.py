"""Human evaluation: of the judge (XLingEval §3.2, App. C, Fig. A1, Table A7) and of machine translations
(XLingEval App. A, Table A2).

* ``sample``: a stratified, seeded sample of a run's judged items → an annotation set folder (kind ``judge``).
* ``answers``: the annotators' answers on a judge check in SQLite, each committed as it is given.
* ``agreement``: judge–human agreement per language (Table A7), unanimity, Cohen's and Fleiss' κ.
* ``translations``: a seeded draw of translated benchmark items, every engine's translation of the same questions
  → a translation-rating set folder (kind ``translation``); translation quality per language (Table A2).
* ``ratings``: the annotators' 1–5 fluency and meaning ratings in SQLite, each committed as it is given.
* ``server``: the web app serving either kind of set.
"""

from xlingmed.analysis.agreement import cohen_kappa
from xlingmed.annotate.agreement import agreement_table, inter_rater_kappa
from xlingmed.annotate.answers import Answer, AnswerStore
from xlingmed.annotate.ratings import Rating, RatingStore
from xlingmed.annotate.sample import AnnotationSet, build_annotation_set, load_annotation_set
from xlingmed.annotate.translations import build_translation_set, rating_records, translation_table

__all__ = [
    "AnnotationSet",
    "Answer",
    "AnswerStore",
    "Rating",
    "RatingStore",
    "agreement_table",
    "build_annotation_set",
    "build_translation_set",
    "cohen_kappa",
    "inter_rater_kappa",
    "load_annotation_set",
    "rating_records",
    "translation_table",
]
