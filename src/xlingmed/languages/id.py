"""Indonesian (id): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    negations_after=("bukan", "tidak tepat", "tidak benar", "salah", "kurang mungkin", "tidak mungkin"),
    no_choice_phrases=(
        "tanpa gambar", "tidak dapat melihat gambar", "tidak dapat menentukan", "tidak bisa menentukan",
        "tidak dapat menjawab", "informasi tidak cukup", "informasi yang tidak cukup", "sebagai ai",
    ),
    term_words=(
        "vitamin", "hepatitis", "tipe", "jenis", "golongan", "kelompok", "kelas", "stadium", "derajat", "faktor",
        "pasien",
    ),
    reference_headings=("referensi", "daftar pustaka", "sumber"),
)
