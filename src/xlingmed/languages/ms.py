"""Malay (ms): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Dewan Bahasa dan Pustaka dictionary (Kamus Dewan);
FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ms", "Malay", "Bahasa Melayu", "Latn", ("ya",), ("tidak",),
    answer_label="Jawapan",
    answer_phrases=("jawapan yang betul ialah", "jawapan yang betul adalah", "jawapan:"),
    option_words=("pilihan",),
    conclusion_cues=(
        "oleh itu", "oleh yang demikian", "maka", "kesimpulannya", "kesimpulan", "paling mungkin", "paling sesuai",
        "jawapan terbaik",
    ),
    negations_before=("bukan", "tidak", "daripada", "kecuali"),
    negations_after=(
        "bukan", "tidak betul", "salah", "kurang mungkin", "tidak sah", "tidak sesuai", "tidak mungkin", "tidak tepat",
    ),
    no_choice_phrases=(
        "tanpa gambar", "tidak dapat menentukan", "tidak dapat menjawab", "maklumat tidak mencukupi",
    ),
    none_phrases=(
        "tiada satu pun pilihan", "tiada pilihan yang betul", "tiada jawapan yang betul", "bukan mana-mana pilihan",
        "semua pilihan salah",
    ),
    refusal_phrases=("saya tidak dapat memberikan nasihat perubatan", "maaf, saya tidak dapat"),
    term_words=("vitamin", "hepatitis", "jenis", "kumpulan", "kelas", "peringkat", "faktor", "pesakit"),
)
