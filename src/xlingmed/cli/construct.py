"""``xlingmed translate | variant | audit``: build a benchmark, not only run it (``xlingmed.construct``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from xlingmed.cli.app import app
from xlingmed.cli.common import RichProgress, console, fail, fmt, stdout
from xlingmed.errors import BudgetExhausted, XlingmedError

DataDir = Annotated[
    Path | None, typer.Option(help="Folder with the benchmark files (else $XLINGMED_DATA_DIR, else download).")
]
Limit = Annotated[int | None, typer.Option(help="First N questions.")]
ModelArg = Annotated[
    list[str] | None, typer.Option("-M", "--model-arg", help="A backend option, key=value (repeatable).")
]
BaseUrl = Annotated[str | None, typer.Option(help="OpenAI-compatible server of the model(s).")]
Cache = Annotated[Path | None, typer.Option(help="Completion cache file (SQLite).")]
Quiet = Annotated[bool, typer.Option(help="No progress bars.")]
MaxRequests = Annotated[
    int | None, typer.Option(help="Stop cleanly after N backend calls; the same command resumes from the cache.")
]


def _generator(
    base_url: str | None, model_arg: list[str] | None, cache: Path | None, max_requests: int | None, **extra: Any
) -> Any:
    from dataclasses import replace

    from xlingmed.cli.run_options import key_values
    from xlingmed.construct.generate import Generator
    from xlingmed.models.base import ModelOptions

    args = tuple(sorted(key_values(model_arg, "-M").items()))
    opts = replace(ModelOptions(), base_url=base_url, args=args, **{k: v for k, v in extra.items() if v is not None})
    return Generator(options=opts, cache_path=cache, max_requests=max_requests)


def _progress(quiet: bool) -> Progress:
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, disable=quiet, transient=True,
    )  # fmt: skip


def _benchmark_options(columns: str | None, answer_format: str | None) -> dict[str, Any]:
    from xlingmed.cli.run_options import key_values

    opts: dict[str, Any] = {}
    if columns:
        opts["columns"] = key_values(columns.split(","), "--columns")
    if answer_format:
        opts["answer_format"] = answer_format
    return opts


def _csv(value: str | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in (value or "").split(",") if v.strip())


@contextmanager
def _stopping() -> Iterator[None]:
    """Exit 3 where the request budget runs out (``BudgetExhausted``); an xlingmed error fails as ``fail`` does."""
    try:
        yield
    except BudgetExhausted as exc:
        console.print(f"[bold yellow]stopped:[/] {exc}", highlight=False)
        raise typer.Exit(code=3) from None
    except XlingmedError as exc:
        fail(exc)


@app.command()
def translate(
    benchmark: Annotated[str, typer.Argument(help="xlinghealth/liveqa, medarabiq/mcq, qa:FILE, mcq:FILE, …")],
    to: Annotated[str, typer.Option("--to", help="Languages to translate into, comma-separated ISO codes.")],
    translator: Annotated[str, typer.Option(help="provider/model (an LLM), marian, or marian:ORG/MODEL.")],
    out: Annotated[Path, typer.Option(help="Benchmark file to write: .jsonl, .csv or .parquet.")],
    source: Annotated[str | None, typer.Option("--from", "--languages",
                                               help="Source language (default: the benchmark's first).")] = None,
    back_translator: Annotated[
        str | None, typer.Option(help="Engine of the back-translation check (default: the translator reversed).")
    ] = None,
    data_dir: DataDir = None,
    limit: Limit = None,
    fields: Annotated[
        str | None, typer.Option(help="Fields to translate: question,reference,negatives,options (default: all).")
    ] = None,
    max_tokens: Annotated[int, typer.Option(help="Longest translation of one text (tokens).")] = 2048,
    checks: Annotated[
        str, typer.Option(help="Quality checks: chrf,bertscore,comet,lang; 'none' for none.")
    ] = "chrf,bertscore,lang",
    min_chrf: Annotated[float, typer.Option(help="Flag below this back-translation chrF (0-100).")] = 30.0,
    min_bertscore: Annotated[float, typer.Option(help="Flag below this back-translation BERTScore F1.")] = 0.80,
    min_comet: Annotated[float | None, typer.Option(help="Flag below this COMET-QE score.")] = None,
    exclude_flagged: Annotated[bool, typer.Option("--exclude-flagged",
                                                  help="Leave flagged items out of the file.")] = False,
    bertscore_model: Annotated[
        str | None, typer.Option(help="BERTScore encoder of the source language (default xlm-roberta-large).")
    ] = None,
    bertscore_layers: Annotated[int | None, typer.Option(help="Its layer.")] = None,
    comet_model: Annotated[str | None, typer.Option(help="COMET-QE model, e.g. Unbabel/wmt22-cometkiwi-da.")] = None,
    prompts: Annotated[Path | None, typer.Option(help="YAML laid over the shipped translation prompt.")] = None,
    columns: Annotated[str | None, typer.Option(help="qa:/mcq: FILE column names, e.g. question=stem.")] = None,
    answer_format: Annotated[str | None, typer.Option(help="mcq:FILE answers: auto|letter|index0|index1|text.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed sent with every LLM request.")] = None,
    model_arg: ModelArg = None,
    base_url: BaseUrl = None,
    max_concurrency: Annotated[int | None, typer.Option(help="Requests in flight (remote engines).")] = None,
    n_ctx: Annotated[int | None, typer.Option(help="Context window of in-process GGUF models.")] = None,
    cache: Cache = None,
    max_requests: MaxRequests = None,
    quiet: Quiet = False,
) -> None:
    """Translate a benchmark into new languages: a qa:/mcq: file that pairs with its source, every text checked
    by back-translation (XLingEval App. A)."""
    from xlingmed.construct.quality import Thresholds
    from xlingmed.construct.translate import TranslateSettings, translate_benchmark

    with _stopping():
        settings = TranslateSettings(
            benchmark=benchmark, targets=_csv(to), translator=translator, out=out, source=source,
            back_translator=back_translator, data_dir=data_dir, limit=limit,
            benchmark_options=_benchmark_options(columns, answer_format), fields=_csv(fields) or None,
            max_tokens=max_tokens, checks=() if checks.strip() == "none" else _csv(checks),
            thresholds=Thresholds(chrf=min_chrf, bertscore=min_bertscore, comet=min_comet),
            exclude_flagged=exclude_flagged, bertscore_model=bertscore_model, bertscore_layer=bertscore_layers,
            comet_model=comet_model, prompts=prompts, seed=seed,
        )  # fmt: skip
        gen = _generator(base_url, model_arg, cache, max_requests, max_concurrency=max_concurrency, n_ctx=n_ctx)
        with _progress(quiet) as bars:
            result = translate_benchmark(settings, gen, RichProgress(bars))
    _print_translation(result)


def _print_translation(result: Any) -> None:
    """The translation quality per language and what was written; exits 1 where no item was translated."""
    table = Table(title=f"{result.out}: translation quality per language")
    for col in ("lang", "items", "translated", "failed", "flagged", "written", "chrF", "BERTScore", "COMET",
                "lang-ID ok"):  # fmt: skip
        table.add_column(col, justify="left" if col == "lang" else "right")
    for r in result.summary:
        table.add_row(
            r["lang"], str(r["items"]), str(r["translated"]), str(r["failed"]), str(r["flagged"]),
            str(r["written"]), fmt(r["chrf_mean"], 1), fmt(r["bertscore_mean"]), fmt(r["comet_mean"]),
            fmt(r["lang_match"], 2),
        )  # fmt: skip
    stdout.print(table)
    stats = result.stats
    stdout.print(
        f"wrote {result.out} and {result.record.name} ({stats['backend_calls']} backend calls, "
        f"{stats['cache_hits']} cache hits); run it with --benchmark {_kind(result)}:{result.out}",
        highlight=False,
        soft_wrap=True,
    )
    if not any(r["written"] for r in result.summary):
        console.print("[bold red]error:[/] no item was translated (see failures in the record)", highlight=False)
        raise typer.Exit(code=1)


def _kind(result: Any) -> str:
    return "mcq" if any("options" in r for r in result.rows) else "qa"


@app.command()
def variant(
    benchmark: Annotated[str, typer.Argument(help="medarabiq/qa, xlinghealth/liveqa, qa:FILE, mcq:FILE, …")],
    transform: Annotated[str, typer.Option(help="paraphrase | gec | dediacritize.")],
    out: Annotated[Path, typer.Option(help="Benchmark file to write: .jsonl, .csv or .parquet.")],
    model: Annotated[
        str | None,
        typer.Option(help="paraphrase: provider/model (paper: GPT-4o); gec: seq2seq/<GEC model> (default AraBART)."),
    ] = None,
    languages: Annotated[str | None, typer.Option(help="Languages to transform (default: the transform's).")] = None,
    fields: Annotated[
        str | None, typer.Option(help="Fields to transform (default: paraphrase question; gec question,reference).")
    ] = None,
    temperature: Annotated[float, typer.Option(help="paraphrase: sampling temperature (paper: not given).")] = 0.0,
    max_tokens: Annotated[int | None, typer.Option(help="Longest output of one text (tokens).")] = None,
    prompts: Annotated[Path | None, typer.Option(help="YAML laid over the shipped paraphrase prompt.")] = None,
    data_dir: DataDir = None,
    limit: Limit = None,
    columns: Annotated[str | None, typer.Option(help="qa:/mcq: FILE column names, e.g. question=stem.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed sent with every LLM request.")] = None,
    model_arg: ModelArg = None,
    base_url: BaseUrl = None,
    n_ctx: Annotated[int | None, typer.Option(help="Context window of in-process GGUF models.")] = None,
    cache: Cache = None,
    max_requests: MaxRequests = None,
    quiet: Quiet = False,
) -> None:
    """Rewrite a benchmark's texts with a named transform (MedArabiQ §4.1.6-4.1.7): a file with the same item ids."""
    from xlingmed.construct.variants import VariantSettings, make_transform, make_variant

    with _stopping():
        tf = make_transform(
            transform, model=model, prompts=prompts, temperature=temperature, max_tokens=max_tokens, seed=seed
        )
        settings = VariantSettings(
            benchmark=benchmark,
            out=out,
            languages=_csv(languages) or None,
            fields=_csv(fields) or None,
            data_dir=data_dir,
            limit=limit,
            benchmark_options=_benchmark_options(columns, None),
        )
        gen = _generator(base_url, model_arg, cache, max_requests, n_ctx=n_ctx)
        with _progress(quiet) as bars:
            result = make_variant(settings, tf, gen, RichProgress(bars))
    _print_variant(result, transform)


def _print_variant(result: Any, transform: str) -> None:
    """The changed and failed texts per field and what was written; exits 1 where the transform failed on all."""
    table = Table(title=f"{result.out}: {transform}")
    for col in ("field", "items", "changed", "failed", "char similarity"):
        table.add_column(col, justify="left" if col == "field" else "right")
    for r in result.summary:
        table.add_row(r["field"], str(r["items"]), str(r["changed"]), str(r["failed"]), fmt(r["char_similarity_mean"]))
    stdout.print(table)
    stdout.print(
        f"wrote {result.out} ({len(result.rows)} rows) and {result.record.name} ({result.stats['backend_calls']} "
        f"backend calls, {result.stats['cache_hits']} cache hits)",
        highlight=False,
        soft_wrap=True,
    )
    if not result.rows:
        console.print("[bold red]error:[/] the transform failed on every item (see failures in the record)")
        raise typer.Exit(code=1)


@app.command()
def audit(
    benchmark: Annotated[str, typer.Argument(help="medarabiq/mcq, xlinghealth/liveqa, qa:FILE, mcq:FILE, …")],
    rater: Annotated[list[str], typer.Option(help="A rater, provider/model (repeatable: agreement across raters).")],
    out: Annotated[Path, typer.Option(help="Audit folder to write.")],
    metrics: Annotated[
        str | None,
        typer.Option(
            help="Subset of accuracy,relevance,factuality,consistency,parameter_alignment,"
            "coherence,specificity (default: all)."
        ),
    ] = None,
    languages: Annotated[str | None, typer.Option(help="Languages to audit (default: the benchmark's).")] = None,
    min_likert: Annotated[float, typer.Option(help="Suspect below this raters' mean on a Likert metric.")] = 3.0,
    max_tokens: Annotated[int, typer.Option(help="Longest rating reply (tokens).")] = 256,
    dataset: Annotated[
        str | None, typer.Option(help="How the prompt names the data (default: 'a <language> medical dataset').")
    ] = None,
    prompts: Annotated[Path | None, typer.Option(help="YAML laid over the shipped audit prompt.")] = None,
    data_dir: DataDir = None,
    limit: Limit = None,
    columns: Annotated[str | None, typer.Option(help="qa:/mcq: FILE column names, e.g. question=stem.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed sent with every request.")] = None,
    model_arg: ModelArg = None,
    base_url: BaseUrl = None,
    max_concurrency: Annotated[int | None, typer.Option(help="Requests in flight (remote raters).")] = None,
    n_ctx: Annotated[int | None, typer.Option(help="Context window of in-process GGUF models.")] = None,
    cache: Cache = None,
    max_requests: MaxRequests = None,
    quiet: Quiet = False,
) -> None:
    """Rate a dataset's quality with LLM raters, metric by metric (MedArabiQ App. L), and flag suspect items."""
    from xlingmed.construct.audit import METRICS, AuditSettings, audit_benchmark

    with _stopping():
        settings = AuditSettings(
            benchmark=benchmark,
            raters=tuple(rater),
            out=out,
            metrics=_csv(metrics) or tuple(METRICS),
            languages=_csv(languages) or None,
            data_dir=data_dir,
            limit=limit,
            benchmark_options=_benchmark_options(columns, None),
            dataset=dataset,
            min_likert=min_likert,
            max_tokens=max_tokens,
            prompts=prompts,
            seed=seed,
        )
        gen = _generator(base_url, model_arg, cache, max_requests, max_concurrency=max_concurrency, n_ctx=n_ctx)
        with _progress(quiet) as bars:
            result = audit_benchmark(settings, gen, RichProgress(bars))
    _print_audit(result, list(settings.metrics))


def _print_audit(result: Any, names: list[str]) -> None:
    """The raters' means per metric, the counts of suspect items and unread ratings; exits 1 where every rating
    request failed."""
    from xlingmed.construct.audit import METRICS

    table = Table(title="Data quality by rater (MedArabiQ Table L1 layout; mean ± SD)")
    table.add_column("rater")
    for m in names:
        table.add_column(METRICS[m].title, justify="right")
    for r in result.summary:
        table.add_row(r["rater"], *[fmt(r.get(m)) for m in names])
    stdout.print(table)
    unread = sum(r["value"] is None for r in result.ratings)
    suspect = [r for r in result.items if r["suspect"]]
    stdout.print(
        f"{len(result.items)} items, {len(suspect)} suspect; {unread} of {len(result.ratings)} ratings unread "
        f"(counted per rater and language in audit.json); wrote {result.out}",
        highlight=False,
        soft_wrap=True,
    )
    if result.ratings and all(r["parse_method"] == "error" for r in result.ratings):
        console.print("[bold red]error:[/] every rating request failed (see ratings.csv)", highlight=False)
        raise typer.Exit(code=1)
    if result.ratings and unread == len(result.ratings):
        console.print(
            "[bold yellow]warning:[/] no rating could be read from the raters' replies (each is in ratings.csv with "
            "how it was read); the structural checks stand alone",
            highlight=False,
        )
