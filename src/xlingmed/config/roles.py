"""The models that play a role beside the model under test — judge, translator, extractor — and the rule they
share: the model under test never back-translates its own answers or reads its own replies through a default; it
does so only where the user names it for that role."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xlingmed.config.fields import RunFields


def check_roles(config: RunFields) -> None:
    """Raises ValueError (pydantic reports it as the config's error) where a role would fall to the model under
    test by default, or a role's option is given without the role.

    - Consistency in paper mode scores es/zh/hi on English back-translations: a model that translates its own
      answers would grade itself, so the translator defaults to a judge only when one different from the model
      was named (spec xlingeval.md §3.2).
    - The extractor decides what an unread reply chose (``parsing.extractor``): ``--extractor judge`` with no
      judge other than the model would have the model read its own replies.
    """
    translating = config.uses("translator")
    if translating and config.translator is None and config.judge in (None, config.model):
        raise ValueError(
            f"{', '.join(translating)} back-translates the answers (in paper mode: the metrics of es/zh/hi on "
            "English back-translations), and no translator was named (the judge, which would default, "
            "is the model under test): pass --translator provider/model, or use --consistency-mode native"
        )
    check_translator_server(config, translating)
    if config.extractor is None:
        if config.extractor_mode != "fallback" or config.extractor_base_url is not None:
            raise ValueError("--extractor-mode and --extractor-base-url need --extractor provider/model")
        return
    if not config.uses("extractor"):
        raise ValueError("--extractor reads multiple-choice replies; no task of this run has an extractor stage")
    if config.extractor == "judge" and config.judge_model == config.model:
        raise ValueError(
            "--extractor judge would make the model under test read its own replies (no judge other than the "
            f"model was named): pass --judge, or name the extractor, e.g. --extractor {config.model}"
        )


def check_translator_server(config: RunFields, translating: list[str]) -> None:
    """A named translator that would borrow another role's server: refused (XLingEval back-translates with a
    separate model; a single-model server would make the "translator" the model under test, silently).

    It borrows when it has no ``--translator-base-url``, sends requests (not in process), and the address it
    would take (``--judge-base-url``, else ``--base-url``) is not its own: the judge's server is its own only when
    it is the judge.

    Raises:
        ValueError: naming the address it would have used and the flag that gives it one.
    """
    from xlingmed.models.base import backends, split_model_id

    named = config.translator
    if not translating or named is None or named == config.model or config.translator_base_url is not None:
        return
    if named == config.judge_model and config.judge_base_url:
        return  # the judge's own server
    borrowed = config.judge_base_url or config.base_url
    if not borrowed or backends()[split_model_id(named)[0]].in_process:
        return
    whose = "the judge's" if config.judge_base_url else "the model under test's"
    raise ValueError(
        f"--translator {named} has no server of its own: its requests would go to {borrowed} ({whose} "
        "--base-url), which may serve only that model, making it translate its own answers. Pass "
        "--translator-base-url URL (the same URL if that server serves the translator too)"
    )
