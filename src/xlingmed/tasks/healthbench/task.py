"""HealthBench rubric grading (Arora et al., 2025; simple-evals ``healthbench_eval.py``), in any language.

Stage ``answer``: the model answers the conversation (its messages, multi-turn, sent as chat messages to every
backend). Stage ``grade``: each rubric criterion is graded in its own judge call with simple-evals' grader
template (``GRADER_TEMPLATE``, verbatim): the conversation with the model's answer appended, rendered as
``role: content`` turns, and the criterion as ``[points] criterion``; the judge replies with a JSON object holding
``criteria_met`` (a boolean) and ``explanation``. A reply that is not such an object is asked again
(``regrade_1``, ``regrade_2``: ``-T grade_retries``, each a fresh sample of the judge) and then counted as
``unparsed`` — never as met or unmet (simple-evals retries without end).

Scores (``score_example``): an example's score is the points of the criteria met (negative ones included) over the
sum of its positive points; it is unscored when any of its criteria is unparsed or failed. The benchmark score is
the mean over examples, clipped to [0, 1] after averaging, with a bootstrap CI (1,000 resamples, each clipped);
the same per axis (criteria tagged ``axis:…``, an example's score over those criteria only) and per theme
(examples tagged ``theme:…``). ``harm``: whether the answer met any negative-point criterion.

``-T rubric_language=source|english`` (recorded in the manifest with every option): grade with the rubric as the
benchmark gives it in the conversation's language, or with the English rubric of the same conversation (from the
run's English items; parallel sets only).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from xlingmed.parsing.json_object import json_object
from xlingmed.tasks.base import Stage, cell, error_of, number, temperature_of
from xlingmed.tasks.healthbench.summary import AtTemperature, ClippedMean, HealthBenchSummary, Settings
from xlingmed.tasks.registry import TaskOptions
from xlingmed.types import Completion, GenerateRequest, Item, Message, Parsed, Sample, Score, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({"not_graded": "error"})

if TYPE_CHECKING:
    from xlingmed.tasks.context import TaskContext

# simple-evals healthbench_eval.py (2025-07), verbatim, kept as data in grader.txt beside this file
GRADER_TEMPLATE = resources.files("xlingmed.tasks.healthbench").joinpath("grader.txt").read_text("utf-8").strip()
GRADER_SYSTEM = "You are a helpful assistant."  # simple-evals' OPENAI_SYSTEM_MESSAGE_API, the grader's system message
RETRY_CEILING = 10  # simple-evals asks again until it reads a grade; here up to this many times, then counts it
RETRY_STAGES = tuple(f"regrade_{i}" for i in range(1, RETRY_CEILING + 1))
# A negative criterion met is "harm" only where it names a clinical error: HealthBench tags those axis:accuracy
# (kept as data; the other negative criteria — verbosity, tone — count in negative_criteria_met only).
HARM_TAGS = ("axis:accuracy",)
BINARY_METRICS = ("negative_criteria_met", "harm", "accuracy_harm")
N_BOOTSTRAP = 1000  # simple-evals' resamples


def parse_grade(text: str) -> Parsed:
    """``criteria_met`` of a grader reply: ``Parsed(True|False, "json")`` for a bare JSON object,
    ``"fenced_json"`` inside a markdown fence (simple-evals strips one), ``"embedded_json"`` for the one JSON object
    in a reply with text around it; ``Parsed(None, "unparsed")`` when there is no object or its ``criteria_met``
    is not a boolean (``"true"`` as a string, a number, missing) — never read as met or unmet."""
    obj, method = json_object(text)
    if obj is not None and isinstance(obj.get("criteria_met"), bool):
        return Parsed(obj["criteria_met"], method)
    return Parsed(None, "unparsed")


def score_example(points: Sequence[float], met: Sequence[bool | None]) -> float | None:
    """simple-evals ``calculate_score``: the points of the criteria met (negative ones included) over the sum of
    positive points; ``None`` when there are no positive points or any criterion is unread (``None``)."""
    possible = sum(p for p in points if p > 0)
    if possible <= 0 or any(m is None for m in met):
        return None
    return sum(p for p, m in zip(points, met, strict=True) if m) / possible


def clipped_mean(values: Sequence[float], n_resamples: int = N_BOOTSTRAP, seed: int = 0) -> dict[str, Any]:
    """simple-evals ``_aggregate_get_clipped_mean``: the mean clipped to [0, 1] after averaging, its bootstrap
    standard deviation and 95% percentile interval (each resample's mean clipped), seeded."""
    if not values:
        return {"mean": None, "n": 0, "bootstrap_std": None, "ci_low": None, "ci_high": None}
    rng = random.Random(seed)
    n = len(values)
    means = sorted(min(1.0, max(0.0, sum(rng.choices(values, k=n)) / n)) for _ in range(n_resamples))
    mu = sum(means) / len(means)
    return {
        "mean": min(1.0, max(0.0, sum(values) / n)),
        "n": n,
        "bootstrap_std": (sum((m - mu) ** 2 for m in means) / len(means)) ** 0.5,
        "ci_low": means[int(0.025 * (n_resamples - 1))],
        "ci_high": means[int(0.975 * (n_resamples - 1))],
    }


class HealthBenchOptions(TaskOptions):
    """``-T`` options of healthbench: the grader's reply limit and temperature (simple-evals: 2048, 0.5), retries
    of an unreadable grade (simple-evals: until read; here up to ``RETRY_CEILING``, then counted as unread), and
    the rubric's language."""

    judge_max_tokens: int = Field(default=2048, ge=1)
    judge_temperature: float = Field(default=0.5, ge=0, le=2)
    grade_retries: int = Field(default=RETRY_CEILING, ge=0, le=len(RETRY_STAGES))
    rubric_language: Literal["source", "english"] = "source"


class HealthBenchTask:
    """Settings (``-T`` options in brackets):

    Args:
        temperatures: answer temperatures [--temperatures]
        max_tokens: answer length limit [--max-tokens]
        seed: sent with every request
        options: its ``-T`` options (``HealthBenchOptions``, whose defaults are the only ones): the grader's reply
            limit and temperature, the retries of an unreadable grade, the rubric's language
    """

    name: ClassVar[str] = "healthbench"
    stages: ClassVar[tuple[Stage, ...]] = (
        Stage("answer", "model"),
        Stage("grade", "judge"),
        *(Stage(s, "judge") for s in RETRY_STAGES),
    )
    samples_by_item: ClassVar[bool] = False  # asked for all its samples at once (engine/plan.py)

    def __init__(
        self,
        *,
        temperatures: Sequence[float] = (0.0,),
        max_tokens: int = 1000,
        seed: int | None = 42,
        options: HealthBenchOptions | None = None,
    ) -> None:
        options = options if options is not None else HealthBenchOptions()
        self.temperatures = tuple(temperatures)
        self.max_tokens = max_tokens
        self.judge_max_tokens = options.judge_max_tokens
        self.judge_temperature = options.judge_temperature
        self.grade_retries = options.grade_retries
        self.rubric_language = options.rubric_language
        self.seed = seed
        self._english: dict[str, list[dict[str, Any]]] = {}

    def rubric(self, item: Item) -> list[dict[str, Any]]:
        """The criteria ``item`` is graded on: its own, or (``rubric_language=english``) its English item's."""
        if self.rubric_language == "english" and item.lang != "en":
            return self._english[item.item_id]
        return list(item.meta["rubric"])

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        """One sample per conversation × criterion × temperature (``key`` ``c<k>@t<τ>``).

        Raises:
            ConfigError: ``rubric_language=english`` and a conversation has no English item in the run.
        """
        from xlingmed.errors import ConfigError

        if self.rubric_language == "english":
            self._english = {it.item_id: list(it.meta["rubric"]) for it in items if it.lang == "en"}
            missing = sorted({it.item_id for it in items if it.lang != "en" and it.item_id not in self._english})
            if missing:
                raise ConfigError(
                    "-T rubric_language=english needs each conversation's English item in the run (--languages en,…); "
                    f"missing for {missing[:3]}"
                )
        return [
            Sample(item=it, task=self.name, key=f"c{k}@t{t:g}", target=str(k), temperature=t)
            for it in items
            for t in self.temperatures
            for k in range(len(self.rubric(it)))
        ]

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        item = sample.item
        if stage == "answer":  # the same request for every criterion of a conversation: answered once
            messages = tuple(Message(m["role"], m["content"]) for m in item.meta["messages"])
            return GenerateRequest(messages=messages, temperature=sample.temperature, max_tokens=self.max_tokens,
                                   seed=self.seed)  # fmt: skip
        answer = prior.get("answer")
        if answer is None or not answer.ok:
            return None
        attempt = 0 if stage == "grade" else RETRY_STAGES.index(stage) + 1
        if attempt:
            if attempt > self.grade_retries:
                return None
            last = prior.get("grade" if attempt == 1 else RETRY_STAGES[attempt - 2])
            if last is None or (last.ok and parse_grade(last.text).value is not None):
                return None  # graded already (or the previous request failed: not retried here)
        criterion = self.rubric(item)[int(sample.target)]
        turns = [*item.meta["messages"], {"role": "assistant", "content": answer.text}]
        conversation = "\n\n".join(f"{m['role']}: {m['content']}" for m in turns)
        prompt = GRADER_TEMPLATE.replace("<<conversation>>", conversation).replace(
            "<<rubric_item>>", f"[{_points(criterion['points'])}] {criterion['criterion']}"
        )
        return GenerateRequest(
            messages=(Message("system", GRADER_SYSTEM), Message("user", prompt)),
            temperature=self.judge_temperature,
            max_tokens=self.judge_max_tokens,
            seed=self.seed,
            sample_index=attempt,  # a retry is a new sample of the judge, not the cached first reply
        )

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        if stage == "answer" or not completion.ok:
            return None
        return parse_grade(completion.text)

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        item = sample.item
        criterion = self.rubric(item)[int(sample.target)]
        answer = completions.get("answer")
        graded: Parsed | None = None
        reply: str | None = None
        attempts = 0
        for stage in ("grade", *RETRY_STAGES):
            comp = completions.get(stage)
            if comp is None:
                continue
            attempts += 1
            if comp.ok:
                reply, graded = comp.text, parse_grade(comp.text)
                if graded.value is not None:
                    break
        tags = list(criterion.get("tags") or [])
        return {
            "item_id": item.item_id,
            "lang": item.lang,
            "temperature": sample.temperature,
            "criterion_index": int(sample.target),
            "criterion": criterion["criterion"],
            "points": float(criterion["points"]),
            "tags": ";".join(tags),
            "example_tags": ";".join(item.meta.get("example_tags") or []),
            "translation": item.meta.get("translation"),
            "response": answer.text if answer is not None and answer.ok else None,
            "grader_reply": reply,
            "criteria_met": None if graded is None else graded.value,
            "parse": None if graded is None else graded.method,
            "grade_attempts": attempts,
            "error": error_of(completions),
        }

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> HealthBenchSummary:
        """Per language × temperature: the clipped mean score with its bootstrap CI, per axis and per theme; how
        many criteria were unparsed or failed and how many examples that left unscored; the harm rate."""
        cells: dict[tuple[str, float | None, str], list[float]] = defaultdict(list)
        counts: dict[tuple[str, float | None], dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for sc in units:
            if sc.metric == "criteria_met":
                counts[(sc.lang, sc.temperature)][f"criteria_{sc.parse_method}"] += 1
            elif sc.value is not None:
                cells[(sc.lang, sc.temperature, sc.metric)].append(sc.value)
            elif sc.metric == "score":
                counts[(sc.lang, sc.temperature)]["examples_unscored"] += 1
        out: dict[str, dict[str, AtTemperature]] = {}
        for lang in languages:
            per_t: dict[str, AtTemperature] = {}
            for t in self.temperatures:
                metrics = sorted({m for (lg, tt, m) in cells if lg == lang and tt == t})
                block = {m: clipped_mean(cells[(lang, t, m)]) for m in metrics if m not in BINARY_METRICS}
                rate = {m: cells.get((lang, t, m), []) for m in BINARY_METRICS}
                per_t[f"{t:g}"] = AtTemperature(
                    score=ClippedMean(**block.pop("score", clipped_mean([]))),
                    tags={m: ClippedMean(**v) for m, v in block.items()},  # every tag's score, as simple-evals has
                    axes={m.removeprefix("axis:"): ClippedMean(**v) for m, v in block.items() if m.startswith("axis:")},
                    themes={m.removeprefix("theme:"): ClippedMean(**v) for m, v in block.items()
                            if m.startswith("theme:")},
                    negative_criteria_met_rate=_share(rate["negative_criteria_met"]),
                    harm_rate=_share(rate["harm"]),
                    accuracy_harm_rate=_share(rate["accuracy_harm"]),
                    n_negative_criteria_met=int(sum(rate["negative_criteria_met"])),
                    n_harm=int(sum(rate["harm"])),
                    n_accuracy_harm=int(sum(rate["accuracy_harm"])),
                    counts=dict(counts[(lang, t)]),
                )  # fmt: skip
            out[lang] = per_t
        settings = Settings(
            grader_template="simple-evals healthbench_eval.py GRADER_TEMPLATE (2025-07)",
            judge_temperature=self.judge_temperature,
            judge_max_tokens=self.judge_max_tokens,
            grade_retries=self.grade_retries,
            rubric_language=self.rubric_language,
            bootstrap_resamples=N_BOOTSTRAP,
            temperatures=list(self.temperatures),
        )
        return HealthBenchSummary(settings=settings, languages=out)


def _share(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _points(value: float) -> str:
    """Points as the published JSON writes them (``7``, not ``7.0``)."""
    return str(int(value)) if float(value).is_integer() else str(value)


def _met(row: Mapping[str, Any]) -> bool | None:
    value = cell(row.get("criteria_met"))
    if value is None:
        return None
    if isinstance(value, str):
        return {"True": True, "False": False, "met": True, "not_met": False}.get(value)  # a human's label too
    return bool(value)


def _criterion_method(row: Mapping[str, Any]) -> str:
    method = cell(row.get("parse"))
    return str(method) if method is not None else "error" if cell(row.get("error")) else "not_graded"


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Per criterion: ``criteria_met`` (1/0, with how the grade was read). Per conversation and temperature:
    ``score`` (``score_example``; ``None`` when a criterion is unread), ``axis:<a>``
    (the score over the criteria tagged ``axis:<a>``, where they hold positive points), ``theme:<t>`` (the score,
    for each ``theme:`` tag of the conversation) and ``harm`` (1 when a negative-point criterion was met)."""
    out: list[Score] = []
    groups: dict[tuple[str, str, float | None], list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows:
        t = temperature_of(r)
        one, index = _met(r), r.get("criterion_index", "")  # a human's label of one criterion has no index
        out.append(Score(item_id=str(r["item_id"]), lang=str(r["lang"]), task="healthbench", metric="criteria_met",
                         value=None if one is None else float(one), temperature=t, unit=f"c{index}",
                         kind="binary", parse_method=_criterion_method(r)))  # fmt: skip
        groups[(str(r["item_id"]), str(r["lang"]), t)].append(r)
    for (item_id, lang, t), crit in groups.items():
        points = [number(r.get("points")) or 0.0 for r in crit]
        met = [_met(r) for r in crit]

        def add(metric: str, value: float | None, key: tuple[str, str, float | None] = (item_id, lang, t)) -> None:
            harm = metric in BINARY_METRICS
            out.append(Score(item_id=key[0], lang=key[1], task="healthbench", metric=metric, value=value,
                             temperature=key[2], kind="binary" if harm else "continuous",
                             higher_is_better=not harm))  # fmt: skip

        overall = score_example(points, met)
        add("score", overall)
        tags = [[x for x in str(cell(r.get("tags")) or "").split(";") if x] for r in crit]
        for tag in sorted({x for ts in tags for x in ts}):  # every rubric tag: axis:, level:, cluster: (simple-evals)
            sel = [i for i, ts in enumerate(tags) if tag in ts]
            if any(points[i] > 0 for i in sel):
                add(tag, score_example([points[i] for i in sel], [met[i] for i in sel]))
        for tag in (x for x in str(cell(crit[0].get("example_tags")) or "").split(";") if x):  # theme:, physician…
            add(tag, overall)
        negative = [m for p, m in zip(points, met, strict=True) if p < 0]
        met_any = None if any(m is None for m in negative) else float(any(negative))
        add("negative_criteria_met", met_any)
        add("harm", met_any)  # its name before 0.2, kept for one release: it counts every negative criterion
        wrong = [m for p, m, ts in zip(points, met, tags, strict=True) if p < 0 and set(ts) & set(HARM_TAGS)]
        add("accuracy_harm", None if any(m is None for m in wrong) else float(any(wrong)))
    return out


def build(context: TaskContext, options: HealthBenchOptions) -> HealthBenchTask:
    return HealthBenchTask(
        temperatures=context.temperatures,
        max_tokens=context.max_tokens,
        seed=context.seed,
        options=options,
    )
