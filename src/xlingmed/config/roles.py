"""The models that play a role beside the model under test — judge, translator, extractor — and the rule they
share: the model under test never back-translates its own answers or reads its own replies through a default; it
does so only where the user names it for that role."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xlingmed.config.plan import TaskSetup


@dataclass(frozen=True)
class RoleNames:
    """The run's roles as given: ``model`` (``provider/model``) and ``base_url``; ``judge``, ``translator`` and
    ``extractor`` (``provider/model``, ``judge`` for the extractor, or ``None``), each with its ``*_base_url``;
    ``extractor_mode``: ``fallback`` or ``all``."""

    model: str
    base_url: str | None
    judge: str | None
    judge_base_url: str | None
    translator: str | None
    translator_base_url: str | None
    extractor: str | None
    extractor_base_url: str | None
    extractor_mode: str

    @property
    def judge_model(self) -> str:
        """The judge's ``provider/model``: the named judge, else the model under test."""
        return self.judge or self.model

    @property
    def translator_model(self) -> str:
        """The translator's ``provider/model``: the named translator, else the judge's."""
        return self.translator or self.judge_model

    @property
    def extractor_model(self) -> str | None:
        """The extractor's ``provider/model`` (``judge`` resolved), ``None`` when the run has none."""
        return self.judge_model if self.extractor == "judge" else self.extractor


def users(tasks: tuple[TaskSetup, ...], role: str) -> list[str]:
    """The names of ``tasks`` that send requests to ``role`` (``judge``, ``translator``, ``extractor``)."""
    return [t.name for t in tasks if role in t.roles]


def check_roles(roles: RoleNames, tasks: tuple[TaskSetup, ...]) -> None:
    """Raises ValueError (pydantic reports it as the config's error) where a role would fall to the model under
    test by default, or a role's option is given without the role; ``tasks``: the run's, with their roles.

    - Consistency in paper mode scores es/zh/hi on English back-translations: a model that translates its own
      answers would grade itself, so the translator defaults to a judge only when one different from the model
      was named (spec xlingeval.md §3.2).
    - The extractor decides what an unread reply chose (``parsing.extractor``): ``--extractor judge`` with no
      judge other than the model would have the model read its own replies.
    """
    translating = users(tasks, "translator")
    if translating and roles.translator is None and roles.judge in (None, roles.model):
        raise ValueError(
            f"{', '.join(translating)} back-translates the answers (in paper mode: the metrics of es/zh/hi on "
            "English back-translations), and no translator was named (the judge, which would default, "
            "is the model under test): pass --translator provider/model, or use --consistency-mode native"
        )
    check_translator_server(roles, translating)
    if roles.extractor is None:
        if roles.extractor_mode != "fallback" or roles.extractor_base_url is not None:
            raise ValueError("--extractor-mode and --extractor-base-url need --extractor provider/model")
        return
    if not users(tasks, "extractor"):
        raise ValueError("--extractor reads multiple-choice replies; no task of this run has an extractor stage")
    if roles.extractor == "judge" and roles.judge_model == roles.model:
        raise ValueError(
            "--extractor judge would make the model under test read its own replies (no judge other than the "
            f"model was named): pass --judge, or name the extractor, e.g. --extractor {roles.model}"
        )


def check_translator_server(roles: RoleNames, translating: list[str]) -> None:
    """A named translator that would borrow another role's server: refused (XLingEval back-translates with a
    separate model; a single-model server would make the "translator" the model under test, silently).

    It borrows when it has no ``--translator-base-url``, sends requests (not in process), and the address it
    would take (``--judge-base-url``, else ``--base-url``) is not its own: the judge's server is its own only when
    it is the judge. ``translating``: the run's tasks that back-translate.

    Raises:
        ValueError: naming the address it would have used and the flag that gives it one.
    """
    from xlingmed.models.base import backends, split_model_id

    named = roles.translator
    if not translating or named is None or named == roles.model or roles.translator_base_url is not None:
        return
    if named == roles.judge_model and roles.judge_base_url:
        return  # the judge's own server
    borrowed = roles.judge_base_url or roles.base_url
    if not borrowed or backends()[split_model_id(named)[0]].in_process:
        return
    whose = "the judge's" if roles.judge_base_url else "the model under test's"
    raise ValueError(
        f"--translator {named} has no server of its own: its requests would go to {borrowed} ({whose} "
        "--base-url), which may serve only that model, making it translate its own answers. Pass "
        "--translator-base-url URL (the same URL if that server serves the translator too)"
    )
