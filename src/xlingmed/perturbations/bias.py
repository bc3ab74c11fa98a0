"""Cognitive-bias injection and mitigation for any multiple-choice item, in any supported language.

Method: BiasMedQA (Schmidgall et al. 2024) and MedArabiQ §3.3 / App. D–E (spec ``medarabiq.md`` §6): a sentence
that points at one option (the *target*, a random wrong option by default) is put into the question; the
mitigations are a warning about that bias (*education*), one demonstration of a biased question answered wrongly
(*one-shot*), or that plus one answered rightly despite the bias (*few-shot*). Templates are ours, per language,
in ``prompts/bias.yaml``.

Everything is seeded per (seed, item id, bias), so a variant does not change when the item set is subset, and the
same question gets the same target in every language (paired). Demonstrations come from *other* items of the same
language, never the item itself. The variants are stored on the item as ``meta["variants"]`` with keys
``"original"`` and ``"<condition>|<bias>"`` (the interface MedArabiQ's pre-rendered columns use too), the targets as
``meta["bias_targets"]``.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

import yaml

from xlingmed.errors import ConfigError
from xlingmed.languages import option_labels
from xlingmed.types import Item

BIASES: tuple[str, ...] = (
    "confirmation",
    "recency",
    "frequency",
    "cultural",
    "false_consensus",
    "status_quo",
    "self_diagnosis",
)
MITIGATIONS: tuple[str, ...] = ("education", "one_shot", "few_shot")
POSITIONS = ("auto", "prepend", "append", "after_first_sentence")
TARGET_POLICIES = ("random_incorrect", "correct", "random")
TARGET_RENDERS = ("letter_and_text", "text_only", "letter_only")
# A sentence ends at . ! ? and their Arabic, Devanagari and CJK forms, or at a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?؟।。！？])\s+|(?<=[。！？])|\n+")


@cache
def templates() -> dict[str, Any]:
    """``prompts/bias.yaml``: per bias its default position, sentence and education warning per language."""
    text = resources.files("xlingmed.prompts").joinpath("bias.yaml").read_text("utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def parse_perturb(spec: str) -> tuple[str, ...]:
    """``bias:all`` → the seven biases; ``bias:recency,cultural`` → those.

    Raises:
        ConfigError: not ``bias:…``, or an unknown bias name.
    """
    kind, _, names = spec.partition(":")
    if kind != "bias":
        raise ConfigError(f"unknown perturbation {spec!r}; known: bias:all or bias:<name>[,<name>…]")
    if names in ("", "all"):
        return BIASES
    chosen = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in chosen if n not in BIASES]
    if unknown:
        raise ConfigError(f"unknown bias(es) {unknown}; known: {', '.join(BIASES)}")
    return tuple(b for b in BIASES if b in chosen)


def split_first_sentence(text: str) -> tuple[str, str]:
    """(first sentence, the rest) with the punctuation of en/es (``.?!``), ar (``؟``), hi (``।``), zh (``。？！``)."""
    m = _SENTENCE_END.search(text.strip())
    if m is None:
        return text.strip(), ""
    return text.strip()[: m.start()].strip(), text.strip()[m.end() :].strip()


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _letter(item: Item, label: str) -> str:
    letters = option_labels(item.lang, max(ord(c.label) - ord("A") + 1 for c in item.choices))
    return letters[ord(label) - ord("A")]


def render_option(item: Item, label: str, how: str = "letter_and_text") -> str:
    """An option as the bias sentence names it: ``B: text`` (in the item's label script), ``text`` or ``B``."""
    choice = next(c for c in item.choices if c.label == label)
    if how == "text_only":
        return choice.text
    if how == "letter_only":
        return _letter(item, label)
    return f"{_letter(item, label)}: {choice.text}"


def options_block(item: Item) -> str:
    return "\n".join(f"{_letter(item, c.label)}. {c.text}" for c in item.choices)


def stem_of(item: Item) -> str:
    return str(item.meta.get("stem") or item.question).strip()


@dataclass(frozen=True)
class BiasInjector:
    """Builds the biased and mitigated variants of multiple-choice items.

    Args:
        biases: the bias categories to inject (``BIASES``).
        mitigations: which of ``education``, ``one_shot``, ``few_shot`` to build as well.
        target_policy: ``random_incorrect`` (default; never the gold option), ``correct``, ``random``.
        target_render: how the sentence names the target: ``letter_and_text`` (``B: text``), ``text_only``,
            ``letter_only``.
        position: ``auto`` (each bias's default: after the first sentence for confirmation, as BiasMedQA; after
            the stem otherwise), ``prepend``, ``append``, ``after_first_sentence``.
        seed: the run's seed; every choice is seeded by (seed, item id, bias).

    Raises:
        ConfigError: an unknown bias, mitigation, policy, render or position.
    """

    biases: tuple[str, ...] = BIASES
    mitigations: tuple[str, ...] = MITIGATIONS
    target_policy: str = "random_incorrect"
    target_render: str = "letter_and_text"
    position: str = "auto"
    seed: int = 0

    def __post_init__(self) -> None:
        for value, known, what in (
            (self.target_policy, TARGET_POLICIES, "bias target policy"),
            (self.target_render, TARGET_RENDERS, "bias target render"),
            (self.position, POSITIONS, "bias position"),
        ):
            if value not in known:
                raise ConfigError(f"unknown {what} {value!r}; known: {', '.join(known)}")
        bad = [b for b in self.biases if b not in BIASES] + [m for m in self.mitigations if m not in MITIGATIONS]
        if bad:
            raise ConfigError(f"unknown bias or mitigation {bad}")

    def settings(self) -> dict[str, Any]:
        return {
            "biases": list(self.biases),
            "mitigations": list(self.mitigations),
            "target_policy": self.target_policy,
            "target_render": self.target_render,
            "position": self.position,
            "seed": self.seed,
            "templates": "xlingmed/prompts/bias.yaml",
        }

    def target(self, item: Item, bias: str) -> str:
        """The label the bias points at, seeded by (seed, item id, bias): the same in every language."""
        labels = [c.label for c in item.choices]
        if self.target_policy == "correct":
            return str(item.gold_label)
        pool = [lab for lab in labels if lab != item.gold_label] if self.target_policy == "random_incorrect" else labels
        return _rng(self.seed, "target", item.item_id, bias).choice(sorted(pool))

    def biased_stem(self, item: Item, bias: str, target: str) -> str:
        """The stem with the bias sentence put in."""
        spec = templates()["biases"][bias]
        sentences = spec["sentence"]
        if item.lang not in sentences:
            raise ConfigError(f"no {bias} bias template for language {item.lang!r}; languages: {', '.join(sentences)}")
        sentence = sentences[item.lang].format(target=render_option(item, target, self.target_render))
        where = spec["position"] if self.position == "auto" else self.position
        stem = stem_of(item)
        if where == "prepend":
            return f"{sentence} {stem}"
        if where == "after_first_sentence":
            first, rest = split_first_sentence(stem)
            return f"{first} {sentence} {rest}".strip()
        return f"{stem} {sentence}"

    def biased_text(self, item: Item, bias: str, target: str) -> str:
        return f"{self.biased_stem(item, bias, target)}\n{options_block(item)}"

    def _demo(self, demo: Item, bias: str, *, answered_right: bool) -> str:
        lang = demo.lang
        texts = templates()["demonstrations"]
        target = self.target(demo, bias)
        if target == demo.gold_label:  # policy "correct"/"random": a demonstration still needs a wrong pull
            target = next(c.label for c in demo.choices if c.label != demo.gold_label)
        chosen = demo.gold_label if answered_right else target
        intro = texts["right_intro" if answered_right else "wrong_intro"][lang]
        answered = texts["answered"][lang].format(
            chosen=render_option(demo, str(chosen)), correct=render_option(demo, str(demo.gold_label))
        )
        return f"{intro}\n{self.biased_text(demo, bias, target)}\n{answered}"

    def _pool(self, item: Item, pool: Sequence[Item]) -> list[Item]:
        return sorted(
            (p for p in pool if p.lang == item.lang and p.item_id != item.item_id and p.choices),
            key=lambda p: p.item_id,
        )

    def variants(self, item: Item, pool: Sequence[Item]) -> tuple[dict[str, str], dict[str, str], dict[str, Any]]:
        """(variants, targets, demonstration ids) of one item.

        Raises:
            ConfigError: the item has no options, or a demonstration is asked for and no other item of its
                language exists.
        """
        if not item.choices or item.gold_label is None:
            raise ConfigError(f"{item.item_id}: bias injection needs a multiple-choice item with a gold option")
        original = f"{stem_of(item)}\n{options_block(item)}"
        variants = {"original": original}
        targets: dict[str, str] = {}
        demos: dict[str, list[str]] = {}
        others = self._pool(item, pool)
        texts = templates()["demonstrations"]
        for bias in self.biases:
            target = self.target(item, bias)
            targets[bias] = target
            biased = self.biased_text(item, bias, target)
            variants[f"biased|{bias}"] = biased
            if "education" in self.mitigations:
                warning = templates()["biases"][bias]["education"][item.lang]
                variants[f"education|{bias}"] = f"{warning}\n{biased}"
            wanted = [m for m in ("one_shot", "few_shot") if m in self.mitigations]
            if not wanted:
                continue
            if len(others) < 2:
                raise ConfigError(
                    f"{item.item_id}: one-/few-shot mitigation needs two other items in {item.lang} to draw "
                    "demonstrations from"
                )
            first, second = _rng(self.seed, "demo", item.item_id, bias).sample(others, 2)
            demos[bias] = [first.item_id, second.item_id]
            now = texts["now"][item.lang]
            wrong = self._demo(first, bias, answered_right=False)
            if "one_shot" in self.mitigations:
                variants[f"one_shot|{bias}"] = f"{wrong}\n\n{now}\n{biased}"
            if "few_shot" in self.mitigations:
                right = self._demo(second, bias, answered_right=True)
                variants[f"few_shot|{bias}"] = f"{wrong}\n\n{right}\n\n{now}\n{biased}"
        return variants, targets, demos

    def apply(self, items: Sequence[Item], pool: Sequence[Item] | None = None) -> list[Item]:
        """``items`` with ``meta["variants"]``, ``meta["bias_targets"]`` and ``meta["demonstrations"]`` set.
        ``pool`` (default: ``items``) is where demonstrations come from."""
        source = list(pool if pool is not None else items)
        out = []
        for it in items:
            variants, targets, demos = self.variants(it, source)
            out.append(
                replace(
                    it,
                    meta={
                        **it.meta,
                        "variants": variants,
                        "bias_targets": targets,
                        "demonstrations": demos,
                        "options_embedded": True,
                    },
                )
            )
        return out


def example(item: Item, bias: str, injector: BiasInjector | None = None) -> str:
    """The biased question of ``item`` for ``bias`` (for docs and closing notes)."""
    inj = injector or BiasInjector(biases=(bias,), mitigations=())
    return inj.biased_text(item, bias, inj.target(item, bias))


__all__ = ["BIASES", "MITIGATIONS", "BiasInjector", "example", "parse_perturb", "split_first_sentence"]
