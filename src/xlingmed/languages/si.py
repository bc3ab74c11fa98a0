"""Sinhala (si): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "si", "Sinhala", "සිංහල", "Sinh", ("ඔව්",), ("නැහැ", "නැත"),
    answer_label="පිළිතුර",
    answer_phrases=("නිවැරදි පිළිතුර", "පිළිතුර:"),
    option_words=("විකල්පය",),
    conclusion_cues=("එබැවින්", "එනිසා", "නිගමනය", "වඩාත්ම ඉඩ ඇති", "වඩාත් සුදුසු"),
    negations_after=("නොවේ", "වැරදියි", "වැරදි"),
    no_choice_phrases=("රූපය නොමැතිව", "තීරණය කළ නොහැක", "පිළිතුරු දිය නොහැක", "ප්‍රමාණවත් තොරතුරු නැත"),
    term_words=("විටමින්", "වර්ගය", "කණ්ඩායම", "රෝගියා"),
)
