"""Malay (ms): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    negations_after=("bukan", "tidak betul", "salah", "kurang mungkin"),
    no_choice_phrases=(
        "tanpa gambar", "tidak dapat menentukan", "tidak dapat menjawab", "maklumat tidak mencukupi",
    ),
    term_words=("vitamin", "hepatitis", "jenis", "kumpulan", "kelas", "peringkat", "faktor", "pesakit"),
)
