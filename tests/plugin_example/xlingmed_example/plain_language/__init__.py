"""A task: does the model answer in plain language a patient understands? A judge says yes or no.

One package is the whole task: its options and requests (``task.py``), its typed summary (``summary.py``), its
view (``view.py``: the table, the figure, what it lost and the judge decisions people can check) and its judge's
prompt (``judge.txt``). It requires nothing of an item but its question, so it runs on every benchmark, built-in
ones included. The entry point names this package; importing it registers the task.
"""

from xlingmed.tasks.registry import PrimaryOutcome, TaskSpec, register_task

from .task import NAME, PlainLanguageOptions, build, scores
from .view import PlainLanguageView

register_task(
    TaskSpec(
        NAME, PlainLanguageOptions, build, "a judge: is the answer in plain language? (example plugin)", scores,
        view=PlainLanguageView(), parses=True, judged=True, primary=PrimaryOutcome("plain_language", "plain", 0.10),
    )
)  # fmt: skip
