"""``xlingmed run``: the common flags, ``-T``/``-M`` options and the task flags of 0.1 (aliases of ``-T``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from xlingmed.benchmarks.odd_rows import skipped_sentence
from xlingmed.cli.app import app
from xlingmed.cli.common import RichProgress, console, fail, set_format, write_report
from xlingmed.cli.tables import FormatOption
from xlingmed.cli.views import print_failures, print_not_available, print_parsing, print_plan, print_summary
from xlingmed.errors import EXIT_FAILED_REQUESTS, EXIT_INTERRUPTED, XlingmedError


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
    strict_data: Annotated[
        bool | None,
        typer.Option("--strict-data", help="A row that cannot be an item stops the run (file, row, column named); "
                     "by default it is skipped and counted by reason."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed sent with every request.")] = None,
    temperatures: Annotated[
        str | None,
        typer.Option(help="Temperatures of verifiability and consistency (defaults 0 and 0,0.25,0.5,0.75,1)."),
    ] = None,
    max_tokens: Annotated[
        int | None, typer.Option(help="Answer max tokens (XLingEval: 1000; MedArabiQ: 16 letter, 64 FITB, 512 Q&A).")
    ] = None,
    top_p: Annotated[float | None, typer.Option(help="Nucleus sampling of the model under test (default 1).")] = None,
    top_k: Annotated[
        int | None, typer.Option(help="Top-k sampling of the model under test (default: the engine's own).")
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(help="A named protocol filling every setting left unset: medalpaca (XLingEval §6)."),
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
    fail_on_error: Annotated[
        str | None,
        typer.Option(
            help="The share of failed requests tolerated before the run exits 4 (after writing its folder): 0 (the "
            "default: any failure), 0.05, or none."
        ),
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
    extractor: Annotated[
        str | None,
        typer.Option(
            help="Multiple choice: a model that reads the replies the rules leave ambiguous or invalid, "
            "provider/model or 'judge' (default: none; never the model under test unless named)."
        ),
    ] = None,
    extractor_base_url: Annotated[str | None, typer.Option(help="Server of --extractor.")] = None,
    extractor_mode: Annotated[
        str | None,
        typer.Option(help="fallback (only what the rules cannot read) | all (every reply; agreement per language)."),
    ] = None,
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
    hf_split: Annotated[
        str | None, typer.Option(help="hf:ORG/NAME and hub benchmarks: split (default: the benchmark's; test).")
    ] = None,
    subset: Annotated[
        str | None,
        typer.Option(help="A hub benchmark's part: global-mmlu/medical lite|sensitive|agnostic, kormedmcqa doctor|…"),
    ] = None,
    provenance: Annotated[
        str | None,
        typer.Option(help="Only items translated this way: human (people translated or post-edited), machine, …"),
    ] = None,
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
    benchmark_arg: Annotated[
        list[str] | None,
        typer.Option(
            "-B",
            "--benchmark-arg",
            help="A benchmark option, key=value (repeatable): subset, provenance, hf_config, hf_split, columns, "
            "answer_format, include_defective, paper_compat… (each benchmark's: xlingmed list benchmarks).",
        ),
    ] = None,
    cache: Annotated[Path | None, typer.Option(help="Completion cache file (SQLite).")] = None,
    out: Annotated[Path | None, typer.Option(help="Run folder to write.")] = None,
    private: Annotated[
        bool | None, typer.Option("--private", help="Make the run folder owner-only (it holds every prompt and reply).")
    ] = None,
    shard: Annotated[
        str | None,
        typer.Option(help="i/N: only shard i (0-based) of N, by a hash of item_id; combine with xlingmed merge."),
    ] = None,
    executor: Annotated[
        str | None,
        typer.Option(help="local | ray (-M replicas=N, gpus_per_replica=G; extra [ray]) | cache (send nothing)."),
    ] = None,
    ray_address: Annotated[
        str | None, typer.Option(help="--executor ray: auto | ray://host:port (default: start a local Ray).")
    ] = None,
    config: Annotated[Path | None, typer.Option(help="YAML file of RunConfig fields; flags override it.")] = None,
    trust_config: Annotated[
        bool,
        typer.Option(
            "--trust-config",
            help="Let --config choose servers (base_url…), the key variable and trust_remote_code; said first.",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bars.")] = False,
    report: Annotated[bool, typer.Option("--report/--no-report", help="Write RUN_DIR/report at the end.")] = True,
    output_format: FormatOption = "text",
) -> None:
    """Evaluate a model on a benchmark and write RUN_DIR (manifest, samples, summary, CSVs)."""
    from xlingmed.config import make_config
    from xlingmed.engine import dry_run as plan_only
    from xlingmed.engine import evaluate
    from xlingmed.errors import BudgetExhausted

    set_format(output_format)
    try:
        cfg = make_config(
            config,
            trust_config=trust_config,
            say=lambda line: console.print(f"[bold yellow]note:[/] {line}", highlight=False),
            task_args={**_legacy_task_flags(ctx.args), **_key_values(task_arg, "-T")} or None,
            model_args=_key_values(model_arg, "-M") or None,
            benchmark_args=_key_values(benchmark_arg, "-B") or None,
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
            strict_data=strict_data,
            seed=seed,
            temperatures=temperatures,
            max_tokens=max_tokens,
            top_p=top_p,
            top_k=top_k,
            preset=preset,
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
            fail_on_error=fail_on_error,
            n_ctx=n_ctx,
            translator=translator,
            translator_base_url=translator_base_url,
            extractor=extractor,
            extractor_base_url=extractor_base_url,
            extractor_mode=extractor_mode,
            device=device,
            model_class=model_class,
            paper_compat=paper_compat,
            prompt_templates=prompt_templates,
            columns=columns,
            answer_format=answer_format,
            hf_config=hf_config,
            hf_split=hf_split,
            subset=subset,
            provenance=provenance,
            perturb=perturb,
            mitigations=mitigations,
            bias_target=bias_target,
            bias_target_render=bias_target_render,
            bias_position=bias_position,
            cache=cache,
            out=out,
            shard=shard,
            private=private,
            executor=executor,
            ray_address=ray_address,
        )
        notice = getattr(cfg.spec, "notice", "")
        if notice:  # a non-commercial or research-only licence, a gate: said before anything runs
            console.print(f"[bold yellow]note:[/] {notice}", highlight=False)
        if dry_run:
            print_plan(plan_only(cfg, on_plan=lambda p: _say_skipped(p.provenance)))
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
        fail(exc)
        return
    except KeyboardInterrupt:
        from xlingmed.store import default_cache_path

        where = (cfg.cache or default_cache_path()) if "cfg" in locals() else "the cache"
        console.print(f"interrupted: every completion received so far is kept in {where}; no run folder was "
                      "written; run the same command to resume", highlight=False)  # fmt: skip
        raise typer.Exit(code=EXIT_INTERRUPTED) from None
    print_summary(result.summary)
    skipped = skipped_sentence(result.summary.get("dataset", {}))
    if skipped:
        console.print(f"[bold yellow]note:[/] {skipped}", highlight=False)
    print_parsing(result.summary)
    print_not_available(result.summary)
    print_failures(result.summary)
    for task, block in result.summary.get("uneven_losses", {}).items():
        fewer = ", ".join(f"{lang} {n}" for lang, n in block["fewer"].items())
        console.print(f"[bold yellow]warning:[/] {task}: fewer scored items in {fewer} than the {block['most']} of "
                      "the other languages; unequal losses bias the comparison", highlight=False)  # fmt: skip
    console.print(
        f"wrote {result.out_dir}  backend_calls: {result.backend_calls}  cache_hits: {result.cache_hits}  "
        f"failed_requests: {result.failed_requests}  wall: {result.wall_s:.1f} s",
        highlight=False,
    )
    if report:
        write_report(result.out_dir)
    failed = result.failure(cfg.fail_on_error)
    if failed:  # after the run folder and the report: what was done is kept, and the pipeline is told
        console.print(f"[bold red]failed:[/] {failed}", highlight=False)
        raise typer.Exit(code=EXIT_FAILED_REQUESTS)


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


def _say_skipped(dataset: dict[str, Any]) -> None:
    skipped = skipped_sentence(dataset)
    if skipped:
        console.print(f"[bold yellow]note:[/] {skipped}", highlight=False)
