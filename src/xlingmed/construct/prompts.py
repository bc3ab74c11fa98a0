"""The construction prompts (translate, paraphrase, audit), read from ``prompts/construct.yaml`` and optionally
overlaid by a user's YAML file with any subset of the same keys."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path

import yaml

from xlingmed.errors import ConfigError
from xlingmed.safe_yaml import load_yaml


def load_prompts(override: str | Path | None = None) -> dict[str, dict[str, str]]:
    """``{"translate": {"system", "user"}, "paraphrase": {…}, "audit": {…}}`` with ``override`` laid over.

    Raises:
        ConfigError: an unreadable override, or a key the shipped file does not have (file and key named).
    """
    base = yaml.safe_load(resources.files("xlingmed.prompts").joinpath("construct.yaml").read_text("utf-8"))
    if override is None:
        return {k: dict(v) for k, v in base.items()}
    path = Path(override)
    extra = load_yaml(path, f"--prompts {path}") or {}  # capped, one-line errors (safe_yaml.py)
    if not isinstance(extra, dict):
        raise ConfigError(f"--prompts {path}: expected a mapping such as translate: {{system: …, user: …}}")
    out = {k: dict(v) for k, v in base.items()}
    for name, fields in extra.items():
        if name not in out or not isinstance(fields, dict):
            raise ConfigError(f"--prompts {path}: unknown prompt {name!r}; known: {', '.join(out)}")
        unknown = [k for k in fields if k not in out[name]]
        if unknown:
            raise ConfigError(f"--prompts {path}: {name} has no key(s) {unknown}; keys: {', '.join(out[name])}")
        out[name].update({k: str(v) for k, v in fields.items()})
    return out


def prompt_id(name: str, prompt: dict[str, str]) -> str:
    """``"translate@1a2b3c4d"``: the prompt's name and a hash of its text, recorded with every item it made."""
    digest = hashlib.sha256(json.dumps(prompt, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:8]
    return f"{name}@{digest}"
