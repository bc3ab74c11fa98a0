"""English (en): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies English EWT treebank; the
Cambridge Grammar of the English Language (Huddleston & Pullum) on negation.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "en", "English", "English", "Latn", ("yes",), ("no",),
    answer_label="Answer",
    rationale_headings=("rationale", "explanation", "justification", "reasoning", "reason"),
    answer_phrases=(
        "the correct answers are", "the correct options are", "the correct answer is", "the correct answer would be",
        "the right answer is", "the best answer is",
        "the answer is", "the correct option is", "the correct choice is", "the best option is", "correct answer:",
        "correct option:", "final answer:", "my answer:", "answer:", "answer is", "the most likely answer is",
        "the most appropriate answer is", "the best answer would be", "the correct response is",
        "my final answer is", "the final answer is", "final answer is", "the answer would be", "i would choose",
        "i would select", "i would go with", "i'd go with", "i'd choose", "i choose", "i select", "my choice is",
        "best answer:", "correct choice:", "correct letter:", "the correct letter is", "final choice:",
        "answer choice:", "selected option:", "selected answer:",
        "i'd pick", "i would pick", "i pick", "i'll go with", "i will go with", "i'll choose", "i will choose",
        "i'll pick", "i'd select", "i'll select", "my pick is", "my pick:",
        # a true/false-statement question's answer ("the incorrect statement is 2")
        "the correct statement is", "the incorrect statement is", "the false statement is", "the true statement is",
        "the incorrect option is", "the incorrect answer is",
    ),
    option_words=("option", "choice", "letter", "answer", "alternative", "number"),
    counting_words=("number", "answer"),
    option_ordinals=(
        ("first option", "first choice", "option one", "1st option"),
        ("second option", "second choice", "option two", "2nd option"),
        ("third option", "third choice", "option three", "3rd option"),
        ("fourth option", "fourth choice", "option four", "4th option"),
        ("fifth option", "fifth choice", "option five", "5th option"),
    ),
    conclusion_cues=(
        "therefore", "thus", "hence", "consequently", "accordingly", "in conclusion", "to conclude", "in summary",
        "to summarize", "to summarise", "overall,", "conclusion", "bottom line", "the most likely", "most likely",
        "the most appropriate", "most appropriate", "the most accurate", "the best answer", "the best option",
        "the best choice", "the most correct", "the correct answer", "the right answer", "final answer",
        "is correct", "is the correct", "is the best", "is the answer", "is the right",
        # after the label: "C would be my choice", "B is my final answer"
        "would be my choice", "is my choice", "is my answer", "is my final answer", "would be my answer",
        "remains correct", "remains the best", "remains the correct", "is still correct", "is still the best",
        # no option matches the reply's own result, and it commits to the nearest: "The closest option is: **B. …**"
        "the closest option", "the closest answer", "the closest match", "closest option", "the most reasonable option",
        "the closest is", "is the closest", "would be the closest",
    ),
    negations_before=(
        "not", "isn't", "is not", "never", "rather than", "instead of", "except", "excluding", "exclude",
        "excludes", "rule out", "rules out", "ruling out", "ruled out", "eliminate", "eliminates", "eliminating",
        "unlike", "nor", "neither",
    ),
    negations_after=(
        "not", "isn't", "aren't", "doesn't", "incorrect", "wrong", "unlikely", "less likely", "ruled out", "excluded",
        "false", "inappropriate", "implausible", "eliminated", "invalid", "untrue", "does not fit", "doesn't fit",
        "does not match", "doesn't match", "cannot be the answer", "cannot be correct", "can't be the answer",
        "can't be correct",
    ),
    no_choice_phrases=(
        "without the image", "without seeing the image", "without the figure", "without the picture",
        "without access to the image", "without the photo", "without viewing", "image is not provided",
        "image was not provided", "image has not been provided", "image is not available", "images are not provided",
        "no image", "not been provided", "cannot see the image", "can't see the image", "unable to see the image",
        "unable to view", "cannot view", "i cannot determine", "i can't determine", "cannot be determined",
        "unable to determine", "impossible to determine", "not possible to determine", "not enough information",
        "insufficient information", "more information is needed", "need more information",
        "additional information is needed", "i cannot answer", "i can't answer", "i am unable to answer",
        "i'm unable to answer", "i cannot choose", "i can't choose", "i cannot select", "i can't select",
        "i cannot pick", "i'm not able to", "i am not able to", "as an ai", "as a language model", "i'm sorry, but",
        "i am sorry, but", "i apologize, but", "please provide the image", "please provide the figure",
        "the correct answer cannot be chosen", "cannot be chosen from these options", "the correct answer is not among",
        "the answer is not among", "not among the options",
    ),
    none_phrases=(
        "none of the options", "none of the provided options", "none of the answer choices", "none of the choices",
        "none of the given options", "none of these options", "none of these choices", "none of the listed options",
        "no option is correct", "no correct option", "no correct answer among", "neither of the options is correct",
        "none of the above", "none of the statements is correct", "none of the statements are correct",
    ),
    refusal_phrases=(
        "i'm sorry, but i can't", "i am sorry, but i cannot", "i'm sorry, but i cannot", "i can't help with",
        "i cannot help with", "i can't provide medical advice", "i cannot provide medical advice",
        "i'm not able to provide medical", "i am not able to provide medical", "i'm unable to provide medical",
        "i am unable to provide medical", "i can't answer this", "i cannot answer this",
        "as an ai language model, i cannot", "as an ai, i cannot", "i can't give medical advice",
        "i cannot give medical advice", "i'm not able to give medical advice", "i am unable to give medical advice",
        "i cannot diagnose", "i can't diagnose",
    ),
    term_words=(
        "vitamin", "vitamins", "hepatitis", "type", "types", "group", "groups", "class", "stage", "grade", "factor",
        "protein", "complex", "lead", "zone", "phase", "category", "cluster", "influenza", "hemophilia",
        "haemophilia", "toxin", "immunoglobulin", "antigen", "strep", "streptococcus", "streptococci", "serotype",
        "blood", "schedule", "wave", "waves", "point", "plan", "virus", "band", "apolipoprotein", "apo", "coenzyme",
        "tanner", "gleason", "figo", "list", "part", "section", "table", "figure", "fig", "panel", "series", "step",
        "level", "tier", "hep", "vit", "mr", "mrs", "ms", "dr", "patient", "person", "subject", "drug", "compound",
        "medication", "agent", "substance", "child", "mother", "hospital", "ward", "site", "region", "area", "cell",
        "cells", "fiber", "fibers", "fibre", "fibres", "pattern", "criterion", "criteria", "channel", "receptor",
        "reaction", "component", "peak", "segment", "vitamine", "niemann-pick", "lipoprotein", "hemoglobin",
        "haemoglobin", "immunodeficiency",
    ),
    term_suffixes=(
        "cell", "cells", "lymphocyte", "lymphocytes", "vitamin", "vitamins", "virus", "strep", "streptococcus",
        "streptococci", "antigen", "antigens", "wave", "waves", "fibers", "fibres", "fiber", "positive", "negative",
        "blood", "type", "hepatitis", "botulinum", "toxin", "complex", "personality", "receptor", "receptors",
        "band", "bands", "chain", "chains", "subunit", "allele", "gene", "genes", "protein",
    ),
    reference_headings=(
        "references", "reference", "sources", "bibliography", "citations", "works cited", "further reading",
    ),
    field_words=(
        "confidence", "certainty", "probability", "score", "grade", "level", "question", "item", "page", "step",
        "note", "reference", "references", "source", "sources", "type", "stage", "class", "figure", "table",
        "vitamin", "hepatitis", "group",
    ),
    affirmations=(
        "is correct", "is right", "is the correct", "is the right", "is the correct answer", "is the right answer",
        "is the correct option", "is the right option", "is correct answer", "is correct option",
    ),
    copulas=("is", "are", "was", "would be", "will be", "must be", "should be"),
    # an answer phrase after one of these in its clause is someone else's, a supposition or an example
    # a reasoning trace's doubt about the answer it just gave
    doubt_words=("wait", "hmm", "not sure", "maybe i'm", "i'm confused", "getting confused", "alternatively"),
    reported_words=(
        "if", "whether", "unless", "suppose", "supposing", "claims", "claimed", "claim that", "says", "said",
        "suggests", "suggested", "states", "stated", "believes", "believed", "thinks", "thought", "assumes",
        "assumed",
        "for example", "for instance", "e.g.",
    ),
)
