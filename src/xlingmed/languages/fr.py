"""French (fr): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies French GSD treebank; Grevisse, Le
Bon Usage (négation); Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "fr", "French", "Français", "Latn", ("oui",), ("non",),
    answer_label="Réponse",
    rationale_headings=("explication", "justification", "raisonnement"),
    answer_phrases=(
        "la bonne réponse est", "la réponse correcte est", "la réponse est", "bonne réponse :", "bonne réponse:",
        "réponse :", "la bonne réponse serait", "je choisirais", "ma réponse est", "réponse finale :",
        "réponse finale:", "réponse:", "la réponse correcte:", "la bonne option est",
        # a true/false-statement question's answer ("the incorrect statement is 2")
        "l'affirmation correcte est", "l'affirmation incorrecte est", "la proposition exacte est",
        "la proposition inexacte est", "la proposition correcte est",
    ),
    option_words=("choix", "lettre", "réponse", "option", "proposition"),
    counting_words=("réponse",),
    option_ordinals=(
        ("première option", "première proposition", "première réponse", "première choix"),
        ("deuxième option", "deuxième proposition", "deuxième réponse", "deuxième choix"),
        ("troisième option", "troisième proposition", "troisième réponse", "troisième choix"),
        ("quatrième option", "quatrième proposition", "quatrième réponse", "quatrième choix"),
        ("cinquième option", "cinquième proposition", "cinquième réponse", "cinquième choix"),
    ),
    conclusion_cues=(
        "donc", "par conséquent", "ainsi", "en conclusion", "conclusion", "en résumé", "le plus probable",
        "la plus probable", "plus probable", "la plus adaptée", "le plus adapté", "la plus appropriée",
        "la meilleure réponse", "la meilleure option", "la bonne réponse", "est correcte", "est la bonne",
    ),
    negations_before=(
        "pas", "n'est pas", "non", "plutôt que", "au lieu de", "sauf", "excepté", "éliminer", "exclure",
        "contrairement à",
    ),
    negations_after=(
        "n'est pas", "pas", "incorrecte", "incorrect", "peu probable", "moins probable", "exclue", "exclu", "fausse",
        "faux", "improbable", "invalide", "n'est pas correcte", "ne correspond pas", "ne peut pas être", "est exclue",
        "est exclu", "erronée", "erroné",
    ),
    no_choice_phrases=(
        "sans l'image", "sans voir l'image", "l'image n'est pas", "je ne peux pas voir l'image",
        "je ne peux pas déterminer", "impossible de déterminer", "je ne peux pas répondre", "je ne peux pas choisir",
        "informations insuffisantes", "pas assez d'informations", "en tant qu'ia", "en tant que modèle de langage",
        "la bonne réponse ne figure pas", "ne figure pas parmi les options",
    ),
    none_phrases=(
        "aucune des options", "aucune des réponses", "aucune des propositions", "aucune de ces réponses",
        "aucune proposition n'est correcte",
    ),
    refusal_phrases=(
        "je suis désolé, mais je ne peux pas", "je ne peux pas fournir de conseils médicaux",
        "je ne peux pas donner de conseils médicaux", "je ne peux pas répondre à cette question",
        "je ne peux pas poser de diagnostic",
    ),
    term_words=(
        "vitamine", "vitamines", "hépatite", "type", "groupe", "classe", "stade", "grade", "facteur", "phase",
        "catégorie", "grippe", "hémophilie", "toxine", "immunoglobuline", "antigène", "streptocoque", "cellules",
        "cellule", "virus", "zone", "onde", "patient", "patiente", "m", "mme", "médicament", "plan", "figure",
        "tableau", "niveau",
    ),
    reference_headings=("références", "bibliographie", "sources"),
    field_words=("confiance", "niveau"),
    affirmations=("est correcte", "est la bonne réponse", "est la réponse correcte"),
    copulas=("est", "sont", "serait", "doit être"),
)
