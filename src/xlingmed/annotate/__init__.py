"""Human evaluation of the judge (XLingEval §3.2, App. C, Fig. A1, Table A7).

* ``sample``: a stratified, seeded sample of a run's judged items → an annotation set folder.
* ``answers``: the annotators' answers in SQLite, each committed as it is given.
* ``agreement``: judge–human agreement per language (Table A7), unanimity, Cohen's and Fleiss' κ.
"""

from xlingmed.annotate.agreement import agreement_table
from xlingmed.annotate.answers import Answer, AnswerStore
from xlingmed.annotate.sample import AnnotationSet, build_annotation_set, load_annotation_set

__all__ = ["AnnotationSet", "Answer", "AnswerStore", "agreement_table", "build_annotation_set", "load_annotation_set"]
