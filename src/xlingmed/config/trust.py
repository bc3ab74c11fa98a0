"""Where a run's requests go and which secret they carry is the user's decision, never a shared file's (issue 60).

A config file is something users share ("run it with my ``run.yaml``"). A file that says ``base_url:
http://elsewhere/v1`` and ``api_key_env: AWS_SECRET_ACCESS_KEY`` would have xlingmed send that secret to its
author. So the settings that choose a server, a key or code to run are the file's only with ``--trust-config``
(and then said on the console before the first request), or where the command line gives the same value; a file
may name only a provider's own key variable, whatever the trust.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from xlingmed.errors import ConfigError

ENDPOINT_FIELDS = ("base_url", "judge_base_url", "translator_base_url", "extractor_base_url")
KEY_FIELD = "api_key_env"
# backend options that run code or reach a host of the file's choosing
GATED_MODEL_ARGS = ("trust_remote_code",)
# the variables providers document for their own API keys: a file may name one of these, no other
PROVIDER_KEY_VARS = frozenset({
    "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AZURE_API_KEY", "AZURE_OPENAI_API_KEY", "GEMINI_API_KEY",
    "GOOGLE_API_KEY", "MISTRAL_API_KEY", "COHERE_API_KEY", "GROQ_API_KEY", "TOGETHER_API_KEY", "TOGETHERAI_API_KEY",
    "DEEPSEEK_API_KEY", "OPENROUTER_API_KEY", "FIREWORKS_API_KEY", "FIREWORKS_AI_API_KEY", "PERPLEXITYAI_API_KEY",
    "XAI_API_KEY", "DEEPINFRA_API_KEY", "ANYSCALE_API_KEY", "HUGGINGFACE_API_KEY", "NVIDIA_NIM_API_KEY",
    "CEREBRAS_API_KEY", "SAMBANOVA_API_KEY", "VLLM_API_KEY", "AI21_API_KEY", "REPLICATE_API_KEY",
})  # fmt: skip


def host_of(url: str) -> str:
    """The host (and port) ``url`` points at, without credentials: what the console names."""
    try:
        parts = urlsplit(str(url))
        host = parts.hostname or "?"
        return f"{host}:{parts.port}" if parts.port else host
    except ValueError:
        return "?"


def file_decisions(loaded: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The settings of ``loaded`` (a config file's fields) that choose a server, a key variable or code to run,
    and that the command line (``overrides``) does not give with the same value: ``{field: value}``, with
    ``model_args.<name>`` for a gated backend option."""
    out: dict[str, Any] = {}
    for name in (*ENDPOINT_FIELDS, KEY_FIELD):
        value = loaded.get(name)
        if value is not None and overrides.get(name) is None:
            out[name] = value
    file_args = loaded.get("model_args")
    flag_args = overrides.get("model_args") or {}
    if isinstance(file_args, Mapping):
        for name in GATED_MODEL_ARGS:
            if name in file_args and name not in flag_args and str(file_args[name]).lower() not in ("false", "0", ""):
                out[f"model_args.{name}"] = file_args[name]
    return out


def check_file_trust(source: str, decisions: Mapping[str, Any], trusted: bool) -> list[str]:
    """What to say on the console before the first request, for the ``decisions`` a config file makes.

    Raises:
        ConfigError: the file names a key variable that is no provider's (with or without trust: name it yourself
            with ``--api-key-env``), or it decides a server, key or code without ``trusted``; the message names
            the hosts and the variable.
    """
    if not decisions:
        return []
    said = _describe(decisions)
    key_env = decisions.get(KEY_FIELD)
    if key_env is not None and str(key_env) not in PROVIDER_KEY_VARS:
        raise ConfigError(
            f"config file {source} decides {said}; but ${key_env} is no provider's API key variable, and a config "
            f"file may name only one such as OPENAI_API_KEY; nothing was sent (give --api-key-env {key_env} "
            "yourself if you mean it)"
        )
    if not trusted:
        raise ConfigError(
            f"config file {source} decides {said}; nothing was sent. Check it, then pass --trust-config, or give "
            "these settings on the command line"
        )
    return [f"config file {source} (trusted): {said}"]


def _describe(decisions: Mapping[str, Any]) -> str:
    parts = [f"{name} → host {host_of(str(value))}" for name, value in decisions.items() if name in ENDPOINT_FIELDS]
    if KEY_FIELD in decisions:
        parts.append(f"the API key is read from ${decisions[KEY_FIELD]}")
    parts += [f"{name}={value}" for name, value in decisions.items() if name.startswith("model_args.")]
    return "where requests go and what they carry: " + "; ".join(parts)
