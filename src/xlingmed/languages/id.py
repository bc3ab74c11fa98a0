"""Indonesian (id): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Indonesian GSD treebank; Sneddon
et al., Indonesian: A Comprehensive Grammar; Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "id", "Indonesian", "Bahasa Indonesia", "Latn", ("ya",), ("tidak",),
    answer_label="Jawaban",
    rationale_headings=("penjelasan", "alasan"),
    answer_phrases=(
        "jawaban yang benar adalah", "jawabannya adalah", "jawaban:", "jawaban yang tepat adalah",
        "pilihan yang benar adalah", "jawaban akhir:",
    ),
    option_words=("pilihan", "opsi", "jawaban"),
    conclusion_cues=(
        "oleh karena itu", "jadi", "dengan demikian", "maka", "kesimpulan", "kesimpulannya", "paling mungkin",
        "paling tepat", "jawaban terbaik", "adalah benar", "yang benar",
    ),
    negations_before=("bukan", "tidak", "alih-alih", "daripada", "kecuali"),
    negations_after=(
        "bukan", "tidak tepat", "tidak benar", "salah", "kurang mungkin", "tidak mungkin", "tidak valid",
        "tidak sesuai", "tidak cocok", "dapat disingkirkan", "disingkirkan",
    ),
    no_choice_phrases=(
        "tanpa gambar", "tidak dapat melihat gambar", "tidak dapat menentukan", "tidak bisa menentukan",
        "tidak dapat menjawab", "informasi tidak cukup", "informasi yang tidak cukup", "sebagai ai",
    ),
    none_phrases=(
        "tidak ada satu pun pilihan", "tidak ada pilihan yang benar", "tidak ada jawaban yang benar",
        "bukan salah satu dari pilihan", "semua pilihan salah", "tidak satu pun dari pilihan",
    ),
    refusal_phrases=(
        "saya tidak dapat memberikan saran medis", "saya tidak bisa memberikan nasihat medis", "maaf, saya tidak dapat",
    ),
    term_words=(
        "vitamin", "hepatitis", "tipe", "jenis", "golongan", "kelompok", "kelas", "stadium", "derajat", "faktor",
        "pasien",
    ),
    reference_headings=("referensi", "daftar pustaka", "sumber"),
)
