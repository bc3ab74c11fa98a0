"""Serbian (sr): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Serbian SET treebank;
Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "sr", "Serbian", "Српски", "Cyrl", ("да", "da"), ("не", "ne"),
    answer_label="Одговор",
    answer_phrases=(
        "тачан одговор је", "тачан одговор:", "одговор:", "tačan odgovor je", "tačan odgovor:", "odgovor:",
    ),
    option_words=("опција", "opcija"),
    conclusion_cues=(
        "стога", "дакле", "према томе", "закључак", "највероватније", "stoga", "dakle", "prema tome", "zaključak",
        "najverovatnije",
    ),
    negations_before=("не", "није", "уместо", "осим", "ne", "nije", "umesto", "osim"),
    negations_after=(
        "није", "нетачан", "нетачна", "погрешан", "погрешна", "nije", "netačan", "netačna", "pogrešan", "pogrešna",
        "неважећи", "није тачно", "не одговара", "не може бити", "nevažeći", "nije tačno", "ne odgovara",
        "ne može biti",
    ),
    no_choice_phrases=(
        "без слике", "не могу да одредим", "не могу да одговорим", "недовољно информација", "bez slike",
        "ne mogu da odredim", "ne mogu da odgovorim", "nedovoljno informacija",
    ),
    none_phrases=(
        "ниједан од понуђених", "ниједан одговор", "ниједна од опција", "nijedan od ponuđenih", "nijedan odgovor",
        "nijedna od opcija",
    ),
    refusal_phrases=(
        "не могу да дам медицински савет", "ne mogu da dam medicinski savet", "извините, али не могу",
        "izvinite, ali ne mogu",
    ),
    term_words=(
        "витамин", "хепатитис", "тип", "група", "класа", "стадијум", "пацијент", "vitamin", "hepatitis", "tip",
        "grupa", "klasa", "stadijum", "pacijent",
    ),
)
