"""``xlingmed run | describe | list``: the command line, a thin layer over the Python API."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from xlingmed.errors import XlingmedError

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)
console = Console(stderr=True)
stdout = Console()


class RichProgress:
    """One progress bar per stage, with counts and ETA."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self._task: TaskID | None = None

    def start(self, description: str, total: int) -> None:
        if self._task is not None:
            self._progress.update(self._task, completed=self._progress.tasks[-1].total)
        self._task = self._progress.add_task(description, total=total)

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._progress.advance(self._task, n)


def _fail(exc: Exception) -> None:
    console.print(f"[bold red]error:[/] {exc}", highlight=False)
    raise typer.Exit(code=2)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def run(
    ctx: typer.Context,
    benchmark: Annotated[
        str | None,
        typer.Option(
            help="xlinghealth/liveqa | xlinghealth/medicationqa | xlinghealth/healthqa | medarabiq/<task> (mcq, "
            "mcq_bias, fitb_choices, fitb_open, qa, qa_gec, qa_llm)"
        ),
    ] = None,
    data_dir: Annotated[
        Path | None, typer.Option(help="Folder with the benchmark files (else $XLINGMED_DATA_DIR, else download).")
    ] = None,
    languages: Annotated[
        str | None, typer.Option(help="Comma-separated ISO codes (default: the benchmark's; MedArabiQ FITB: ar,en).")
    ] = None,
    tasks: Annotated[
        str | None,
        typer.Option(
            help="XLingHealth: correctness,verifiability,consistency; MedArabiQ: multiple_choice | open_qa,rubric"
        ),
    ] = None,
    model: Annotated[str | None, typer.Option(help="provider/model, e.g. llamacpp/smollm2, openai/gpt-4o.")] = None,
    judge: Annotated[str | None, typer.Option(help="Judge model for correctness (default: --model).")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible server of --model.")] = None,
    judge_base_url: Annotated[str | None, typer.Option(help="Server of --judge (default: --base-url).")] = None,
    api_key_env: Annotated[str | None, typer.Option(help="Env var with the API key (default OPENAI_API_KEY).")] = None,
    limit: Annotated[int | None, typer.Option(help="First N questions, the same in every language.")] = None,
    include_defective: Annotated[
        bool | None, typer.Option("--include-defective/--exclude-defective", help="Keep questions with empty cells.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed sent with every request.")] = None,
    temperatures: Annotated[
        str | None,
        typer.Option(help="Temperatures of verifiability and consistency (defaults 0 and 0,0.25,0.5,0.75,1)."),
    ] = None,
    max_tokens: Annotated[
        int | None, typer.Option(help="Answer max tokens (XLingEval: 1000; MedArabiQ: 16 letter, 64 FITB, 512 Q&A).")
    ] = None,
    max_concurrency: Annotated[int | None, typer.Option(help="Requests in flight (OpenAI-compatible).")] = None,
    max_retries: Annotated[
        int | None, typer.Option(help="Retries on 429/5xx/timeouts before a request is recorded as failed.")
    ] = None,
    timeout: Annotated[float | None, typer.Option(help="Per-request timeout, seconds.")] = None,
    retry_cap: Annotated[
        float | None, typer.Option(help="Longest wait before one resend, Retry-After included (s; 60).")
    ] = None,
    rpm: Annotated[float | None, typer.Option(help="Requests-per-minute ceiling of each remote backend.")] = None,
    tpm: Annotated[float | None, typer.Option(help="Tokens-per-minute ceiling (prompt estimate + max_tokens).")] = None,
    max_requests: Annotated[
        int | None, typer.Option(help="Stop cleanly after N backend calls; the same command resumes.")
    ] = None,
    max_cost: Annotated[
        float | None, typer.Option(help="Stop cleanly before spending more than this many USD (needs --price).")
    ] = None,
    price: Annotated[
        list[str] | None,
        typer.Option(help="MODEL=IN,OUT: USD per 1M prompt and completion tokens, e.g. openai/gpt-4o=2.5,10."),
    ] = None,
    retry_failed: Annotated[
        bool | None, typer.Option("--retry-failed", help="Resend requests whose failure is cached (400/413/422).")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the requests and estimated tokens/cost; call no model.")
    ] = False,
    n_ctx: Annotated[int | None, typer.Option(help="Context window of in-process GGUF models.")] = None,
    translator: Annotated[
        str | None, typer.Option(help="Back-translation model, provider/model (default: the judge).")
    ] = None,
    translator_base_url: Annotated[str | None, typer.Option(help="Server of --translator.")] = None,
    device: Annotated[str | None, typer.Option(help="Encoder device: auto | cpu | cuda.")] = None,
    model_class: Annotated[
        str | None, typer.Option(help="MedArabiQ default temperatures: auto | open (0 / Q&A 0.4) | closed (0.2).")
    ] = None,
    paper_compat: Annotated[
        bool | None, typer.Option("--paper-compat/--no-paper-compat", help="medarabiq/mcq_bias: rows 0-97 (Table 2).")
    ] = None,
    prompt_templates: Annotated[
        Path | None, typer.Option(help="YAML laid over the shipped MedArabiQ prompt templates.")
    ] = None,
    columns: Annotated[
        str | None, typer.Option(help="mcq:FILE / qa:FILE column names, e.g. question=stem,answer=gold,lang=language.")
    ] = None,
    answer_format: Annotated[
        str | None, typer.Option(help="mcq:FILE answers: auto | letter | index0 | index1 | text.")
    ] = None,
    hf_config: Annotated[
        str | None, typer.Option(help="hf:ORG/NAME: dataset config, or lang=CONFIG,… (one per language).")
    ] = None,
    hf_split: Annotated[str | None, typer.Option(help="hf:ORG/NAME: split (default test).")] = None,
    perturb: Annotated[
        str | None, typer.Option(help="bias:all or bias:recency,cultural… (multiple choice): inject cognitive biases.")
    ] = None,
    mitigations: Annotated[str | None, typer.Option(help="With --perturb: any of education,one_shot,few_shot.")] = None,
    bias_target: Annotated[
        str | None, typer.Option(help="Option the bias names: random_incorrect (default) | correct | random.")
    ] = None,
    bias_target_render: Annotated[
        str | None, typer.Option(help="How it is named: letter_and_text | text_only | letter_only.")
    ] = None,
    bias_position: Annotated[str | None, typer.Option(help="auto | prepend | append | after_first_sentence.")] = None,
    task_arg: Annotated[
        list[str] | None,
        typer.Option(
            "-T",
            "--task-arg",
            help="A task option, key=value (repeatable); `xlingmed list` shows each task's. The options that "
            "were flags before 0.2 are still accepted as --key value (e.g. --samples 5, --no-logprobs).",
        ),
    ] = None,
    model_arg: Annotated[
        list[str] | None,
        typer.Option("-M", "--model-arg", help="A backend option of --model, key=value (repeatable)."),
    ] = None,
    cache: Annotated[Path | None, typer.Option(help="Completion cache file (SQLite).")] = None,
    out: Annotated[Path | None, typer.Option(help="Run folder to write.")] = None,
    config: Annotated[Path | None, typer.Option(help="YAML file of RunConfig fields; flags override it.")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bars.")] = False,
    report: Annotated[bool, typer.Option("--report/--no-report", help="Write RUN_DIR/report at the end.")] = True,
) -> None:
    """Evaluate a model on a benchmark and write RUN_DIR (manifest, samples, summary, CSVs)."""
    from xlingmed.config import make_config
    from xlingmed.errors import BudgetExhausted
    from xlingmed.engine import dry_run as plan_only
    from xlingmed.engine import evaluate

    try:
        cfg = make_config(
            config,
            task_args={**_legacy_task_flags(ctx.args), **_key_values(task_arg, "-T")} or None,
            model_args=_key_values(model_arg, "-M") or None,
            benchmark=benchmark,
            data_dir=data_dir,
            languages=languages,
            tasks=tasks,
            model=model,
            judge=judge,
            base_url=base_url,
            judge_base_url=judge_base_url,
            api_key_env=api_key_env,
            limit=limit,
            include_defective=include_defective,
            seed=seed,
            temperatures=temperatures,
            max_tokens=max_tokens,
            max_concurrency=max_concurrency,
            max_retries=max_retries,
            timeout_s=timeout,
            retry_cap_s=retry_cap,
            rpm=rpm,
            tpm=tpm,
            max_requests=max_requests,
            max_cost=max_cost,
            prices=price or None,
            retry_failed=retry_failed,
            n_ctx=n_ctx,
            translator=translator,
            translator_base_url=translator_base_url,
            device=device,
            model_class=model_class,
            paper_compat=paper_compat,
            prompt_templates=prompt_templates,
            columns=columns,
            answer_format=answer_format,
            hf_config=hf_config,
            hf_split=hf_split,
            perturb=perturb,
            mitigations=mitigations,
            bias_target=bias_target,
            bias_target_render=bias_target_render,
            bias_position=bias_position,
            cache=cache,
            out=out,
        )
        if dry_run:
            _print_plan(plan_only(cfg))
            return
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=console,
            disable=quiet,
            transient=False,
        ) as bars:
            result = evaluate(cfg, progress=RichProgress(bars))
    except BudgetExhausted as exc:
        console.print(f"[bold yellow]stopped:[/] {exc}", highlight=False)
        raise typer.Exit(code=3) from None
    except XlingmedError as exc:
        _fail(exc)
        return
    except KeyboardInterrupt:
        console.print("interrupted: every completion received so far is cached; run the same command to resume")
        raise typer.Exit(code=130) from None
    _print_summary(result.summary)
    _print_parsing(result.summary)
    _print_failures(result.summary)
    console.print(
        f"wrote {result.out_dir}  backend_calls: {result.backend_calls}  cache_hits: {result.cache_hits}  "
        f"failed_requests: {result.failed_requests}  wall: {result.wall_s:.1f} s",
        highlight=False,
    )
    if report:
        from xlingmed.report import build_report

        try:
            index = build_report([result.out_dir])
        except XlingmedError as exc:
            _fail(exc)
            return
        console.print(f"report: {index}", highlight=False)


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
) -> None:
    """Rebuild figures, statistics and index.html from stored results; no model is called."""
    from xlingmed.report import build_report

    try:
        index = build_report(runs, out, n_resamples=resamples, seed=seed, annotations=annotations or ())
    except XlingmedError as exc:
        _fail(exc)
        return
    stdout.print(f"wrote {index}", highlight=False)


def _key_values(pairs: list[str] | None, flag: str) -> dict[str, str]:
    """``["k=v", …]`` → ``{"k": "v"}``; the values are validated by the options model they reach.

    Raises:
        ConfigError: an entry without ``=``.
    """
    from xlingmed.errors import ConfigError

    out: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} {pair!r}: expected key=value")
        out[key.strip()] = value  # kept as given: a value may start with a space
    return out


def _legacy_task_flags(args: list[str]) -> dict[str, Any]:
    """The task options given as ``--key value`` / ``--key=value`` / ``--flag`` / ``--no-flag`` (the flags
    before 0.2), read against the task registry: every task option is accepted this way.

    Raises:
        ConfigError: an argument that is no task option, or one without its value.
    """
    from xlingmed.errors import ConfigError
    from xlingmed.tasks.registry import task_specs

    fields = {k: f for spec in task_specs().values() for k, f in spec.options.model_fields.items()}
    out: dict[str, Any] = {}
    it = iter(args)
    for token in it:
        name, eq, value = token.partition("=")
        key = name.removeprefix("--").replace("-", "_")
        negated = key.removeprefix("no_")
        if not name.startswith("--"):
            raise ConfigError(f"unexpected argument {token!r}")
        if key in fields and fields[key].annotation is bool and not eq:
            out[key] = True
        elif negated in fields and fields[negated].annotation is bool and not eq and key != negated:
            out[negated] = False
        elif key in fields:
            if not eq:
                value = next(it, None)  # type: ignore[assignment]
                if value is None:
                    raise ConfigError(f"option {name} needs a value")
            out[key] = value
        else:
            raise ConfigError(f"no such option: {name} (task options: -T key=value; see `xlingmed list`)")
    return out


def _print_plan(rows: list[dict[str, Any]]) -> None:
    """The ``--dry-run`` table: requests per task × stage × model × language × τ, tokens and cost."""
    models = sorted({r["model"] for r in rows})
    one = len(models) == 1
    table = Table(
        title=f"Plan{' for ' + models[0] if one else ''} (dry run: no model called); * = built on answers not "
        "generated yet (upper bound)"
    )
    cols = ["task stage", *([] if one else ["model"]), "lang", "τ", "req", "cached", "send", "in tok ≈", "out tok ≤"]
    for col in [*cols, "USD ≤"]:
        table.add_column(col, justify="left" if col in ("task stage", "model") else "right", no_wrap=col == "τ")
    totals = {"requests": 0, "cached": 0, "to_send": 0, "prompt_tokens": 0, "max_completion_tokens": 0}
    cost: float | None = 0.0
    for r in rows:
        for k in totals:
            totals[k] += r[k]
        cost = None if cost is None or r["cost_usd"] is None else cost + r["cost_usd"]
        table.add_row(
            f"{r['task']} {r['stage']}" + ("*" if r["upper_bound"] else ""), *([] if one else [r["model"]]), r["lang"],
            f"{r['temperature']:g}", str(r["requests"]), str(r["cached"]), str(r["to_send"]),
            str(r["prompt_tokens"]), str(r["max_completion_tokens"]),
            "?" if r["cost_usd"] is None else f"{r['cost_usd']:.4f}",
        )  # fmt: skip
    table.add_row(
        "total",
        *[""] * (len(cols) - 6),
        *(str(v) for v in totals.values()),
        "?" if cost is None else f"{cost:.4f}",
        style="bold",
    )
    stdout.print(table)
    if cost is None:
        stdout.print("cost ?: no --price for that model (in-process llamacpp models cost nothing)")


def _print_parsing(summary: dict[str, Any]) -> None:
    """How every reply was read, per task and language (``parsing.methods``), and the >5 % warnings."""
    from xlingmed.parsing.methods import KIND_ORDER, kind_of

    parsed = {name: t["parsing"] for name, t in summary["tasks"].items() if "parsing" in t}
    if not parsed:
        return
    table = Table(title="How replies were read (read = a direct rule; fallback and unread can make a gap alone)")
    for col in ("task", "lang", *KIND_ORDER):
        table.add_column(col, justify="left" if col in ("task", "lang") else "right", no_wrap=True)
    table.add_column("not read by a direct rule", overflow="fold")
    for name, p in parsed.items():
        for lang, kinds in p["kinds"].items():
            # the methods behind fallback / unread / refused; the read ones are in summary.json and the report
            other = sorted(
                ((m, n) for m, n in p["methods"][lang].items() if kind_of(m) in ("fallback", "unread", "refused")),
                key=lambda mn: -mn[1],
            )
            table.add_row(name, lang, *[str(kinds[k]) for k in KIND_ORDER], ", ".join(f"{m} {n}" for m, n in other))
    stdout.print(table)
    for name, p in parsed.items():
        for warning in p["warnings"]:
            console.print(f"[yellow]warning[/yellow] {name}: {warning}", highlight=False)


def _print_failures(summary: dict[str, Any]) -> None:
    """Failed requests per language and reason, and how to retry them."""
    failures = summary.get("failures") or {}
    if not failures:
        return
    table = Table(title=f"Failed requests: {summary['failed_requests']} (counted in each task's errors)")
    for col in ("lang", "reason", "requests"):
        table.add_column(col, justify="right" if col == "requests" else "left")
    for lang, kinds in failures.items():
        for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]):
            table.add_row(lang, kind, str(n))
    console.print(table)
    console.print(
        "re-run the same command to resend them (transient failures are not cached); --retry-failed also resends "
        "cached ones (400/413/422)",
        highlight=False,
    )


def _fmt(v: Any, digits: int = 3) -> str:
    return "–" if v is None else (f"{v:.{digits}f}" if isinstance(v, float) else str(v))


def _print_answers_and_rubric(summary: dict[str, Any]) -> None:
    """Multiple choice (with bias conditions), open answers (BERTScore) and the judge rubric: MedArabiQ's
    tasks and those of users' own files."""
    tasks = summary["tasks"]
    version = (summary.get("dataset") or {}).get("version", "?")
    if "multiple_choice" in tasks:
        m = tasks["multiple_choice"]
        conds = m["settings"]["conditions"]
        table = Table(title=f"{summary['benchmark']}: accuracy % (invalid = wrong) — {summary['model']}; {version}")
        for col in ("lang", "τ", *conds, "invalid (orig.)", "errors"):
            table.add_column(col, justify="right")
        for lang, per_t in m["languages"].items():
            for t, cell in per_t.items():
                cs = cell.get("conditions", {"original": cell})
                frac = [
                    "–" if cs[c]["n"] == 0 else f"{cs[c]['accuracy_pct']} ({cs[c]['n_correct']}/{cs[c]['n']})"
                    for c in conds
                ]
                o = cs["original"] if "original" in cs else next(iter(cs.values()))
                table.add_row(lang, t, *frac, f"{o['n_invalid']}/{o['n']}", str(o["n_errors"]))
        stdout.print(table)
    if "open_qa" in tasks:
        q = tasks["open_qa"]
        bs = q["settings"]["bertscore"]
        table = Table(title=f"{summary['benchmark']}: BERTScore F1 × 100 ({bs['model']} L{bs['layer']}); {version}")
        for col in ("lang", "τ", "mean", "sd", "n", "empty replies", "errors"):
            table.add_column(col, justify="right")
        for lang, per_t in q["languages"].items():
            for t, cell in per_t.items():
                f1 = cell["bertscore_f1"]
                table.add_row(
                    lang, t, _fmt(f1["mean"], 1), _fmt(f1["sd"], 1), str(f1["n"]),
                    str(cell["n_empty_responses"]), str(cell["n_errors"]),
                )  # fmt: skip
        stdout.print(table)
    if "rubric" in tasks:
        r = tasks["rubric"]
        table = Table(title=f"{summary['benchmark']}: judge rubric 1–5, mean ± sd ({summary['judge']})")
        for col in ("lang", "τ", "average", "similarity", "relevance", "factuality", "safety", "unparsed", "errors"):
            table.add_column(col, justify="right")
        for row in r["table_j1"]:
            cell = r["languages"][row["lang"]][f"{row['temperature']:g}"]
            table.add_row(
                row["lang"], f"{row['temperature']:g}",
                *[row[k] or "–" for k in ("average", "similarity", "relevance", "factuality", "safety")],
                f"{cell['n_unparsed']} (+{cell['n_partial']} partial)", str(cell["n_errors"]),
            )  # fmt: skip
        stdout.print(table)


def _print_summary(summary: dict[str, Any]) -> None:
    tasks = summary["tasks"]
    langs = summary["languages"]
    if {"multiple_choice", "open_qa", "rubric"} & set(tasks):
        _print_answers_and_rubric(summary)
    if "correctness" in tasks:
        c = tasks["correctness"]
        table = Table(title=f"Correctness: judge labels per language ({summary['judge']})")
        table.add_column("label")
        for lang in langs:
            table.add_column(lang, justify="right")
        for lab in c["labels"]:
            cells = []
            for lang in langs:
                s = c["languages"][lang]
                change = (s.get("change_vs_en_pp") or {}).get(lab)
                cells.append(f"{s['counts'][lab]}" + ("" if change is None or lang == "en" else f" ({change:+.1f}pp)"))
            table.add_row(c["label_names"][lab], *cells)
        table.add_row("errors", *[str(c["languages"][lang]["n_errors"]) for lang in langs])
        stdout.print(table)
    if "verifiability" in tasks:
        v = tasks["verifiability"]
        table = Table(title=f"Verifiability ({summary['model']}, parser {v['parser']})")
        for col in (
            "lang",
            "τ",
            "claims",
            "scored",
            "unparsed",
            "refused",
            "errors",
            "macro-P",
            "macro-R",
            "macro-F1",
            "accuracy",
            "AUC (paper)",
            "AUC P(yes)",
        ):
            table.add_column(col, justify="right")
        for lang in langs:
            for t, s in v["languages"][lang]["temperatures"].items():
                table.add_row(
                    lang,
                    t,
                    str(s["n_claims"]),
                    str(s["n_scored"]),
                    str(s["n_unparsed"]),
                    str(s["n_refused"]),
                    str(s["n_errors"]),
                    _fmt(s["macro_precision"]),
                    _fmt(s["macro_recall"]),
                    _fmt(s["macro_f1"]),
                    _fmt(s["accuracy"]),
                    _fmt(s["auc_hard_labels"]),
                    _fmt(s["auc_p_yes"]),
                )
        stdout.print(table)
    if "consistency" in tasks:
        c = tasks["consistency"]
        a9 = c["table_a9"]
        src = f"translator {c['settings']['translator']}" if a9["mode"] == "paper" else "original text"
        table = Table(
            title=f"Consistency ({summary['model']}, K={c['settings']['samples']}, mode {a9['mode']}: {src}); "
            "mean over τ / change vs en"
        )
        table.add_column("metric")
        for lang in langs:
            table.add_column(lang, justify="right")
        for col, label in a9["columns"].items():
            table.add_row(label, *[a9["metrics"][col][lang]["cell"] or "–" for lang in langs])
        skipped = [
            sum(t["skipped"]["missing_answer"] + t["skipped"]["no_letters"] for t in c["languages"][lang].values())
            for lang in langs
        ]
        table.add_row("questions skipped", *[str(n) for n in skipped])
        stdout.print(table)


@app.command()
def describe(
    benchmark: Annotated[str, typer.Argument(help="e.g. xlinghealth/liveqa")],
    data_dir: Annotated[Path | None, typer.Option(help="Folder with the benchmark files.")] = None,
) -> None:
    """Per-language question counts and word counts (mean ± sd), as in XLingEval Table A1."""
    from xlingmed.benchmarks import get_benchmark

    try:
        spec = get_benchmark(benchmark)
        rows = spec.describe(data_dir)
    except XlingmedError as exc:
        _fail(exc)
        return
    if rows and "q_words_mean" not in rows[0]:  # MedArabiQ and others: the columns as they come
        table = Table(title=spec.describe_title())
        for col in rows[0] if rows else ():
            table.add_column(col, justify="right")
        for r in rows:
            table.add_row(*[_fmt(v, 2) for v in r.values()])
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
def list_() -> None:
    """Benchmarks, tasks (with their -T options), model backends (-M) and languages this version knows."""
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
    stdout.print("languages:  " + ", ".join(f"{c} ({lang.name})" for c, lang in LANGUAGES.items()))
    stdout.print(
        "models:     "
        + ", ".join(f"llamacpp/{m}" for m in EMBEDDED)
        + ", llamacpp/<path.gguf>, openai/<model> (any OpenAI-compatible server via --base-url)"
    )
    for backend in backends().values():
        kind = "in process" if backend.in_process else "remote"
        stdout.print(f"  {backend.provider}/…: {kind}; {backend.description}", highlight=False)
    from xlingmed.metrics.registry import metric_specs

    stdout.print("answer metrics (-T answer_metrics=…): " + ", ".join(metric_specs()), highlight=False)


def _fmt_default(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def main() -> None:
    app()


annotate_app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Human evaluation of the judge (XLingEval App. C, Table A7)."
)
app.add_typer(annotate_app, name="annotate")


@annotate_app.command("sample")
def annotate_sample(
    run_dir: Annotated[Path, typer.Argument(help="A finished run with the correctness task.")],
    out: Annotated[Path, typer.Option(help="Annotation set folder to create.")],
    fraction: Annotated[float, typer.Option(help="Share of each stratum (paper: 0.1); at least 1 item each.")] = 0.1,
    stratify: Annotated[str, typer.Option(help="label (the judge's) | none.")] = "label",
    per_language: Annotated[bool, typer.Option("--per-language/--across-languages")] = True,
    seed: Annotated[int, typer.Option(help="Fixes the items drawn and their order.")] = 0,
    annotators: Annotated[str, typer.Option(help="Comma-separated names; each gets a secret token.")] = "a1,a2",
) -> None:
    """Draw a stratified, seeded sample of a run's judged items for annotators."""
    from xlingmed.annotate import build_annotation_set

    try:
        aset = build_annotation_set(
            run_dir,
            out,
            fraction=fraction,
            stratify=stratify,
            per_language=per_language,
            seed=seed,
            annotators=annotators.split(","),
        )
    except XlingmedError as exc:
        _fail(exc)
        return
    table = Table(title=f"{aset.path}: {len(aset.items)} items (fraction {fraction}, seed {seed})")
    for col in ("stratum (lang|label)", "items", "sampled"):
        table.add_column(col, justify="left" if col.startswith("stratum") else "right")
    for key, n in aset.settings["strata"].items():
        table.add_row(key, str(n["stratum"]), str(n["sampled"]))
    stdout.print(table)
    stdout.print(f"annotator tokens are in {aset.path / 'annotators.json'} (keep them secret)", highlight=False)


@annotate_app.command("export")
def annotate_export(
    annotation_set: Annotated[Path, typer.Argument(help="An annotation set folder.")],
) -> None:
    """Judge–human agreement per language (Table A7) → SET/agreement.csv and answers.csv."""
    from xlingmed import output
    from xlingmed.annotate import AnswerStore, agreement_table, load_annotation_set

    try:
        aset = load_annotation_set(annotation_set)
    except XlingmedError as exc:
        _fail(exc)
        return
    answers = AnswerStore(aset.path / "answers.sqlite").all()
    rows = agreement_table(aset, answers)
    output.write_csv(aset.path / "agreement.csv", rows)
    output.write_csv(
        aset.path / "answers.csv",
        [{"annotator": a.annotator, "item": a.item, "verdict": a.verdict, "label": a.label, "reason": a.reason}
         for a in answers],
    )  # fmt: skip
    table = Table(title=f"Judge–human agreement ({len(answers)} answers)")
    for col in ("lang", "items", "annotators", "judge = majority", "no majority", "unanimous", "κ", "κ items"):
        table.add_column(col, justify="right")
    for r in rows:
        kappa = "–" if r["kappa"] is None else f"{r['kappa']:.3f} ({r['kappa_kind']})"
        table.add_row(
            r["lang"], str(r["n_items"]), str(r["n_annotators"]), _fmt(r["judge_agreement"]),
            str(r["n_no_majority"]), _fmt(r["unanimous"]), kappa, str(r["n_kappa_items"]),
        )  # fmt: skip
    stdout.print(table)
    stdout.print(f"wrote {aset.path / 'agreement.csv'} and answers.csv", highlight=False)


@annotate_app.command("serve")
def annotate_serve(
    annotation_set: Annotated[Path, typer.Argument(help="An annotation set folder.")],
    host: Annotated[str, typer.Option(help="Address to bind (loopback unless --allow-remote).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8700,
    allow_remote: Annotated[bool, typer.Option("--allow-remote", help="Permit a non-loopback --host.")] = False,
) -> None:
    """Serve the annotation web app; prints each annotator's personal link."""
    from xlingmed.annotate import load_annotation_set
    from xlingmed.annotate.server import annotator_links, check_host, serve

    try:
        aset = load_annotation_set(annotation_set)
        warning = check_host(host, allow_remote)
    except XlingmedError as exc:
        _fail(exc)
        return
    if warning:
        console.print(f"[bold yellow]{warning}[/]", highlight=False)
    for name, link in annotator_links(aset, f"http://{host}:{port}").items():
        stdout.print(f"{name}: {link}", highlight=False, soft_wrap=True)
    serve(aset, host, port)


if __name__ == "__main__":
    main()
