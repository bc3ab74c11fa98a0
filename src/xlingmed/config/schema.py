"""``RunSchema``: every field of a run's configuration, each written once with its type, default, constraints,
group, flag(s), short help and documentation (``config.fields.option``). ``RunConfig`` (``run_config.py``) adds the
validators and what the fields work out; ``xlingmed run``'s options are generated from these fields. Defaults are
the paper-faithful values (XLingEval; shared/specs/xlingeval.md §8) except where noted."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from xlingmed.config.fields import option


class RunSchema(BaseModel):
    """The fields of ``RunConfig``, flat (the YAML file's and the manifest's keys), in the manifest's order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    benchmark: str = option(
        group="benchmark",
        help="xlinghealth/liveqa | xlinghealth/medicationqa | xlinghealth/healthqa | medarabiq/<task> (mcq, "
        "mcq_bias, fitb_choices, fitb_open, qa, qa_gec, qa_llm)",
        doc="``xlinghealth/liveqa`` | ``xlinghealth/medicationqa`` | ``xlinghealth/healthqa`` | ``medarabiq/<task>`` "
        "(mcq, mcq_bias, fitb_choices, fitb_open, qa, qa_gec, qa_llm); ``xlingmed list benchmarks`` shows all.")
    data_dir: Path | None = option(
        None, group="benchmark", help="Folder with the benchmark files (else $XLINGMED_DATA_DIR, else download).",
        doc="folder with the benchmark files; else ``$XLINGMED_DATA_DIR``; else download (XLingHealth only: "
        "MedArabiQ is never downloaded)")
    languages: tuple[str, ...] = option(
        ("en", "es", "zh", "hi"), group="benchmark",
        help="Comma-separated ISO codes (default: the benchmark's; MedArabiQ FITB: ar,en).",
        doc="ISO codes; default: the benchmark's (XLingHealth en,es,zh,hi; MedArabiQ ar; the two FITB files also "
        "hold en)")
    tasks: tuple[str, ...] = option(  # filled with the benchmark's default_tasks before validation
        (), group="benchmark",
        help="XLingHealth: correctness,verifiability,consistency; MedArabiQ: multiple_choice | open_qa,rubric",
        doc="registered task names; default: the benchmark's ``default_tasks``; any task whose requirements its "
        "items meet runs on it (``tasks.registry.tasks_for``; ``xlingmed list benchmarks``)")
    model: str = option(
        "llamacpp/smollm2", group="roles", help="provider/model, e.g. llamacpp/smollm2, openai/gpt-4o.",
        doc="the model under test, ``provider/model``")
    judge: str | None = option(
        None, group="roles", help="Judge model for correctness (default: --model).",
        doc="the judge, ``provider/model``; defaults to the model")
    base_url: str | None = option(
        None, group="roles", help="OpenAI-compatible server of --model.",
        doc="OpenAI-compatible server of the model")
    judge_base_url: str | None = option(
        None, group="roles", help="Server of --judge (default: --base-url).",
        doc="OpenAI-compatible server of the judge")
    api_key_env: str = option(
        "OPENAI_API_KEY", group="roles", help="Env var with the API key (default OPENAI_API_KEY).",
        doc="environment variable that holds the API key")
    limit: int | None = option(
        None, ge=1, group="benchmark", help="First N questions, the same in every language.",
        doc="first N questions (same ones in every language)")
    include_defective: bool = option(
        False, group="benchmark", flags=("--include-defective/--exclude-defective",),
        help="Keep questions with empty cells.",
        doc="keep questions with empty cells (LiveQA 58, 67; MedicationQA 212)")
    strict_data: bool = option(
        False, group="benchmark", flags=("--strict-data",),
        help="A row that cannot be an item stops the run (file, row, column named); by default it is skipped and "
        "counted by reason.",
        doc="a row that cannot be an item (no options, an answer key naming no option) is an error naming file, row "
        "and column, not skipped and counted (``benchmarks.odd_rows``)")
    seed: int | None = option(
        42, group="generation", help="Seed sent with every request.",
        doc="sent with every request (the paper set none)")
    temperatures: tuple[float, ...] | None = option(
        None, group="generation",
        help="Temperatures of verifiability and consistency (defaults 0 and 0,0.25,0.5,0.75,1).",
        doc="temperatures swept by verifiability and consistency; default the paper's 0, 0.25, 0.5, 0.75, 1 for "
        "consistency and for verifiability on XLingHealth (0 for a user's qa:FILE)")
    max_tokens: int | None = option(
        None, ge=1, group="generation",
        help="Answer max tokens (XLingEval: 1000; MedArabiQ: 16 letter, 64 FITB, 512 Q&A).",
        doc="the answer's limit; default XLingEval 1000 (paper), MedArabiQ 16 for a letter, 64 for a FITB term, "
        "512 for a Q&A answer (unstated in that paper)")
    top_p: float | None = option(
        None, gt=0, le=1, group="generation", help="Nucleus sampling of the model under test (default 1).",
        doc="nucleus sampling of the model under test (not of a judge or translator); ``None``: 1")
    top_k: int | None = option(
        None, ge=1, group="generation", help="Top-k sampling of the model under test (default: the engine's own).",
        doc="top-k sampling of the model under test; ``None``: the engine's own (OpenAI's API has none)")
    preset: str | None = option(
        None, group="generation", help="A named protocol filling every setting left unset: medalpaca (XLingEval §6).",
        doc="a named protocol (``config/presets.py``), e.g. ``medalpaca`` (spec xlingeval.md §6): its settings fill "
        "every field the user left unset")
    model_class: Literal["auto", "open", "closed"] = option(
        "auto", group="generation",
        help="MedArabiQ default temperatures: auto | open (0 / Q&A 0.4) | closed (0.2).",
        doc="``auto`` | ``open`` | ``closed``: MedArabiQ's default temperatures depend on it (open 0.0 for MCQ/FITB "
        "and 0.4 for Q&A, closed 0.2); ``auto`` = closed for GPT/Claude/Gemini/DeepSeek names")
    paper_compat: bool = option(
        False, group="benchmark", flags=("--paper-compat/--no-paper-compat",),
        help="medarabiq/mcq_bias: rows 0-97 (Table 2).",
        doc="``medarabiq/mcq_bias``: only rows 0–97, the paper's 98-item Table 2")
    prompt_templates: Path | None = option(
        None, group="benchmark", help="YAML laid over the shipped MedArabiQ prompt templates.",
        doc="YAML file laid over ``prompts/medarabiq.yaml``")
    columns: dict[str, str] = option(
        default_factory=dict, group="benchmark",
        help="mcq:FILE / qa:FILE column names, e.g. question=stem,answer=gold,lang=language.",
        doc="a user's file (``mcq:FILE``, ``qa:FILE``): field → column name, e.g. ``{\"question\": \"stem\"}`` "
        "(``--columns question=stem,answer=gold``)")
    answer_format: Literal["auto", "letter", "index0", "index1", "text"] = option(
        "auto", group="benchmark", help="mcq:FILE answers: auto | letter | index0 | index1 | text.",
        doc="``mcq:FILE`` answers: ``auto`` (letter, else option text) | ``letter`` | ``index0`` | ``index1`` | "
        "``text``")
    hf_config: str | None = option(
        None, group="benchmark", help="hf:ORG/NAME: dataset config, or lang=CONFIG,… (one per language).",
        doc="``hf:ORG/NAME``: the dataset config (``NAME``, or ``en=NAME_EN,es=NAME_ES`` for one config per language)")
    hf_split: str | None = option(
        None, group="benchmark", help="hf:ORG/NAME and hub benchmarks: split (default: the benchmark's; test).",
        doc="``hf:ORG/NAME`` and hub benchmarks: the split (default: the benchmark's, ``test`` for ``hf:``)")
    subset: str | None = option(
        None, group="benchmark",
        help="A hub benchmark's part: global-mmlu/medical lite|sensitive|agnostic, kormedmcqa doctor|…",
        doc="a published benchmark's part (``global-mmlu/medical``: ``lite``, ``sensitive``, ``agnostic``; "
        "``kormedmcqa``: ``doctor``…; ``xlingmed list benchmarks`` shows them)")
    provenance: tuple[str, ...] = option(
        (), group="benchmark",
        help="Only items translated this way: human (people translated or post-edited), machine, …",
        doc="keep only items whose text was made this way (``human`` = translated or post-edited by people; "
        "``machine``, ``post-edited``…); the source language's items are always kept")
    perturb: str | None = option(
        None, group="perturbation",
        help="bias:all or bias:recency,cultural… (multiple choice): inject cognitive biases.",
        doc="``bias:all`` or ``bias:<name>[,<name>…]``: inject cognitive biases into multiple-choice items")
    mitigations: tuple[str, ...] = option(
        (), group="perturbation", help="With --perturb: any of education,one_shot,few_shot.",
        doc="with ``perturb``: any of education, one_shot, few_shot")
    bias_target: Literal["random_incorrect", "correct", "random"] = option(
        "random_incorrect", group="perturbation",
        help="Option the bias names: random_incorrect (default) | correct | random.",
        doc="the option the bias sentence names: random_incorrect | correct | random")
    bias_target_render: Literal["letter_and_text", "text_only", "letter_only"] = option(
        "letter_and_text", group="perturbation", help="How it is named: letter_and_text | text_only | letter_only.",
        doc="how the target is named: letter_and_text | text_only | letter_only")
    bias_position: Literal["auto", "prepend", "append", "after_first_sentence"] = option(
        "auto", group="perturbation", help="auto | prepend | append | after_first_sentence.",
        doc="where the bias sentence goes: auto | prepend | append | after_first_sentence")
    max_concurrency: int = option(
        8, ge=1, group="network", help="Requests in flight (OpenAI-compatible).",
        doc="requests in flight; a ceiling that halves on 429/503 and grows back when healthy")
    max_retries: int = option(
        5, ge=0, le=20, group="network", help="Retries on 429/5xx/timeouts before a request is recorded as failed.",
        doc="retries on 429/5xx/timeouts before a request is recorded as failed")
    timeout_s: float = option(
        600.0, gt=0, group="network", flags=("--timeout",), help="Per-request timeout, seconds.",
        doc="per-request timeout (seconds)")
    retry_cap_s: float = option(
        60.0, ge=0, group="network", flags=("--retry-cap",),
        help="Longest wait before one resend, Retry-After included (s; 60).",
        doc="the longest wait before one resend, ``Retry-After`` included (seconds)")
    rpm: float | None = option(
        None, gt=0, group="network", help="Requests-per-minute ceiling of each remote backend.",
        doc="requests-per-minute ceiling of each remote backend")
    tpm: float | None = option(
        None, gt=0, group="network", help="Tokens-per-minute ceiling (prompt estimate + max_tokens).",
        doc="tokens-per-minute ceiling of each remote backend (prompt estimate + max_tokens)")
    max_requests: int | None = option(
        None, ge=1, group="budget", help="Stop cleanly after N backend calls; the same command resumes.",
        doc="stop cleanly after this many backend calls; the same command resumes")
    max_cost: float | None = option(
        None, gt=0, group="budget", help="Stop cleanly before spending more than this many USD (needs --price).",
        doc="stop cleanly before spending more than this many USD (needs ``prices``)")
    prices: dict[str, tuple[float, float]] = option(
        default_factory=dict, group="budget", flags=("--price",), cli="list",
        help="MODEL=IN,OUT: USD per 1M prompt and completion tokens, e.g. openai/gpt-4o=2.5,10.",
        doc="``provider/model`` → (USD per 1M prompt tokens, USD per 1M completion tokens) "
        "(``--price MODEL=IN,OUT``, repeatable)")
    retry_failed: bool = option(
        False, group="network", flags=("--retry-failed",),
        help="Resend requests whose failure is cached (400/413/422).",
        doc="resend requests whose failure is cached (HTTP 400/413/422; transient failures are never cached, so any "
        "re-run resends them)")
    fail_on_error: float | None = option(
        0.0, ge=0, le=1, group="network", cli="text",
        help="The share of failed requests tolerated before the run exits 4 (after writing its folder): 0 (the "
        "default: any failure), 0.05, or none.",
        doc="the share of failed requests (0–1) a run tolerates before it counts as failed (the CLI then exits 4, "
        "after writing the run folder); ``None`` = never, unless every request failed. Default 0: any failure "
        "(inspect_ai's ``--fail-on-error``)")
    n_ctx: int = option(
        8192, ge=256, group="generation", help="Context window of in-process GGUF models.",
        doc="context window of in-process GGUF models")
    translator: str | None = option(
        None, group="roles", help="Back-translation model, provider/model (default: the judge).",
        doc="back-translation model for consistency in paper mode; defaults to the judge when a judge different "
        "from the model was named, else the run stops before any request (the model under test never "
        "back-translates its own answers unless named here)")
    translator_base_url: str | None = option(
        None, group="roles", help="Server of --translator.", doc="OpenAI-compatible server of the translator")
    extractor: str | None = option(
        None, group="roles",
        help="Multiple choice: a model that reads the replies the rules leave ambiguous or invalid, provider/model "
        "or 'judge' (default: none; never the model under test unless named).",
        doc="a model that reads the multiple-choice replies the rules leave ambiguous or invalid "
        "(``parsing.extractor``); ``judge`` = the run's judge. None by default, and never the model under test "
        "unless named: ``judge`` when the judge is the model under test stops the run")
    extractor_base_url: str | None = option(
        None, group="roles", help="Server of --extractor.", doc="OpenAI-compatible server of the extractor")
    extractor_mode: Literal["fallback", "all"] = option(
        "fallback", group="roles",
        help="fallback (only what the rules cannot read) | all (every reply; agreement per language).",
        doc="``fallback`` (only what the rules cannot read) | ``all`` (every reply, with the agreement of rules and "
        "extractor per language)")
    device: str = option(
        "auto", group="generation", help="Encoder device: auto | cpu | cuda.",
        doc="torch device of the encoders, ``auto`` = CUDA when present")
    task_args: dict[str, Any] = option(
        default_factory=dict, group="generation", flags=("-T", "--task-arg"), cli="pairs",
        help="A task option, key=value (repeatable); `xlingmed list` shows each task's. The options that were "
        "flags before 0.2 are still accepted as --key value (e.g. --samples 5, --no-logprobs).",
        doc="each task's own options, ``key: value`` (``-T key=value``); each task's options model "
        "(``tasks/<task>.py``) declares and validates them; a key shared by several tasks (``judge_max_tokens``, "
        "``bertscore_model``…) applies to each. The options that were fields before 0.2 (``samples``, "
        "``judge_parser``, ``letter_parser``…) are still accepted as flat keys and flags.")
    benchmark_args: dict[str, Any] = option(
        default_factory=dict, group="benchmark", flags=("-B", "--benchmark-arg"), cli="pairs",
        help="A benchmark option, key=value (repeatable): subset, provenance, hf_config, hf_split, columns, "
        "answer_format, include_defective, paper_compat… (each benchmark's: xlingmed list benchmarks).",
        doc="the benchmark's own options, ``key: value`` (``-B key=value``), validated by its ``Options`` "
        "(``subset``, ``provenance``, ``hf_config``, ``columns``…); the fields of 0.1 (``include_defective``, "
        "``paper_compat``, ``columns``, ``answer_format``, ``hf_config``, ``hf_split``, ``subset``, "
        "``provenance``) are still read, for one release, where set to other than their default")
    model_args: dict[str, Any] = option(
        default_factory=dict, group="generation", flags=("-M", "--model-arg"), cli="pairs",
        help="A backend option of --model, key=value (repeatable).",
        doc="the model backend's own options (``-M key=value``), validated by its ``Options`` model")
    cache: Path | None = option(
        None, group="output", help="Completion cache file (SQLite).",
        doc="completion cache file; default ``$XLINGMED_CACHE`` or the user cache dir")
    out: Path = option(Path("runs/latest"), group="output", help="Run folder to write.", doc="the run folder")
    private: bool = option(
        False, group="output", flags=("--private",),
        help="Make the run folder owner-only (it holds every prompt and reply).",
        doc="the run folder owner-only (0700, files 0600), like the completion cache; default: the umask's modes "
        "(``filemodes.py``)")
    shard: str | None = option(
        None, group="executor",
        help="i/N: only shard i (0-based) of N, by a hash of item_id; combine with xlingmed merge.",
        doc="``i/N``: only the questions of shard i of N (0-based; a stable hash of ``item_id``, so every language "
        "of a question is in the same shard); ``xlingmed merge`` combines the shards' run folders "
        "(``engine/shard.py``, ``engine/merge.py``)")
    executor: Literal["local", "ray", "cache"] = option(
        "local", group="executor",
        help="local | ray (-M replicas=N, gpus_per_replica=G; extra [ray]) | cache (send nothing).",
        doc="who answers the cache misses: ``local`` (this process), ``ray`` (a pool of long-lived Ray actors, each "
        "holding one replica of the backend; ``-M replicas=N``, ``-M gpus_per_replica=G``, "
        "``-M cpus_per_replica=C``; extra ``[ray]``) or ``cache`` (nothing is sent: a miss is a failed request; "
        "what ``merge`` uses)")
    ray_address: str | None = option(
        None, group="executor", help="--executor ray: auto | ray://host:port (default: start a local Ray).",
        doc="the Ray cluster to join: ``auto``, ``ray://host:port``, a GCS address; ``None`` starts a local one")
