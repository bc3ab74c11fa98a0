"""Sinhala (si): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Gair & Paolillo, Sinhala (Languages of the World/Materials);
FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "si", "Sinhala", "සිංහල", "Sinh", ("ඔව්",), ("නැහැ", "නැත"),
    answer_label="පිළිතුර",
    answer_phrases=("නිවැරදි පිළිතුර", "පිළිතුර:"),
    option_words=("විකල්පය",),
    conclusion_cues=("එබැවින්", "එනිසා", "නිගමනය", "වඩාත්ම ඉඩ ඇති", "වඩාත් සුදුසු"),
    negations_after=("නොවේ", "වැරදියි", "වැරදි", "වලංගු නොවේ", "නිවැරදි නොවේ", "ගැළපෙන්නේ නැත", "විය නොහැක"),
    no_choice_phrases=("රූපය නොමැතිව", "තීරණය කළ නොහැක", "පිළිතුරු දිය නොහැක", "ප්‍රමාණවත් තොරතුරු නැත"),
    none_phrases=("කිසිදු විකල්පයක් නිවැරදි නොවේ", "විකල්ප කිසිවක් නොවේ", "නිවැරදි විකල්පයක් නැත"),
    refusal_phrases=("මට වෛද්‍ය උපදෙස් ලබා දිය නොහැක", "සමාවන්න, මට නොහැක"),
    term_words=("විටමින්", "වර්ගය", "කණ්ඩායම", "රෝගියා"),
)
