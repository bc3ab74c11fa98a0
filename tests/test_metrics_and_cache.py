"""Classification metrics, the correctness summary arithmetic, the cache key and the SQLite cache."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from xlingmed.config import make_config
from xlingmed.config.resolve import resolve
from xlingmed.errors import ConfigError
from xlingmed.metrics.classification import binary_metrics
from xlingmed.store import CompletionCache
from xlingmed.tasks.base import summary_json
from xlingmed.tasks.correctness import CorrectnessTask, scores
from xlingmed.types import Completion, GenerateRequest, Message, TokenLogprob


def test_binary_metrics_by_hand() -> None:
    # 2 positives, 4 negatives; predictions: TP=1, FN=1, TN=3, FP=1
    y_true = [1, 1, 0, 0, 0, 0]
    y_pred = [1, 0, 0, 0, 0, 1]
    m = binary_metrics(y_true, y_pred)
    # class 1: P=1/2, R=1/2; class 0: P=3/4, R=3/4
    assert m["macro_precision"] == pytest.approx((0.5 + 0.75) / 2)
    assert m["macro_recall"] == pytest.approx((0.5 + 0.75) / 2)
    assert m["macro_f1"] == pytest.approx((0.5 + 0.75) / 2)
    assert m["accuracy"] == pytest.approx(4 / 6)
    # AUC on hard labels equals macro recall (balanced accuracy), as in the paper's table
    assert m["auc"] == pytest.approx(m["macro_recall"]) and m["auc_source"] == "hard_labels"
    scored = binary_metrics(y_true, y_pred, [0.9, 0.4, 0.1, 0.2, 0.3, 0.5])
    # pairs (pos, neg): 0.9 beats all 4; 0.4 beats 0.1, 0.2, 0.3 -> 7/8
    assert scored["auc_p_yes"] == pytest.approx(7 / 8)
    assert scored["auc"] == scored["auc_hard_labels"] == m["auc"] and scored["auc_source"] == "hard_labels"
    assert binary_metrics([1, 1], [1, 0])["auc"] is None
    assert binary_metrics([], [])["macro_f1"] is None
    with pytest.raises(ValueError):
        binary_metrics([1, 0], [1, -1])


def test_correctness_summary_reproduces_paper_arithmetic() -> None:
    # LiveQA Table 1, "more" row: en 226, hi 142 of 246 -> the paper's -34.15 % "relative decrease"
    records = [
        {"item_id": f"q{i}", "lang": "en", "label": "more" if i < 226 else "less", "parse_method": "paper_tail"}
        for i in range(246)
    ]
    records += [
        {
            "item_id": f"q{i}",
            "lang": "hi",
            "label": "more" if i < 142 else "contradictory",
            "parse_method": "paper_tail",
        }
        for i in range(246)
    ]
    s = summary_json(CorrectnessTask().summarize(scores(records), ["en", "hi"]))["languages"]
    assert s["hi"]["counts"]["more"] == 142
    assert round(s["hi"]["change_vs_en_pp"]["more"], 2) == -34.15
    assert s["hi"]["ratio_vs_en"]["contradictory"] is None  # English has none: no ratio
    assert s["en"]["n"] == 246 and s["en"]["n_errors"] == 0


def test_cache_key_separates_every_sampling_setting() -> None:
    base = GenerateRequest(messages=(Message("user", "q"),), temperature=0.5, seed=1)
    keys = {
        base.cache_key("llamacpp/smollm2"),
        base.cache_key("openai/smollm2"),
        GenerateRequest(messages=base.messages, temperature=0.5, seed=1, sample_index=1).cache_key("llamacpp/smollm2"),
        GenerateRequest(messages=base.messages, temperature=0.75, seed=1).cache_key("llamacpp/smollm2"),
        GenerateRequest(messages=base.messages, temperature=0.5, seed=2).cache_key("llamacpp/smollm2"),
        GenerateRequest(messages=base.messages, temperature=0.5, seed=1, top_p=0.9).cache_key("llamacpp/smollm2"),
        GenerateRequest(messages=base.messages, temperature=0.5, seed=1, max_tokens=5).cache_key("llamacpp/smollm2"),
        GenerateRequest(messages=base.messages, temperature=0.5, seed=1, logprobs=True).cache_key("llamacpp/smollm2"),
        GenerateRequest(messages=(Message("user", "q2"),), temperature=0.5, seed=1).cache_key("llamacpp/smollm2"),
    }
    assert len(keys) == 9
    assert base.cache_key("m") == GenerateRequest(messages=(Message("user", "q"),), temperature=0.5, seed=1).cache_key(
        "m"
    )


def test_cache_round_trip_and_errors_not_cached(tmp_path: Path) -> None:
    cache = CompletionCache(tmp_path / "c.sqlite")
    req = GenerateRequest(messages=(Message("user", "q"),))
    comp = Completion(text="Yes", finish_reason="stop", logprobs=(TokenLogprob("Yes", -0.1, {"No": -2.0}),))
    cache.put("k1", "m", req, comp)
    cache.put("k2", "m", req, Completion(text="", error="RateLimitError (429)"))
    assert cache.get("k1") == comp
    assert cache.get("k2") is None
    assert len(cache) == 1
    cache.close()
    assert CompletionCache(tmp_path / "c.sqlite").get("k1") == comp  # persisted


def test_config_errors_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="languages"):
        make_config(benchmark="xlinghealth/liveqa", languages="en,klingon")
    with pytest.raises(ConfigError, match="tasks"):
        make_config(benchmark="xlinghealth/liveqa", tasks="correctness,speed")
    with pytest.raises(ConfigError, match=r"unknown model provider 'nosuch'"):  # hf/ exists since 0.2
        make_config(benchmark="xlinghealth/liveqa", model="nosuch/gpt2")
    bad = tmp_path / "run.yaml"
    bad.write_text("benchmark: xlinghealth/liveqa\nlimt: 5\n")
    with pytest.raises(ConfigError, match="limt"):
        make_config(bad)
    bad.write_text("benchmark: [unclosed\n")
    with pytest.raises(ConfigError, match=r"run\.yaml"):
        make_config(bad)
    good = tmp_path / "good.yaml"
    good.write_text("benchmark: xlinghealth/liveqa\nlimit: 5\nlanguages: [en, hi]\n")
    cfg = make_config(good, limit=3)
    assert (cfg.limit, cfg.languages, cfg.judge_model) == (3, ("en", "hi"), "llamacpp/smollm2")


def test_cache_key_is_stable_across_versions() -> None:
    # A changed key silently orphans every user's cache: this literal pins the key format.
    req = GenerateRequest(
        messages=(Message("system", "s"), Message("user", "¿Qué es? 发烧")),
        temperature=0.5,
        seed=3,
        sample_index=2,
        logprobs=True,
        top_logprobs=5,
    )
    assert req.cache_key("openai/m") == "64c03692c6f46342c152186d22b6a02958864f4333b703ea9a5da124bf0212ae"


def test_cache_writer_thread_commits_everything_and_surfaces_errors(tmp_path: Path) -> None:
    import sqlite3

    from xlingmed.errors import EnvironmentFault

    path = tmp_path / "c.sqlite"
    cache = CompletionCache(path)
    reqs = [GenerateRequest(messages=(Message("user", f"q{i}"),)) for i in range(500)]
    for i, req in enumerate(reqs):
        cache.put(f"k{i}", "m", req, Completion(text=f"a{i}"))
        assert cache.get(f"k{i}") == Completion(text=f"a{i}")  # visible at once, committed or not
    cache.flush()
    with sqlite3.connect(path) as other:  # another process sees every row once flushed
        assert other.execute("SELECT COUNT(*) FROM completions").fetchone()[0] == 500
        other.execute("DROP TABLE completions")  # break the store under the writer's feet
    cache.put("late", "m", reqs[0], Completion(text="x"))
    with pytest.raises(EnvironmentFault, match=f"the completion cache {path} failed: no such table"):
        cache.close()  # the writer's failure is raised on the caller's thread, not lost, in one line


def test_paper_mode_consistency_never_back_translates_with_the_model_under_test_by_default() -> None:

    with pytest.raises(ConfigError, match="--translator provider/model, or use --consistency-mode native"):
        make_config(benchmark="xlinghealth/liveqa", tasks="consistency", model="openai/m")
    with pytest.raises(ConfigError, match="no translator was named"):
        make_config(benchmark="xlinghealth/liveqa", tasks="consistency", model="openai/m", judge="openai/m")
    judged = make_config(benchmark="xlinghealth/liveqa", tasks="consistency", model="openai/m", judge="openai/j")
    assert judged.translator_model == "openai/j"
    named = make_config(benchmark="xlinghealth/liveqa", tasks="consistency", model="openai/m", translator="openai/m")
    assert named.translator_model == "openai/m"
    native = make_config(benchmark="xlinghealth/liveqa", tasks="consistency", model="openai/m",
                         consistency_mode="native")  # fmt: skip
    assert native.consistency_mode == "native"


def test_a_named_translator_never_borrows_another_models_server_silently() -> None:
    base = {"benchmark": "xlinghealth/liveqa", "tasks": "consistency", "model": "openai/m", "translator": "openai/t"}
    said = r"--translator openai/t has no server of its own: its requests would go to http://127.0.0.1:8000/v1 "
    with pytest.raises(ConfigError, match=said + r"\(the model under test's --base-url\)"):
        make_config(**base, base_url="http://127.0.0.1:8000/v1")
    with pytest.raises(ConfigError, match=r"http://127.0.0.1:8001/v1 \(the judge's --base-url\)"):
        make_config(**base, base_url="http://127.0.0.1:8000/v1", judge="openai/j",
                    judge_base_url="http://127.0.0.1:8001/v1")  # fmt: skip
    given = make_config(**base, base_url="http://127.0.0.1:8000/v1", translator_base_url="http://127.0.0.1:8002/v1")
    assert given.translator_base_url == "http://127.0.0.1:8002/v1"
    # the judge on its own server translates there; an in-process translator needs no server
    judge = make_config(**{**base, "translator": "openai/j"}, judge="openai/j",
                        judge_base_url="http://127.0.0.1:8001/v1")  # fmt: skip
    assert judge.translator_model == "openai/j"
    local = make_config(**{**base, "translator": "llamacpp/smollm2"}, base_url="http://127.0.0.1:8000/v1")
    assert local.translator_model == "llamacpp/smollm2"
    native = make_config(**base, base_url="http://127.0.0.1:8000/v1", consistency_mode="native")  # translates nothing
    assert native.translator == "openai/t"


def test_encoder_settings_are_resolved_with_their_source() -> None:
    from xlingmed.report import encoder_note

    base = {"benchmark": "xlinghealth/liveqa", "tasks": "consistency", "model": "openai/m", "translator": "openai/t"}
    paper = make_config(**base)
    assert resolve(paper).tasks[0].options.bertscore_settings() == ("bert-base-uncased", 12)
    src = resolve(paper).tasks[0].options.encoder_sources()["consistency_bertscore"]
    assert (
        src["model"] == "paper default" and src["layer"].startswith("paper default") and src["idf"] == "paper default"
    )
    # naming bert-base-uncased without a layer keeps the paper's layer 12, not bert-score's 9 for that model
    named = make_config(**base, bertscore_model="/models/bert-base-uncased")
    assert resolve(named).tasks[0].options.bertscore_settings() == ("/models/bert-base-uncased", 12)
    assert resolve(named).tasks[0].options.encoder_sources()["consistency_bertscore"]["model"] == "user"
    other = make_config(**base, bertscore_model="/models/all-MiniLM-L6-v2", bertscore_idf=True)
    assert resolve(other).tasks[0].options.bertscore_settings() == ("/models/all-MiniLM-L6-v2", None)
    src = resolve(other).tasks[0].options.encoder_sources()["consistency_bertscore"]
    assert (src["layer"], src["idf"]) == ("bert-score default for this model", "user")
    layered = make_config(**base, bertscore_model="/models/bert-base-uncased", bertscore_layers=9)
    assert resolve(layered).tasks[0].options.bertscore_settings() == ("/models/bert-base-uncased", 9)
    assert resolve(layered).tasks[0].options.encoder_sources()["consistency_bertscore"]["layer"] == "user"

    resolved = resolve(paper).settings.resolved
    assert resolved["temperatures"] == {"consistency": [0.0, 0.25, 0.5, 0.75, 1.0]}
    assert resolved["temperatures_source"] == "paper default" and resolved["translator_source"] == "user"
    assert (
        resolved["bertscore"] == {"model": "bert-base-uncased", "layer": 12} and "samples" in resolved["defaults_taken"]
    )
    note = encoder_note({"model": "bert-base-uncased", "layer": 12, "idf": False, "rescale_with_baseline": False,
                         "source": {"model": "paper default"}}, "BERTScore")  # fmt: skip
    assert note == "BERTScore: bert-base-uncased, layer 12, no idf, no rescaling (model: paper default)"


def _open_when_told(path: str, ready: Any, go: Any, failures: Any) -> None:
    ready.put(None)  # xlingmed is imported (at unpickling): only the open is left to race
    go.wait()
    try:
        CompletionCache(path).close()
    except BaseException as exc:  # counted by the parent
        failures.put(repr(exc))


def test_runs_opening_one_new_cache_at_once_all_get_it(tmp_path: Path) -> None:
    """Several runs (processes) opening the same new cache file at once race for SQLite's switch to WAL; each one
    waits its turn instead of failing with "database is locked" (a race CI met with two runs sharing a cache)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    for attempt in range(3):  # the race needs the processes to collide: three rounds of eight
        path = tmp_path / f"shared{attempt}.sqlite"
        ready, go, failures = ctx.Queue(), ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_open_when_told, args=(str(path), ready, go, failures)) for _ in range(8)]
        for p in procs:
            p.start()
        for _ in procs:
            ready.get(timeout=300)  # every process has imported xlingmed and waits (300 s only stop a hang)
        go.set()
        for p in procs:
            p.join(60)
        found = [failures.get() for _ in range(failures.qsize())] if not failures.empty() else []
        assert found == [] and all(p.exitcode == 0 for p in procs)
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
