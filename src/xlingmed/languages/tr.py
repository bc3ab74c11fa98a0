"""Turkish (tr): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "tr", "Turkish", "Türkçe", "Latn", ("evet",), ("hayır", "hayir"),
    answer_label="Cevap",
    rationale_headings=("açıklama", "gerekçe"),
    answer_phrases=("doğru cevap", "doğru yanıt", "cevap:", "yanıt:", "doğru seçenek", "doğru şık"),
    option_words=("seçenek", "şık", "şıkkı", "seçeneği"),
    conclusion_cues=(
        "bu nedenle", "dolayısıyla", "sonuç olarak", "sonuçta", "özetle", "en olası", "en muhtemel", "en uygun",
        "en iyi cevap", "doğrudur",
    ),
    negations_after=("değil", "değildir", "yanlış", "yanlıştır", "olası değil", "yerine", "hariç", "dışlanır"),
    no_choice_phrases=(
        "görüntü olmadan", "resim olmadan", "belirleyemiyorum", "belirleyemem", "cevap veremiyorum",
        "yanıt veremem", "yeterli bilgi yok", "bilgi yetersiz",
    ),
    term_words=("vitamin", "hepatit", "tip", "grup", "sınıf", "evre", "derece", "faktör", "hasta"),
    reference_headings=("kaynaklar", "kaynakça", "referanslar"),
)
