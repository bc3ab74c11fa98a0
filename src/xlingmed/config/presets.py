"""Named protocols (``--preset NAME``): a set of run settings that reproduce a paper's setup in one flag.

A preset fills only what the user left unset: ``--preset medalpaca --max-tokens 256`` keeps the 256. Its task
options sit under the user's ``-T`` ones. The preset's name is kept in the run's ``config.json``. Add one by adding
an entry to ``PRESETS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from xlingmed.errors import ConfigError
from xlingmed.prompts import medalpaca

# The XLingEval criteria (the paper's three tasks), for code that runs the paper's protocol by name.
XLINGEVAL_TASKS: tuple[str, ...] = ("correctness", "verifiability", "consistency")


@dataclass(frozen=True)
class Preset:
    """``settings``: ``RunConfig`` fields; ``task_args`` among them merge under the user's ``-T`` options."""

    name: str
    description: str
    settings: Mapping[str, Any]


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "medalpaca",
            "XLingEval's MedAlpaca protocol (spec xlingeval.md §6): Alpaca prompts sent verbatim, temperatures "
            "0.001–1, top-k 50, top-p 0.9, 512 new tokens, K = 10, MedAlpaca's yes/no parser",
            {
                "temperatures": medalpaca.TEMPERATURES,
                "top_k": medalpaca.TOP_K,
                "top_p": medalpaca.TOP_P,
                "max_tokens": medalpaca.MAX_NEW_TOKENS,
                "task_args": {
                    "prompt_style": "medalpaca",
                    "verify_parser": "medalpaca",
                    "verify_max_tokens": medalpaca.MAX_NEW_TOKENS,
                    "samples": 10,
                },
            },
        ),
    )
}


def apply_preset(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (RunConfig fields) with its ``preset``'s settings filled in where ``data`` has none.

    Raises:
        ConfigError: an unknown preset name.
    """
    out = dict(data)
    name = out.get("preset")
    if name is None:
        return out
    if name not in PRESETS:
        raise ConfigError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
    for key, value in PRESETS[name].settings.items():
        if key == "task_args":
            out[key] = {**value, **dict(out.get(key) or {})}
        elif out.get(key) is None:
            out[key] = value
    return out
