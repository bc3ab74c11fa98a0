"""``xlingmed report``, ``describe`` and ``list``: nothing here calls a model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from xlingmed.cli.app import app
from xlingmed.cli.common import fail, fmt, set_format, stdout
from xlingmed.cli.tables import FormatOption
from xlingmed.errors import ModelError, XlingmedError


@app.command("report")
def report_(
    runs: Annotated[list[Path], typer.Argument(help="Finished run folders; several = models side by side.")],
    out: Annotated[Path | None, typer.Option(help="Report folder (default: FIRST_RUN/report).")] = None,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples of each CI.")] = 2000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    annotations: Annotated[
        list[Path] | None,
        typer.Option(help="Annotation set(s) whose judge–human agreement to include (repeatable; one batch each)."),
    ] = None,
    margin: Annotated[
        str | None,
        typer.Option(
            help="Non-inferiority margins δ per primary outcome, e.g. accuracy=0.05,contradictory=0.05,"
            "verifiability_f1=0.03 (the rest keep their defaults; `xlingmed list` shows them)."
        ),
    ] = None,
    alpha: Annotated[float, typer.Option(help="One-sided level of each verdict's test.")] = 0.05,
    equivalence: Annotated[bool, typer.Option(help="Add the TOST equivalence test (|difference| < δ).")] = False,
    min_judge_kappa: Annotated[
        float,
        typer.Option(help="A judged verdict needs the judge's Cohen κ with humans (--annotations) at least this."),
    ] = 0.6,
    answer_encoder: Annotated[
        str | None,
        typer.Option(help="Sentence-transformers model (multilingual) to compare each reply with the English one."),
    ] = None,
) -> None:
    """Rebuild figures, statistics, verdicts and index.html from stored results; no model is called."""
    from xlingmed.report import ReportOptions, build_report

    options = ReportOptions(
        n_resamples=resamples, seed=seed, annotations=tuple(annotations or ()), margins=margin, alpha=alpha,
        equivalence=equivalence, min_judge_kappa=min_judge_kappa, answer_encoder=answer_encoder,
    )  # fmt: skip
    try:
        index = build_report(runs, out, options)
    except XlingmedError as exc:
        fail(exc)
        return
    verdict = index.parent / "verdict.txt"
    if verdict.is_file():
        stdout.print(verdict.read_text(encoding="utf-8").strip(), highlight=False)
    stdout.print(f"wrote {index}", highlight=False)


@app.command()
def describe(
    benchmark: Annotated[str, typer.Argument(help="e.g. xlinghealth/liveqa")],
    data_dir: Annotated[Path | None, typer.Option(help="Folder with the benchmark files.")] = None,
    output_format: FormatOption = "text",
) -> None:
    """Per-language question counts and word counts (mean ± sd), as in XLingEval Table A1."""
    from xlingmed.benchmarks import get_benchmark

    set_format(output_format)
    try:
        spec = get_benchmark(benchmark)
        rows = spec.describe(data_dir)
    except XlingmedError as exc:
        fail(exc)
        return
    if rows and "q_words_mean" not in rows[0]:  # MedArabiQ and others: the columns as they come
        table = Table(title=spec.describe_title())
        for col in rows[0] if rows else ():
            table.add_column(col, justify="right")
        for r in rows:
            table.add_row(*[fmt(v, 2) for v in r.values()])
        stdout.print(table)
        return
    table = Table(title=spec.describe_title())
    for col in (
        "lang",
        "questions",
        "empty Q",
        "empty A",
        "negatives",
        "words (Q)",
        "words (A)",
        "chars (Q)",
        "chars (A)",
    ):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            r["lang"],
            str(r["questions"]),
            str(r["empty_questions"]),
            str(r["empty_answers"]),
            str(r["negatives"]),
            f"{r['q_words_mean']:.2f} ± {r['q_words_sd']:.2f}",
            f"{r['a_words_mean']:.2f} ± {r['a_words_sd']:.2f}",
            f"{r['q_chars_mean']:.1f}",
            f"{r['a_chars_mean']:.1f}",
        )
    stdout.print(table)


@app.command("list")
def list_(
    what: Annotated[
        str | None,
        typer.Argument(help="`benchmarks`: one row per benchmark (languages, parallel, tasks, licence, gate); "
                       "`metrics`: every metric (inputs, aggregation, direction, option, source)."),
    ] = None,
    output_format: FormatOption = "text",
) -> None:
    """Benchmarks, tasks (with their -T options), model backends (-M), languages, and what translate, variant and
    audit take; `xlingmed list benchmarks` and `xlingmed list metrics` print their tables."""
    set_format(output_format)
    if what is None and output_format != "text":
        stdout.print(catalogue_table())
        return
    if what is not None:
        if what not in ("benchmarks", "metrics"):
            fail(XlingmedError(f"list: unknown {what!r}; expected `benchmarks`, `metrics` (or nothing)"))
        stdout.print(benchmark_table() if what == "benchmarks" else metric_table())
        if what == "benchmarks" and output_format == "text":
            stdout.print(verification_table())
        return
    _print_registries()
    _print_presets_and_construct()


def _print_registries() -> None:
    """The benchmarks, tasks (with their -T options and verdicts), languages and model backends (-M options)."""
    from xlingmed.benchmarks import benchmark_names
    from xlingmed.languages import LANGUAGES
    from xlingmed.models.base import backends
    from xlingmed.models.llamacpp import EMBEDDED
    from xlingmed.tasks.registry import task_specs

    stdout.print("benchmarks: " + ", ".join(benchmark_names()))
    stdout.print("tasks:      " + ", ".join(task_specs()))
    for spec in task_specs().values():
        opts = ", ".join(f"{k}={_fmt_default(f.default)}" for k, f in spec.options.model_fields.items())
        stdout.print(f"  {spec.name}: {spec.description}; -T {opts or '(none)'}", highlight=False)
        if spec.primary is not None:
            p = spec.primary
            stdout.print(f"    verdict on {p.name} ({p.statistic} of {p.metric}; default --margin {p.name}={p.margin:g}"
                         f", {p.unit})", highlight=False)  # fmt: skip
    stdout.print("languages:  " + ", ".join(f"{c} ({lang.name})" for c, lang in LANGUAGES.items()))
    stdout.print(
        "models:     "
        + ", ".join(f"llamacpp/{m}" for m in EMBEDDED)
        + ", llamacpp/<path.gguf>, openai/<model> (any OpenAI-compatible server via --base-url)"
    )
    for backend in backends().values():
        kind = "in process" if backend.in_process else "remote"
        stdout.print(f"  {backend.provider}/…: {kind}; {backend.description}", highlight=False, markup=False)
        try:
            options = getattr(backend.load(), "Options", None)
        except ModelError:  # its extra is not installed; the description names it
            options = None
        if options is not None and options.model_fields:
            opts = ", ".join(f"{k}={_fmt_default(f.default)}" for k, f in options.model_fields.items())
            stdout.print(f"    -M {opts}", highlight=False, markup=False)


def _print_presets_and_construct() -> None:
    """The presets, answer metrics, and what translate, variant and audit take."""
    from xlingmed.config.presets import PRESETS
    from xlingmed.metrics.registry import metric_specs

    for preset in PRESETS.values():
        stdout.print(f"preset {preset.name} (--preset {preset.name}): {preset.description}", highlight=False)

    stdout.print("answer metrics (-T answer_metrics=…): " + ", ".join(metric_specs()), highlight=False)
    from xlingmed.construct.audit import METRICS
    from xlingmed.construct.quality import CHECKS
    from xlingmed.construct.variants import TRANSFORMS

    stdout.print("translate --translator: provider/model, marian, marian:ORG/MODEL; --checks " + ", ".join(CHECKS),
                 highlight=False)  # fmt: skip
    for tf in TRANSFORMS.values():
        scope = ", ".join(tf.languages) or "any language"
        doc = " ".join((tf.__doc__ or "").split()).split(" (")[0].rstrip(".")
        stdout.print(f"variant --transform {tf.name} ({scope}; {', '.join(tf.fields)}): {doc}", highlight=False)
    stdout.print("audit --metrics: " + ", ".join(f"{m.name} ({m.scale})" for m in METRICS.values()), highlight=False)


def catalogue_table() -> Table:
    """What ``xlingmed list`` names, one row per thing (``--format tsv|json``): benchmarks, tasks with their
    ``-T`` options, languages, model backends with their ``-M`` options, presets."""
    from xlingmed.benchmarks import benchmark_names
    from xlingmed.config.presets import PRESETS
    from xlingmed.languages import LANGUAGES
    from xlingmed.models.base import backends
    from xlingmed.tasks.registry import task_specs

    table = Table(title="xlingmed list")
    for col in ("kind", "name", "description", "options"):
        table.add_column(col)
    for name in benchmark_names():
        table.add_row("benchmark", name, "", "")
    for spec in task_specs().values():
        opts = ", ".join(f"{k}={_fmt_default(f.default)}" for k, f in spec.options.model_fields.items())
        table.add_row("task", spec.name, spec.description, opts)
    for code, lang in LANGUAGES.items():
        table.add_row("language", code, lang.name, "")
    for backend in backends().values():
        try:
            options = getattr(backend.load(), "Options", None)
        except ModelError:  # its extra is not installed; the description names it
            options = None
        fields = options.model_fields.items() if options is not None else ()
        table.add_row("model", f"{backend.provider}/…", backend.description,
                      ", ".join(f"{k}={_fmt_default(f.default)}" for k, f in fields))  # fmt: skip
    for preset in PRESETS.values():
        table.add_row("preset", preset.name, preset.description, "")
    return table


def metric_table() -> Table:
    """One row per metric (``metrics.registry.all_metrics``): what it reads, how it aggregates, its direction, the
    option that selects it and its source."""
    from xlingmed.metrics.registry import all_metrics

    table = Table(title="metrics")
    for col in ("metric", "reads", "aggregation", "better", "kind", "option", "source"):
        table.add_column(col, overflow="fold")
    for name, m in all_metrics().items():
        option = "-T answer_metrics" if m.group == "answer_metrics" else (f"group {m.group}" if m.group else "-")
        table.add_row(name, m.inputs, m.aggregation, "higher" if m.higher_is_better else "lower", m.kind, option,
                      m.source or m.description or "-")  # fmt: skip
    return table


def benchmark_table() -> Table:
    """One row per registered benchmark: languages, whether items are parallel (and the id that pairs them), the
    tasks, licence, gate, and how each language's text was made."""
    from xlingmed.benchmarks import benchmarks
    from xlingmed.tasks.registry import tasks_for

    table = Table(title="benchmarks (xlingmed run --benchmark NAME)")
    for col in ("benchmark", "languages", "parallel", "tasks", "-B options", "licence", "gated", "translation",
                "subsets", "real files"):
        table.add_column(col, overflow="fold")
    for name, spec in sorted(benchmarks().items()):
        langs = spec.languages
        shown = ",".join(langs) if len(langs) <= 8 else f"{len(langs)}: {','.join(langs[:6])},…"
        shared = getattr(spec, "shared_id", "")
        parallel = ("yes" + (f" ({shared})" if shared else "")) if spec.parallel and len(langs) > 1 else "no"
        kinds: dict[str, list[str]] = {}
        for lang, kind in getattr(spec, "translation", ()):
            kinds.setdefault(kind, []).append(lang)
        translation = "; ".join(f"{k}: {','.join(v) if len(v) <= 4 else str(len(v)) + ' languages'}"
                                for k, v in kinds.items()) or "-"  # fmt: skip
        table.add_row(
            name, shown, parallel, ",".join(tasks_for(spec)), ",".join(spec.Options.model_fields) or "-",
            spec.licence or "-",
            "yes" if getattr(spec, "gated", False) else "no", translation,
            ",".join(getattr(spec, "subsets", ())) or "-",
            # issue 61: was the loader ever run on the real published files? (xlingmed data check: which)
            "verified" if spec.verified else "unverified",
        )  # fmt: skip
    return table


def verification_table() -> Table:
    """Benchmark → the real published files its loader was run on, or why none (issue 61)."""
    from xlingmed.benchmarks import benchmarks
    from xlingmed.benchmarks.verified import verification

    table = Table(title="real files each loader was run on (xlingmed data check BENCHMARK shows yours)")
    table.add_column("benchmark", no_wrap=True)
    table.add_column("real files", overflow="fold")
    for name, spec in sorted(benchmarks().items()):
        table.add_row(name, verification(spec))
    return table


def _fmt_default(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)
