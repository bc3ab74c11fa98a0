"""Turkish (tr): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Turkish IMST treebank; Göksel &
Kerslake, Turkish: A Comprehensive Grammar; Tatoeba/OPUS parallel sentences.
"""

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
    negations_after=(
        "değil", "değildir", "yanlış", "yanlıştır", "olası değil", "yerine", "hariç", "dışlanır", "geçersiz",
        "doğru değil", "uymuyor", "olamaz", "elenir",
    ),
    no_choice_phrases=(
        "görüntü olmadan", "resim olmadan", "belirleyemiyorum", "belirleyemem", "cevap veremiyorum",
        "yanıt veremem", "yeterli bilgi yok", "bilgi yetersiz",
    ),
    none_phrases=("seçeneklerin hiçbiri", "hiçbir seçenek doğru değil", "şıkların hiçbiri"),
    refusal_phrases=("tıbbi tavsiye veremem", "tıbbi tavsiyede bulunamam", "bu konuda yardımcı olamam"),
    term_words=("vitamin", "hepatit", "tip", "grup", "sınıf", "evre", "derece", "faktör", "hasta"),
    reference_headings=("kaynaklar", "kaynakça", "referanslar"),
)
