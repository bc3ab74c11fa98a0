"""Polish (pl): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Polish PDB treebank; the PWN
dictionary (Słownik języka polskiego); Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "pl", "Polish", "Polski", "Latn", ("tak",), ("nie",),
    answer_label="Odpowiedź",
    rationale_headings=("wyjaśnienie", "uzasadnienie"),
    answer_phrases=(
        "prawidłowa odpowiedź to", "poprawna odpowiedź to", "prawidłowa odpowiedź:", "poprawna odpowiedź:",
        "odpowiedź:", "odpowiedź to", "właściwa odpowiedź to",
    ),
    option_words=("opcja", "odpowiedź", "wariant"),
    conclusion_cues=(
        "dlatego", "zatem", "więc", "w związku z tym", "podsumowując", "wniosek", "najbardziej prawdopodobne",
        "najbardziej prawdopodobna", "najbardziej prawdopodobny", "najlepsza odpowiedź", "najwłaściwsza",
        "jest prawidłowa", "jest poprawna",
    ),
    negations_before=("nie", "zamiast", "oprócz", "z wyjątkiem"),
    negations_after=(
        "nie", "błędna", "nieprawidłowa", "niepoprawna", "mało prawdopodobne", "mniej prawdopodobna", "nieważna",
        "niepoprawne", "nie pasuje", "nie może być", "wykluczona", "wykluczony", "nieprawidłowe",
    ),
    no_choice_phrases=(
        "bez obrazu", "bez zdjęcia", "nie mogę określić", "nie można określić", "nie mogę odpowiedzieć",
        "niewystarczające informacje", "za mało informacji",
    ),
    none_phrases=(
        "żadna z odpowiedzi", "żadna z opcji", "żadna z podanych odpowiedzi", "żadna odpowiedź nie jest prawidłowa",
    ),
    refusal_phrases=(
        "nie mogę udzielać porad medycznych", "nie mogę udzielić porady medycznej", "przepraszam, ale nie mogę",
    ),
    term_words=(
        "witamina", "witaminy", "typ", "typu", "grupa", "grupy", "klasa", "stadium", "stopień", "czynnik",
        "pacjent", "pacjentka",
    ),
    reference_headings=("bibliografia", "źródła", "piśmiennictwo", "referencje"),
)
