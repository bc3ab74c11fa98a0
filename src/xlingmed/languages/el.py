"""Greek (el): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Greek GDT treebank; Holton,
Mackridge & Philippaki-Warburton, Greek: A Comprehensive Grammar; Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "el", "Greek", "Ελληνικά", "Grek", ("ναι",), ("όχι", "οχι"),
    answer_label="Απάντηση",
    answer_phrases=("η σωστή απάντηση είναι", "σωστή απάντηση:", "απάντηση:", "η απάντηση είναι"),
    option_words=("επιλογή",),
    conclusion_cues=(
        "επομένως", "άρα", "συνεπώς", "συμπερασματικά", "συμπέρασμα", "πιο πιθανή", "πιο πιθανό",
        "η καλύτερη απάντηση", "είναι σωστή",
    ),
    negations_before=("όχι", "δεν", "δεν είναι", "αντί για", "εκτός από"),
    negations_after=(
        "δεν", "λάθος", "λανθασμένη", "απίθανο", "λιγότερο πιθανή", "δεν είναι σωστή", "δεν είναι σωστό", "άκυρη",
        "άκυρο", "λανθασμένο", "δεν ταιριάζει", "αποκλείεται",
    ),
    no_choice_phrases=(
        "χωρίς την εικόνα", "δεν μπορώ να προσδιορίσω", "δεν μπορώ να απαντήσω", "ανεπαρκείς πληροφορίες",
    ),
    none_phrases=("καμία από τις επιλογές", "καμία επιλογή δεν είναι σωστή"),
    refusal_phrases=("δεν μπορώ να παρέχω ιατρικές συμβουλές", "λυπάμαι, αλλά δεν μπορώ"),
    term_words=(
        "βιταμίνη", "ηπατίτιδα", "τύπος", "τύπου", "ομάδα", "ομάδας", "κατηγορία", "στάδιο", "βαθμός", "παράγοντας",
        "ασθενής",
    ),
    reply_letters=("α", "β", "γ", "δ", "ε"),
)
