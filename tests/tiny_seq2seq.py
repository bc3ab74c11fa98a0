"""A real, tiny MarianMT checkpoint built offline for the tests: SentencePiece models trained on a few sentences in
several scripts, a 2-layer Marian encoder–decoder with random weights, saved with ``save_pretrained``.

Weights and hub checkpoints cannot be downloaded here, and no Marian model ships in a PyPI package; this one runs
through exactly the code a real ``Helsinki-NLP/opus-mt-*`` model does (``AutoTokenizer``,
``AutoModelForSeq2SeqLM.generate``), so it proves the pipeline, not translation (its output is noise).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

CORPUS = [
    "What is the usual dose of paracetamol for adults?",
    "Do not take more than four grams in a day.",
    "Insulin is a hormone that lowers blood sugar.",
    "ما هي الجرعة المعتادة من الباراسيتامول للبالغين؟",
    "الأنسولين هرمون يخفض سكر الدم.",
    "成人对乙酰氨基酚的常用剂量是多少？",
    "वयस्कों के लिए पेरासिटामोल की सामान्य खुराक क्या है?",
    "¿Cuál es la dosis habitual de paracetamol para adultos?",
]


def build_tiny_marian(folder: Path, seed: int = 0) -> Path:
    """Write a tiny MarianMT model and tokenizer into ``folder`` (created); returns ``folder``."""
    import sentencepiece as spm
    import torch
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    folder.mkdir(parents=True, exist_ok=True)
    text = folder / "corpus.txt"
    text.write_text("\n".join(CORPUS * 4), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(text),
        model_prefix=str(folder / "spm"),
        vocab_size=160,
        character_coverage=1.0,
        model_type="unigram",
        minloglevel=2,
        hard_vocab_limit=False,
    )
    text.unlink()
    for name in ("source.spm", "target.spm"):
        (folder / name).write_bytes((folder / "spm.model").read_bytes())
    sp = spm.SentencePieceProcessor(model_file=str(folder / "spm.model"))
    pieces = [sp.id_to_piece(i) for i in range(sp.get_piece_size())]
    vocab = {"</s>": 0, "<unk>": 1, "<pad>": 2}
    for p in pieces:
        vocab.setdefault(p, len(vocab))
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    for stale in ("spm.model", "spm.vocab"):
        (folder / stale).unlink()
    with warnings.catch_warnings():  # it recommends sacremoses, which it does not need
        warnings.filterwarnings("ignore", message=".*sacremoses.*")
        tokenizer = MarianTokenizer(
            source_spm=str(folder / "source.spm"),
            target_spm=str(folder / "target.spm"),
            vocab=str(folder / "vocab.json"),
        )
    torch.manual_seed(seed)
    config = MarianConfig(
        vocab_size=len(vocab),
        d_model=32,
        encoder_layers=2,
        decoder_layers=2,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=64,
        decoder_ffn_dim=64,
        max_position_embeddings=512,
        pad_token_id=vocab["<pad>"],
        eos_token_id=vocab["</s>"],
        decoder_start_token_id=vocab["<pad>"],
        forced_eos_token_id=vocab["</s>"],
    )
    model = MarianMTModel(config)
    model.generation_config.max_length = 64
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
